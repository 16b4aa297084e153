/**
 * The people the segment tests choose among (tests/slow/segments*.test.ts), against questions with a choice
 * question (team-size) and a multiple one (tools): every status, sources, updates choices, one suppressed, one who
 * answered nothing. One a day from 1 March 2026 on, so sign-up order is the list's order.
 */
import type { Db } from "../../src/server/db/types";

/** [name, status, source, updates consent, suppressed, choices]. */
export const PEOPLE: Array<[string, string, string | null, boolean | null, boolean, object | null]> = [
  ["ada", "confirmed", "hn", true, false, { "team-size": "50+", tools: ["Notion", "Roam"] }],
  ["bob", "confirmed", "hn", true, false, { "team-size": "11–50", tools: ["Obsidian"] }],
  ["cat", "confirmed", "newsletter", false, false, { "team-size": "50+", tools: ["Obsidian"] }],
  ["dee", "pending", "hn", null, false, { "team-size": "50+" }],
  ["eve", "invited", "hn", true, false, { "team-size": "50+", tools: ["Roam"] }],
  ["fay", "confirmed", null, true, false, { "team-size": "2–10", tools: ["Roam"] }],
  ["gus", "confirmed", "hn", true, true, { "team-size": "50+" }],
  ["hal", "confirmed", "hn", true, false, null],
];

/** Adds PEOPLE as `name@example.com`. */
export async function seedPeople(db: Db): Promise<void> {
  for (const [index, [name, status, source, consent, suppressed, choices]] of PEOPLE.entries()) {
    const email = `${name}@example.com`;
    await db.query(
      `INSERT INTO waitlist (email, status, source, updates_consent, choices, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::timestamptz)`,
      [email, status, source, consent, choices && JSON.stringify(choices), `2026-03-0${index + 1}T12:00:00Z`],
    );
    if (suppressed) await db.query("UPDATE waitlist SET mail_suppressed = true WHERE email = $1", [email]);
  }
}
