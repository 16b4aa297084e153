/**
 * The waitlist table's SQL: every statement the sign-up path and the operators run on it, side by side, so one read
 * shows what touches the table (links and tokens: consent.ts; invitations: invites.ts). store.ts runs them.
 */
import { ATTRIBUTION_FIELDS } from "../../lib/waitlist/attribution";
import { PERSON_COLUMNS, STORED_PERSON_FIELDS } from "../data-key";

/** Counts one attempt of client $1 in the window starting at $2; returns the window's attempts. */
const HIT = `INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts`;

/** The previous window ($3 is its start): its attempts count in the sliding estimate, weighted. */
const PREVIOUS = `SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts`;

/**
 * The allowance's verdict, decided here and only here: this window's attempts plus the previous window's weighted
 * by $5 (the share of it still inside the sliding window) within the allowance $4.
 */
const VERDICT = `SELECT hit.attempts + previous.attempts * $5::float8 <= $4::int AS allowed FROM hit, previous`;

/**
 * When a client refused by VERDICT would be accepted, in whole seconds (at least 1): decided here, beside the
 * verdict, from the same counts, so the answer's Retry-After is the allowance's own. `attempts` is this window's
 * count as the statement reports it. The retry counts itself; this window's attempts become the previous window's
 * as it ends; the previous window's weight slides out as time passes. Searched in this window (`here`: attempts + 1
 * + previous × (1 − t/w) ≤ allowance), then the next (`later`: 1 + attempts × (1 − t′/w) ≤ allowance); two windows
 * on, only the retry counts. w is the window's length ($2 − $3), e the time into it ((1 − $5) × w), in ms.
 */
const RETRY = (attempts: string) => `retry AS (
  SELECT greatest(1, ceil((CASE WHEN a + 1 <= m AND here < w THEN here WHEN m >= 1 AND later < w THEN w + later
      ELSE 2 * w END - e) / 1000))::int AS seconds
  FROM (SELECT w, e, a, m,
      CASE WHEN p = 0 THEN e ELSE greatest(e, w * (1 - (m - a - 1) / p)) END AS here,
      CASE WHEN a <= m - 1 OR a = 0 THEN 0 ELSE w * (1 - (m - 1) / a) END AS later
    FROM (SELECT len.w, round((1 - $5::float8) * len.w) AS e, (${attempts})::float8 AS a,
        previous.attempts::float8 AS p, $4::float8 AS m
      FROM hit, previous, (SELECT extract(epoch FROM $2::timestamptz - $3::timestamptz)::float8 * 1000 AS w) len
    ) counts
  ) times)`;

/**
 * The first attempt of a window drops windows that started before the previous one, in the same statement; kept an
 * hour longer, the longest window any allowance counts in (the console's sign-in e-mails, per admin and hour), so
 * a shorter window's first attempt never drops a window an hourly allowance still reads.
 */
const PRUNE = `DELETE FROM waitlist_rate_limit
  WHERE window_start < $3::timestamptz - interval '1 hour' AND (SELECT attempts FROM hit) = 1`;

/** Today in UTC, whatever the session's time zone: the tallies count days of created_at in UTC. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

/**
 * Whether any row is sealed: a process without DATA_KEY then writes nothing in clear beside them (the sign-up's
 * last parameter says whether it seals). Read from the tally, so it costs the insert nothing.
 */
const SEALED_ROWS = "SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0";

/** The columns a sign-up writes, in the order of its statement parameters. */
export const ROW_COLUMNS = [...STORED_PERSON_FIELDS, "terms_version", "status", ...ATTRIBUTION_FIELDS];
/** The sign-up's values as parameters $first…, one per ROW_COLUMNS. */
const rowValues = (first: number) => ROW_COLUMNS.map((_, i) => `$${first + i}::text`).join(", ");
/**
 * Adds the row unless its address is listed under any of its keys ($keys: hashed under this key or the previous
 * one, or plain), so a row not yet sealed still refuses its duplicate; and, unless it is sealed (the parameter
 * after its values), only while no row is.
 */
const insertRow = (keys: number, first: number, from = "") => `INSERT INTO waitlist (${ROW_COLUMNS.join(", ")})
      SELECT ${rowValues(first)} ${from}
      ${from ? "AND" : "WHERE"} NOT EXISTS (SELECT 1 FROM waitlist WHERE lower(email) = ANY($${keys}::text[]))
      AND ($${first + ROW_COLUMNS.length}::boolean OR NOT EXISTS (${SEALED_ROWS}))
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id`;

/**
 * The one place that holds the waitlist's SQL; every driver runs exactly these statements. Each call of the
 * request path is one statement, so a sign-up costs one database round trip.
 */
