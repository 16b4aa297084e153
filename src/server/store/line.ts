/**
 * The line: one definition, used by the status page (src/server/referrals/), the console and every wave
 * (src/server/invitations/). Beneath the features, as they all read it.
 *
 * Who is in it: the confirmed people still waiting (status 'confirmed'; a pending sign-up is not in line yet, an
 * invited or joined person has left it). Their order: sign-up order (created_at, then id) gives each a sign-up place
 * `b` (1, 2, 3, …); each counted referral moves its referrer REFERRAL_PLACES places forward, to line number
 * `L = b − REFERRAL_PLACES × referrals`. The line is ordered by L; where a moved person's L meets someone's sign-up
 * place, the moved person goes first (they moved into that place); two moved people with one L keep sign-up order.
 * With REFERRAL_PLACES 0 (the default) L = b: the line is sign-up order and referrals are only shown.
 *
 * So a place is explainable: "you signed up 9th; 2 referrals moved you 3 places, to 6th". Worked out without
 * counting the whole line: a sign-up place is the sum of waitlist_line_tally's hours before one's own (kept by the
 * tally triggers) plus a count within that hour, and of the moved people (waitlist_referrers_idx) only those who
 * could stand ahead are read (lineWindow); a wave, which may take anyone, reads them all.
 */
import type { Db } from "../db/types";

/** A person in line as the rule needs them: sign-up place and counted referrals. */
export interface InLine {
  id: number;
  /** Sign-up place among the waiting people, from 1. */
  b: number;
  referrals: number;
}

/** Line number and tie-break of a person (see the top of this file): smaller comes first. */
function key(person: InLine, places: number): [number, number, number] {
  const moved = places > 0 && person.referrals > 0;
  return [person.b - places * person.referrals, moved ? 0 : 1, person.b];
}

/** Whether `a` stands before `b` in line. */
export function before(a: InLine, b: InLine, places: number): boolean {
  const [ka, kb] = [key(a, places), key(b, places)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] as number) < (kb[i] as number);
  return false;
}

/** Where `person` stands by line number alone: their sign-up place, less the places their referrals moved them. */
export function lineNumber(person: InLine, places: number): number {
  return person.b - places * person.referrals;
}

/**
 * The sign-up places between which a moved person can stand ahead of `person` (`most`: the most referrals anyone
 * waiting has counted). Everyone who signed up before `person`'s line number is ahead whatever they did, and a
 * moved person who signed up after `lineNumber + places × most` is behind whatever they did: only the moved people
 * between need reading, not every one.
 */
export function lineWindow(person: InLine, places: number, most: number): { from: number; to: number } {
  const at = lineNumber(person, places);
  return { from: Math.max(at, 1), to: at + places * most };
}

/**
 * The place of `person`, given the moved people (counted referrals, when places > 0) who signed up at or after
 * their line number (more do no harm), each with their sign-up place. Counts rather than sorts: everyone who
 * signed up before `person`'s line number stands ahead (their line number is smaller still), nobody else who was
 * not moved does (theirs is their sign-up place, and a moved person wins a tie), so only those moved are compared.
 */
export function placeInLine(person: InLine, movers: readonly InLine[], places: number): number {
  const from = lineWindow(person, places, 0).from;
  const movedAhead = movers.filter((m) => m.id !== person.id && m.b >= from && before(m, person, places)).length;
  return from + movedAhead;
}

/**
 * The first `limit` of the line, given its head in sign-up order (the first `limit + movers.length` waiting people,
 * with their sign-up places) and every moved person: merged, not sorted whole.
 */
export function headOfLine(head: readonly InLine[], movers: readonly InLine[], places: number, limit: number) {
  const moved = places > 0 ? [...movers].sort((a, b) => (before(a, b, places) ? -1 : 1)) : [];
  const movedIds = new Set(moved.map((m) => m.id));
  const unmoved = head.filter((p) => !movedIds.has(p.id));
  const line: InLine[] = [];
  let [i, j] = [0, 0];
  while (line.length < limit && (i < unmoved.length || j < moved.length)) {
    const [u, m] = [unmoved[i], moved[j]];
    if (m && (!u || before(m, u, places))) {
      line.push(m);
      j++;
    } else if (u) {
      line.push(u);
      i++;
    }
  }
  return line;
}

/** Sign-up order, as the indexes (waitlist_confirmed_idx, waitlist_referrers_idx) hold it. */
const HOUR = (at: string) => `date_trunc('hour', ${at} AT TIME ZONE 'UTC')`;
/** How many waiting people signed up before row `w` (its created_at and id): the hours before, then its own hour. */
const WAITING_BEFORE = (w: string) => `(
    (SELECT coalesce(sum(count), 0) FROM waitlist_line_tally WHERE hour < ${HOUR(`${w}.created_at`)})
    + (SELECT count(*) FROM waitlist o WHERE o.status = 'confirmed'
        AND o.created_at >= (${HOUR(`${w}.created_at`)}) AT TIME ZONE 'UTC'
        AND (o.created_at, o.id) < (${w}.created_at, ${w}.id)))`;

