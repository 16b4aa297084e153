/**
 * An import's SQL (migration 0023): the import as its file (one row per SHA-256: the same file is the same import),
 * each row of the file recorded once (part, line) with what became of it, and the confirmation e-mails owed. Rows
 * are added by the sign-up's own statement (signup/store.ts: insertMany), recorded in the same statement, so a
 * row is added and recorded together or not at all: killed anywhere, the same file run again goes on.
 */
import { namedParams } from "../db/params";
import { insertMany } from "../signup/store";

/** IMPORT_SQL.add's parameters by name: insertMany's (signup/store.ts), the import, and each row's evidence. */
export const ADD_PARAMS = namedParams();

export const IMPORT_SQL = {
  /** The import of file hash `$1`, if any. */
  /** The audit entry that started console import `$1` when it was queued (imports.tsx), for its end to name. */
  queuedEntry: `SELECT id FROM waitlist_audit WHERE action = 'import' AND details ->> 'phase' = 'started'
    AND details ->> 'import' = $1 ORDER BY id DESC LIMIT 1`,
  find: `SELECT id, file_name, format, consent, source, started_at, rows_done_at, finished_at, cancelled_at
    FROM waitlist_import WHERE file_hash = $1`,
  /** Import `$1`: its file, options and whether every line is read. */
  byId: `SELECT file_hash, file_name, consent, source, actor, rows_done_at FROM waitlist_import WHERE id = $1`,
  /**
   * A console import, confirmed (hash, name, consent, source, actor, then `$7`: NO_OWNER): due at once, so the
   * scheduler starts it if the start the console sent never comes; the same file again is the same import.
   */
  queue: `INSERT INTO waitlist_import (file_hash, file_name, format, consent, source, actor, owner, heartbeat_at)
    VALUES ($1, $2, '', $3, $4, $5, $6, now() - interval '1 hour')
    ON CONFLICT (file_hash) DO UPDATE SET file_hash = EXCLUDED.file_hash RETURNING id`,
  /** A new import (or the one two runs at once both started): hash, name, format, consent, source, actor. */
  start: `INSERT INTO waitlist_import (file_hash, file_name, format, consent, source, actor)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (file_hash) DO UPDATE SET file_hash = EXCLUDED.file_hash RETURNING id`,
  /**
   * Adds the rows of a batch (ADD_PARAMS: insertMany's, then `import`, then each row's evidence: part, line, what,
   * at) and records each line as added or already on the list; a line recorded before keeps its record. Says how
   * many of each this statement recorded.
   */
  add: `WITH ${insertMany(ADD_PARAMS)},
    evidence AS (SELECT * FROM unnest(${ADD_PARAMS.$("evidencePart", "int[]")}, ${ADD_PARAMS.$("evidenceLine", "int[]")},
      ${ADD_PARAMS.$("evidenceWhat", "text[]")}, ${ADD_PARAMS.$("evidenceAt", "timestamptz[]")}) AS e(part, line, what, at)),
    recorded AS (INSERT INTO waitlist_import_row (import_id, part, line, outcome, waitlist_id, consent_evidence, consent_at)
      SELECT ${ADD_PARAMS.$("import", "bigint")}, i.part, i.line, CASE WHEN a.id IS NULL THEN 'existing' ELSE 'added' END, a.id,
        e.what, e.at
      FROM input i LEFT JOIN added a ON a.k = i.k1 LEFT JOIN evidence e ON e.part = i.part AND e.line = i.line
      ON CONFLICT (import_id, part, line) DO NOTHING RETURNING outcome)
    SELECT count(*) FILTER (WHERE outcome = 'added')::int AS added,
      count(*) FILTER (WHERE outcome = 'existing')::int AS existing FROM recorded`,
  /** Records lines of import `$1` that add nobody: parts `$2`, lines `$3`, outcomes `$4`, reasons `$5`. */
  record: `INSERT INTO waitlist_import_row (import_id, part, line, outcome, reason)
    SELECT $1, r.part, r.line, r.outcome, r.reason
    FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) AS r(part, line, outcome, reason)
    ON CONFLICT (import_id, part, line) DO NOTHING`,
  /**
   * Which of the keys `$1` (every key of every address of a batch) are on the list: the dry run's read. Probes
   * the address index for each key; a join would read the whole list once a batch.
   */
  listed: "SELECT lower(email) AS k FROM waitlist WHERE lower(email) = ANY($1::text[])",
  /**
   * Every line of import `$1` read and recorded: the import is done reading. Asking consent, its e-mails are a job
   * due at once (`$2`: NO_OWNER, its heartbeat an hour back); with consent confirmed, nothing is owed and it is
   * finished. `$3`: the formats read, in words.
   */
  rowsDone: `UPDATE waitlist_import SET rows_done_at = coalesce(rows_done_at, now()), format = $3,
      owner = CASE WHEN consent = 'ask' THEN $2 ELSE owner END,
      heartbeat_at = CASE WHEN consent = 'ask' THEN now() - interval '1 hour' ELSE heartbeat_at END,
      finished_at = CASE WHEN consent = 'ask' THEN finished_at ELSE coalesce(finished_at, now()) END
    WHERE id = $1 AND rows_done_at IS NULL RETURNING id`,
  /** What became of each line of import `$1`, and how many confirmation e-mails are still owed. */
  counts: `SELECT count(*) FILTER (WHERE outcome = 'added')::int AS added,
      count(*) FILTER (WHERE outcome = 'existing')::int AS existing,
      count(*) FILTER (WHERE outcome = 'suppressed')::int AS suppressed,
      count(*) FILTER (WHERE outcome = 'refused')::int AS refused,
      count(*) FILTER (WHERE outcome = 'added' AND mailed_at IS NULL)::int AS unmailed
    FROM waitlist_import_row WHERE import_id = $1`,
  /**
   * The next `$2` lines of import `$1` owed their confirmation e-mail, in file order, with their person (sealed as
   * stored) and whether they still wait for it (pending; null: the person has left the list).
   */
  unmailed: `SELECT r.part, r.line, w.status, w.name, w.email, w.message, w.organization, w.why, w.connect,
      w.key_id, w.sealed
    FROM waitlist_import_row r LEFT JOIN waitlist w ON w.id = r.waitlist_id
    WHERE r.import_id = $1 AND r.outcome = 'added' AND r.mailed_at IS NULL
    ORDER BY r.part, r.line LIMIT $2`,
  /** Claims line `$2`.`$3` of import `$1` for its one e-mail: true once, for one run, ever. */
  claim: `UPDATE waitlist_import_row SET mailed_at = now()
    WHERE import_id = $1 AND part = $2 AND line = $3 AND mailed_at IS NULL RETURNING line`,
} as const;