export const SQL = {
  /** Adds a row (see insertRow); says whether it did, and whether any row is sealed. */
  insert: `WITH added AS (${insertRow(1, 2)})
    SELECT (SELECT count(*)::int FROM added) AS added, EXISTS (${SEALED_ROWS}) AS sealed_rows`,
  /** Rows by status, from the tally the database keeps beside the table (migration 0008), never a count of it. */
  count: `SELECT status, sum(count)::bigint AS count FROM waitlist_tally GROUP BY status`,
  /**
   * A batch of the export: up to $4 entries after id $1, oldest first (since $2; only confirmed ones if $3; none
   * past id $5, when set: the end of a part of a download, export/parts.ts).
   */
  list: `SELECT id, created_at, ${PERSON_COLUMNS}, status, invited_at, joined_at, source, medium, campaign, referrer, page,
      terms_version, confirmed_at
    FROM waitlist
    WHERE id > $1::bigint AND ($5::bigint IS NULL OR id <= $5::bigint)
      AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
      AND ($3::boolean IS NOT TRUE OR status = 'confirmed')
    ORDER BY id LIMIT $4::int`,
  /** How many rows are plain, and how many are sealed under each key. */
  sealing: `SELECT nullif(key_id, '') AS key_id, sum(count)::bigint AS count FROM waitlist_tally
    GROUP BY key_id HAVING sum(count) > 0`,
  /** Up to $2 rows not sealed under key $1, oldest first: what `waitlist encrypt` seals next. */
  unsealed: `SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE key_id IS DISTINCT FROM $1 ORDER BY id LIMIT $2::int`,
  /**
   * Seals a batch in one statement (all of it or none): each row only if it is still as read ($5: the key it was
   * under), so a row changed meanwhile is left for the next batch.
   */
  seal: `UPDATE waitlist w SET name = NULL, message = NULL, organization = NULL, why = NULL, connect = NULL,
      email = u.email, key_id = $1, sealed = u.sealed
    FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS u(id, email, sealed, old_key)
    WHERE w.id = u.id AND w.key_id IS NOT DISTINCT FROM u.old_key
    RETURNING w.id`,
  /** Sign-ups of the last $1 days (UTC) by source, medium, campaign and referring site: the $2 most of each. */
  breakdown: `SELECT field, value, count FROM (
      SELECT field, value, sum(count)::bigint AS count,
        row_number() OVER (PARTITION BY field ORDER BY sum(count) DESC, value NULLS LAST) AS rank
      FROM waitlist_day_tally WHERE day > ${TODAY} - $1::int AND field <> 'all'
      GROUP BY field, value HAVING sum(count) > 0
    ) ranked WHERE rank <= $2 ORDER BY field, rank`,
  secret: "SELECT value FROM waitlist_secret WHERE name = 'server'",
  /** An erasure: the entry of address $1 (any case) and, with it, its tokens. */
  erase: "DELETE FROM waitlist WHERE lower(email) = ANY($1::text[]) RETURNING id",
  /** Sign-ups per day (UTC) of the last $1 days, today included; a day without any reads 0. */
  perDay: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(t.count, 0)::bigint AS count
    FROM generate_series(${TODAY} - ($1::int - 1), ${TODAY}, interval '1 day') AS d(day)
    LEFT JOIN waitlist_day_tally t ON t.day = d.day::date AND t.field = 'all' AND t.value IS NULL
    ORDER BY d.day`,
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $5) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), verdict AS (${VERDICT}),
    ${RETRY("hit.attempts")}, added AS (${insertRow(6, 7, "FROM verdict WHERE verdict.allowed")})
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after,
      (SELECT count(*)::int FROM added) AS added,
      EXISTS (${SEALED_ROWS}) AS sealed_rows`,
  /** Counts an attempt of something other than a sign-up (a removal request) under the same allowance ($4, $5). */
  hit: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), verdict AS (${VERDICT}),
    ${RETRY("hit.attempts")}
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after`,
  /**
   * The verdict `hit` would give client $1's next attempt, without counting it (nor pruning): this window's
   * attempts so far plus that one, under the same VERDICT. Resolves to the attempts so far.
   */
  peek: `WITH hit AS (SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
        WHERE client_key = $1 AND window_start = $2::timestamptz), 0) + 1 AS attempts),
      previous AS (${PREVIOUS}), verdict AS (${VERDICT}), ${RETRY("hit.attempts - 1")}
    SELECT (SELECT attempts FROM hit) - 1 AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after`,
  /**
   * Pending entries whose last sign-up or confirmation e-mail is older than $1 hours, and none of whose
   * confirmation links still works (whatever the age asked for): counted, and deleted (their tokens with them)
   * when $2 is true.
   */
  purgePending: `WITH old AS (
      SELECT id FROM waitlist w WHERE status = 'pending'
        AND greatest(created_at, coalesce(confirmation_sent_at, created_at)) < now() - make_interval(hours => $1::int)
        AND NOT EXISTS (
          SELECT 1 FROM waitlist_token t WHERE t.waitlist_id = w.id AND t.purpose = 'confirm' AND t.expires_at > now()
        )
    ), purged AS (
      DELETE FROM waitlist WHERE $2::boolean AND id IN (SELECT id FROM old) RETURNING id
    )
    SELECT (SELECT count(*)::int FROM old) AS matched, (SELECT count(*)::int FROM purged) AS purged`,
} as const;
