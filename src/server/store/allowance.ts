/**
 * The allowance in SQL, for every feature that counts attempts (sign-ups, removal links, console sign-ins, bearer
 * guesses): a sliding window kept as fixed windows per client, its verdict and when a refused client would be
 * accepted, each decided here and only here, in the statement that counts the attempt.
 */
import type { Db } from "../db/types";
import type { RateCount, RateWindow } from "./types";

/** Counts one attempt of client $1 in the window starting at $2; returns the window's attempts. */
export const HIT = `INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts`;

/** The previous window ($3 is its start): its attempts count in the sliding estimate, weighted. */
export const PREVIOUS = `SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts`;

/**
 * The allowance's verdict, decided here and only here: this window's attempts plus the previous window's weighted
 * by $5 (the share of it still inside the sliding window) within the allowance $4.
 */
export const VERDICT = `SELECT hit.attempts + previous.attempts * $5::float8 <= $4::int AS allowed FROM hit, previous`;

/**
 * When a client refused by VERDICT would be accepted, in whole seconds (at least 1): decided here, beside the
 * verdict, from the same counts, so the answer's Retry-After is the allowance's own. `attempts` is this window's
 * count as the statement reports it. The retry counts itself; this window's attempts become the previous window's
 * as it ends; the previous window's weight slides out as time passes. Searched in this window (`here`: attempts + 1
 * + previous × (1 − t/w) ≤ allowance), then the next (`later`: 1 + attempts × (1 − t′/w) ≤ allowance); two windows
 * on, only the retry counts. w is the window's length ($2 − $3), e the time into it ((1 − $5) × w), in ms.
 */
export const RETRY = (attempts: string) => `retry AS (
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
export const PRUNE = `DELETE FROM waitlist_rate_limit
  WHERE window_start < $3::timestamptz - interval '1 hour' AND (SELECT attempts FROM hit) = 1`;

export const ALLOWANCE_SQL = {
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
} as const;

export type RateRow = { attempts: number; previous: number; allowed: boolean; retry_after: number };

/** A statement's verdict row as the store answers it. */
export function rateCount(row: RateRow | undefined): RateCount {
  return {
    allowed: row?.allowed === true,
    attempts: Number(row?.attempts ?? 1),
    previous: Number(row?.previous ?? 0),
    retryAfter: Number(row?.retry_after ?? 1),
  };
}

/** The names of the parameters $1–$5 every allowance statement takes, in rateParams' order. */
export const RATE_PARAMS = ["client", "window", "previousWindow", "allowance", "weight"] as const;

/** The parameters $1–$5 of every allowance statement: the client, this window, the previous one, the allowance, its weight. */
export const rateParams = (key: string, window: RateWindow, allowance: number) => [
  key,
  window.start.toISOString(),
  new Date(window.start.getTime() - window.windowMs).toISOString(),
  allowance,
  window.previousWeight,
];

export function createAllowance(db: Db) {
  return {
    async hit(key: string, window: RateWindow, allowance: number): Promise<RateCount> {
      const [row] = await db.query<RateRow>(ALLOWANCE_SQL.hit, rateParams(key, window, allowance));
      return rateCount(row);
    },
    async peek(key: string, window: RateWindow, allowance: number): Promise<RateCount> {
      const [row] = await db.query<RateRow>(ALLOWANCE_SQL.peek, rateParams(key, window, allowance));
      return rateCount(row);
    },
  };
}
