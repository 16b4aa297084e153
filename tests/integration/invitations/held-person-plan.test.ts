/**
 * The statements a wave runs for each person it mails find that person by the primary key, whatever the table's
 * statistics say: here taken before the wave reserved its people (all in no wave then), as a large wave on a long
 * list leaves them until autovacuum analyzes again. Reading the wave's own index instead (every person it holds)
 * made each invitation cost three reads of 100,000 at a million sign-ups (bench/wave-matching.ts).
 */
import { describe, expect, it } from "vitest";
import { INVITE_SQL } from "../../../src/server/invitations/invite-sql";
import { backends, useBackend } from "../../support/backends";

/** Each per-person statement with its parameters, for person `id` of wave `wave`. */
const statements = (id: number, wave: number): Array<[string, string, unknown[]]> => [
  ["prepare", INVITE_SQL.prepare, [id, wave, "code-hash", 30, "leave-hash", "status-hash"]],
  ["attempted", INVITE_SQL.attempted, [id, wave]],
  ["sent", INVITE_SQL.sent, [id, wave]],
  ["release", INVITE_SQL.release, [id, wave, ["leave-hash", "status-hash"]]],
];

/** How a plan reads table `waitlist`: each of its nodes on that table, by index name (or scan type when none). */
function waitlistReads(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(waitlistReads);
  if (typeof node !== "object" || node === null) return [];
  const plan = node as Record<string, unknown>;
  const own =
    plan["Relation Name"] === "waitlist" && plan["Node Type"] !== "ModifyTable"
      ? [String(plan["Index Name"] ?? plan["Node Type"])]
      : [];
  return [...own, ...Object.values(plan).flatMap(waitlistReads)];
}

describe.each(backends("held_person_plan").slice(0, 2))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);

  it.runIf(available)("reads the primary key for a person of a wave the statistics have not seen", async () => {
    const { db, invites } = backend.store;
    await db.query(
      `INSERT INTO waitlist (email, status) SELECT 'person' || g || '@example.com', 'confirmed'
       FROM generate_series(1, 3000) AS g`,
    );
    await db.query("ANALYZE waitlist");
    const ids = (await db.query<{ id: string }>("SELECT id FROM waitlist ORDER BY id")).map((row) => Number(row.id));
    const wave = await invites.startWave("test-owner", ids.length);
    expect(await invites.reserveIds(wave, ids)).toBe(3000);
    const plans: Record<string, string[]> = {};
    for (const [name, sql, params] of statements(ids[1500] ?? 0, wave)) {
      const [row] = await db.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      plans[name] = waitlistReads(row?.["QUERY PLAN"]);
    }
    expect(plans).toEqual({
      prepare: ["waitlist_pkey"],
      attempted: ["waitlist_pkey"],
      sent: ["waitlist_pkey"],
      release: ["waitlist_pkey"],
    });
  });
});