export const LINE_SQL = {
  /** How many are waiting: the tally's confirmed rows. */
  waiting: "SELECT coalesce(sum(count), 0)::bigint AS waiting FROM waitlist_tally WHERE status = 'confirmed'",
  /** Person `$1`'s sign-up place (when they are waiting) and counted referrals. */
  person: `SELECT w.id, w.status, w.referrals, CASE WHEN w.status = 'confirmed' THEN 1 + ${WAITING_BEFORE("w")} END AS b
    FROM waitlist w WHERE w.id = $1`,
  /**
   * The waiting people with counted referrals who signed up between places `$1` and `$2 + $3 × most` (most: the
   * most referrals anyone waiting has; see lineWindow), with their sign-up place: the tally's running total before
   * their hour, then a count within it. Read by hours so the planner sees what it reads (a few hundred rows, never
   * a plan costly enough for PostgreSQL to compile it: JIT had cost the status page 180–350 ms at a million).
   */
  movers: `WITH most AS (
      SELECT coalesce(max(referrals), 0)::bigint AS r FROM waitlist WHERE status = 'confirmed' AND referrals > 0
    ), bounds AS (
      SELECT $1::bigint AS lo, $2::bigint + $3::bigint * most.r AS hi FROM most
    ), hours AS NOT MATERIALIZED (
      SELECT hour, sum(count) OVER (ORDER BY hour) - count AS before, sum(count) OVER (ORDER BY hour) AS upto
      FROM waitlist_line_tally
    ), span AS (
      SELECT min(hour) AS first, max(hour) AS last FROM hours, bounds WHERE upto >= bounds.lo AND before < bounds.hi
    ), moved AS MATERIALIZED (
      SELECT w.id, w.referrals, (w.invite_wave_id IS NOT NULL OR w.mail_suppressed) AS held,
        1 + h.before + (SELECT count(*) FROM waitlist o WHERE o.status = 'confirmed'
          AND o.created_at >= h.hour AT TIME ZONE 'UTC' AND o.created_at <= w.created_at
          AND (o.created_at, o.id) < (w.created_at, w.id)) AS b
      FROM span s
      JOIN waitlist w ON w.status = 'confirmed' AND w.referrals > 0 AND w.created_at >= s.first AT TIME ZONE 'UTC'
        AND w.created_at < (s.last + interval '1 hour') AT TIME ZONE 'UTC'
      JOIN hours h ON h.hour = ${HOUR("w.created_at")}
    )
    SELECT m.id, m.referrals, m.held, m.b FROM moved m, bounds WHERE m.b >= bounds.lo AND m.b <= bounds.hi`,
  /**
   * The first `$1` waiting people in sign-up order, and as many more as waves hold or the suppression list keeps
   * from mail (counted in the same statement, so the two agree while another wave reserves), with their referrals
   * and whether a wave can take them: `held` also for the suppressed, whom no wave invites (mail on or off) while
   * they keep their place in line.
   */
  head: `WITH held AS (
      SELECT count(*)::int AS n FROM waitlist
      WHERE status = 'confirmed' AND (invite_wave_id IS NOT NULL OR mail_suppressed)
    )
    SELECT id, referrals, (invite_wave_id IS NOT NULL OR mail_suppressed) AS held, (SELECT n FROM held) AS held_count
    FROM waitlist
    WHERE status = 'confirmed' ORDER BY created_at, id LIMIT $1::int + (SELECT n FROM held)`,
} as const;

const inLine = (row: { id: unknown; b: unknown; referrals: unknown }): InLine => ({
  id: Number(row.id),
  b: Number(row.b),
  referrals: Number(row.referrals),
});

export interface Place {
  /** Place in line, from 1. */
  place: number;
  /** Where sign-up order alone would put them. */
  signupPlace: number;
  waiting: number;
}

/** The line's reads, with REFERRAL_PLACES as `places`. */
export function createLine(db: Db, places: number) {
  type Row = { id: number; b: number; referrals: number; held: boolean };
  /** The moved people who signed up from place `from` to `to + places × most` (see LINE_SQL.movers). */
  const moverRows = async (from: number, to: number) =>
    places > 0 ? await db.query<Row>(LINE_SQL.movers, [from, to, places]) : [];
  const waiting = async () => Number((await db.query<{ waiting: number }>(LINE_SQL.waiting))[0]?.waiting ?? 0);
  return {
    /** Person `id`'s place, or null when they are not waiting (pending, invited, joined, gone). */
    async placeOf(id: number): Promise<Place | null> {
      const [row] = await db.query<{ id: number; status: string; referrals: number; b: number | null }>(
        LINE_SQL.person,
        [id],
      );
      if (row?.status !== "confirmed" || row.b === null) return null;
      const person = inLine(row);
      const at = lineNumber(person, places);
      const [movers, total] = await Promise.all([moverRows(Math.max(at, 1), at), waiting()]);
      return { place: placeInLine(person, movers.map(inLine), places), signupPlace: person.b, waiting: total };
    },
    /**
     * The next `limit` people in line whom no wave holds and who are not suppressed, in line order, and how many of them sign-up order alone
     * would not have put there (moved up by referrals).
     */
    async next(limit: number): Promise<{ ids: number[]; movedUp: number }> {
      // Every moved person (a wave is rare and may take anyone): from the first place to past the last.
      const moving = await moverRows(1, Number.MAX_SAFE_INTEGER);
      const all = moving.map(inLine);
      const rows = await db.query<{ id: number; referrals: number; held: boolean; held_count: number }>(LINE_SQL.head, [
        limit + all.length,
      ]);
      const held = Number(rows[0]?.held_count ?? 0);
      const heldIds = new Set([...rows, ...moving].filter((r) => r.held).map((r) => Number(r.id)));
      const head = rows.map((row, index) => inLine({ ...row, b: index + 1 }));
      const line = headOfLine(head, all, places, limit + held).filter((p) => !heldIds.has(p.id));
      const taken = line.slice(0, limit);
      // Sign-up order alone would take the first `limit` not held: anyone past them was moved up.
      const plain = head.filter((p) => !heldIds.has(p.id)).slice(0, limit);
      const plainIds = new Set(plain.map((p) => p.id));
      return { ids: taken.map((p) => p.id), movedUp: taken.filter((p) => !plainIds.has(p.id)).length };
    },
  };
}
export type Line = ReturnType<typeof createLine>;
