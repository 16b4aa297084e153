-- 0008: the console at a million sign-ups. Its totals, chart and sources are read from counts the database keeps
-- in the same statement as each change (so a sign-up counts the moment it is stored, and a rollback uncounts it),
-- instead of counting the whole table on every visit; its list reads an index in sign-up order; a search by part
-- of an address reads a trigram index (pg_trgm) where the database has it, else an index of address prefixes.

-- Rows by status and by the key that seals them ('' for a plain row): the totals and the sealing report.
CREATE TABLE IF NOT EXISTS waitlist_tally (
  status text NOT NULL,
  key_id text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (status, key_id)
);

-- Sign-ups by day (UTC) of created_at: field 'all' (value NULL) for the chart, and one row per value of each
-- source field for the breakdown (NULL: none known). Rows of deleted sign-ups are taken off too.
CREATE TABLE IF NOT EXISTS waitlist_day_tally (
  day date NOT NULL,
  field text NOT NULL CONSTRAINT waitlist_day_tally_field_check
    CHECK (field IN ('all', 'source', 'medium', 'campaign', 'referrer')),
  value text NULL,
  count bigint NOT NULL,
  CONSTRAINT waitlist_day_tally_key UNIQUE NULLS NOT DISTINCT (day, field, value)
);

-- The two statements that apply one statement's changes (rows added +1, rows removed -1; an update is both) to
-- both tallies. Rows are locked in key order, tally before day tally, at the end of the statement: two statements
-- never wait on each other in a cycle. An update that changes neither status, key nor sources nets to nothing and
-- writes nothing. Returned as text because only the trigger's own function sees its transition tables.
CREATE OR REPLACE FUNCTION waitlist_tally_statements(changes text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $fn$
  SELECT ARRAY[
    format($sql$
      INSERT INTO waitlist_tally AS t (status, key_id, count)
      SELECT status, coalesce(key_id, ''), sum(sign) FROM (%s) c
      GROUP BY 1, 2 HAVING sum(sign) <> 0 ORDER BY 1, 2
      ON CONFLICT (status, key_id) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_day_tally AS t (day, field, value, count)
      SELECT (c.created_at AT TIME ZONE 'UTC')::date, f.field, f.value, sum(c.sign) FROM (%s) c
      CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', c.source), ('medium', c.medium),
        ('campaign', c.campaign), ('referrer', c.referrer)) AS f(field, value)
      GROUP BY 1, 2, 3 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (day, field, value) DO UPDATE SET count = t.count + excluded.count$sql$, changes)
  ]
$fn$;

CREATE OR REPLACE FUNCTION waitlist_tally_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  statement text;
BEGIN
  FOREACH statement IN ARRAY waitlist_tally_statements(CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM tally_added'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM tally_removed'
    ELSE 'SELECT -1 AS sign, * FROM tally_removed UNION ALL SELECT 1, * FROM tally_added' END)
  LOOP
    EXECUTE statement;
  END LOOP;
  RETURN NULL;
END
$fn$;

-- Writes wait while the tallies are filled from the rows already there, so none is counted twice or missed.
LOCK TABLE waitlist IN SHARE ROW EXCLUSIVE MODE;

DROP TRIGGER IF EXISTS waitlist_tally_insert ON waitlist;
CREATE TRIGGER waitlist_tally_insert AFTER INSERT ON waitlist REFERENCING NEW TABLE AS tally_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally_trigger();
DROP TRIGGER IF EXISTS waitlist_tally_update ON waitlist;
CREATE TRIGGER waitlist_tally_update AFTER UPDATE ON waitlist
  REFERENCING OLD TABLE AS tally_removed NEW TABLE AS tally_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally_trigger();
DROP TRIGGER IF EXISTS waitlist_tally_delete ON waitlist;
CREATE TRIGGER waitlist_tally_delete AFTER DELETE ON waitlist REFERENCING OLD TABLE AS tally_removed
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally_trigger();

DELETE FROM waitlist_tally;
DELETE FROM waitlist_day_tally;
DO $do$
DECLARE
  statement text;
BEGIN
  FOREACH statement IN ARRAY waitlist_tally_statements('SELECT 1 AS sign, * FROM waitlist') LOOP
    EXECUTE statement;
  END LOOP;
END
$do$;

-- The list, newest first, and its pages: read backwards along this index.
CREATE INDEX IF NOT EXISTS waitlist_created_idx ON waitlist (created_at, id);

-- A search by part of a plain address: trigrams where the database offers pg_trgm (Neon, so Netlify Database;
-- PostgreSQL's contrib; the embedded database loads it), else the start of the address. Sealed addresses are
-- found whole only, by their keyed hash, through waitlist_email_lower_key.
DO $do$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available: a search by part of an address matches its start only';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS waitlist_email_part_idx ON waitlist USING gin (lower(email) gin_trgm_ops)
      WHERE key_id IS NULL;
  ELSE
    CREATE INDEX IF NOT EXISTS waitlist_email_part_idx ON waitlist (lower(email) text_pattern_ops)
      WHERE key_id IS NULL;
  END IF;
END
$do$;
