/**
 * Segments on every backend (embedded PGlite, PostgreSQL over TCP and through Neon's HTTP protocol), with
 * questions.json replaced for this file (vi.mock of questions.ts: two choice questions and a text one): the People
 * list filtered by answers with the other filters, everyone matching as a wave takes them (confirmed, in no wave,
 * not suppressed) and as an update does (said yes), how they split, each option's count from the tally as rows
 * change, the funnel by answer, an update to a segment with exactly its people, and the choices index answering
 * the filter.
 */
import { describe, expect, it, vi } from "vitest";
import { answerFunnel } from "../../src/server/console/overview/funnel-answers";
import { funnelCsv } from "../../src/server/console/overview/funnel-csv";
import { createFunnelStore } from "../../src/server/console/overview/funnel-store";
import { createConsoleList, MATCH } from "../../src/server/console/people/list";
import { createMatching, filterKey } from "../../src/server/console/people/matching";
import { NO_FILTER, type PeopleFilter } from "../../src/server/console/people/people-filter";
import { createSegmentStore, segmentOfPairs } from "../../src/server/segments";
import { createUpdateStore, startUpdate } from "../../src/server/updates";
import { backends, useBackend } from "../support/backends";
import { seedPeople } from "../support/segments-people";

vi.mock("../../src/lib/waitlist/questions", async (original) => {
  const real = await original<typeof import("../../src/lib/waitlist/questions")>();
  const { SEGMENT_QUESTIONS } = await import("../support/questions");
  return { ...real, QUESTIONS: real.withDefaults(SEGMENT_QUESTIONS) };
});

const filter = (pairs: string[], more: Partial<PeopleFilter> = {}): PeopleFilter => ({
  ...NO_FILTER,
  answers: segmentOfPairs(pairs),
  ...more,
});

describe.each(backends("segments"))("segments on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const tools = () => {
    const { db, dataKeys } = backend.store;
    const list = createConsoleList(db, dataKeys);
    return { list, matching: createMatching(db, dataKeys) };
  };
  const names = async (ids: readonly number[]) =>
    (await tools().matching.named(ids)).map((person) => person.email.split("@")[0]);

  it.runIf(available)("lists the people a filter by answer matches, with the other filters", async () => {
    const { db } = backend.store;
    await seedPeople(db);
    const listed = async (given: PeopleFilter) =>
      (await tools().list.page(given, { kind: "page", page: 1 }, "oldest")).rows.map((row) => row.email.split("@")[0]);
    expect(await listed(filter(["team-size=50+"]))).toEqual(["ada", "cat", "dee", "eve", "gus"]);
    expect(await listed(filter(["team-size=50+", "team-size=11–50"]))).toEqual([
      "ada",
      "bob",
      "cat",
      "dee",
      "eve",
      "gus",
    ]);
    expect(await listed(filter(["tools=Roam"]))).toEqual(["ada", "eve", "fay"]);
    expect(await listed(filter(["tools=Roam", "tools=Obsidian"]))).toEqual(["ada", "bob", "cat", "eve", "fay"]);
    expect(await listed(filter(["team-size=50+", "tools=Obsidian"]))).toEqual(["cat"]);
    expect(await listed(filter(["team-size=50+"], { status: "confirmed", from: { source: "hn" } }))).toEqual([
      "ada",
      "gus",
    ]);
    expect(await listed(filter(["team-size=Just me"]))).toEqual([]);
    expect(await tools().list.matching(filter(["team-size=50+"]))).toEqual({ count: 5, capped: false });
  });

  it.runIf(available)(
    "takes for a wave the confirmed in no wave and not suppressed; for an update, who said yes",
    async () => {
      const { matching } = tools();
      const fifty = filter(["team-size=50+", "team-size=11–50"]);
      expect(await names(await matching.ids(fifty, "invite"))).toEqual(["ada", "bob", "cat"]);
      expect(await names(await matching.ids(fifty, "invite", 2))).toEqual(["ada", "bob"]);
      expect(await names(await matching.ids(fifty, "update"))).toEqual(["ada", "bob", "gus"]);
      expect(await names(await matching.ids(filter([], { from: { source: "hn" } }), "invite"))).toEqual([
        "ada",
        "bob",
        "hal",
      ]);
      const split = await matching.split(await matching.ids(fifty, "invite"));
      expect(split.map((s) => [s.question.id, s.values])).toEqual([
        [
          "team-size",
          [
            { value: "11–50", count: 1 },
            { value: "50+", count: 2 },
          ],
        ],
        [
          "tools",
          [
            { value: "Notion", count: 1 },
            { value: "Obsidian", count: 2 },
            { value: "Roam", count: 1 },
          ],
        ],
      ]);
    },
  );

  it.runIf(available)("counts each option's people from the tally, as rows are changed and removed", async () => {
    const { db } = backend.store;
    const counts = async () =>
      (await createSegmentStore(db).offered()).map((q) => [q.question.id, q.options.map((o) => o.count)]);
    expect(await counts()).toEqual([
      ["team-size", [0, 1, 1, 5]],
      ["tools", [1, 2, 3]],
    ]);
    await db.query(`UPDATE waitlist SET choices = '{"team-size": "Just me"}' WHERE email = 'ada@example.com'`);
    await db.query("DELETE FROM waitlist WHERE email = 'fay@example.com'");
    await db.query("UPDATE waitlist SET status = 'confirmed', updates_consent = true WHERE email = 'dee@example.com'");
    expect(await counts()).toEqual([
      ["team-size", [1, 0, 1, 4]],
      ["tools", [0, 2, 1]],
    ]);
    const [funnel] = await db.query<{ count: string }>(
      `SELECT sum(count)::text AS count FROM waitlist_answer_tally WHERE question_id = 'team-size' AND value = '50+' AND status = 'confirmed'`,
    );
    expect(funnel?.count).toBe("3");
  });

  it.runIf(available)("has the funnel by answer, from the tally, on the page's CSV too", async () => {
    const { db } = backend.store;
    const answers = await answerFunnel(db, "all");
    expect(answers.map((a) => [a.question.id, a.rows])).toEqual([
      [
        "team-size",
        [
          { value: "Just me", signedUp: 1, confirmed: 1, invited: 0, joined: 0 },
          { value: "11–50", signedUp: 1, confirmed: 1, invited: 0, joined: 0 },
          { value: "50+", signedUp: 4, confirmed: 4, invited: 1, joined: 0 },
        ],
      ],
      [
        "tools",
        [
          { value: "Obsidian", signedUp: 2, confirmed: 2, invited: 0, joined: 0 },
          { value: "Roam", signedUp: 1, confirmed: 1, invited: 1, joined: 0 },
        ],
      ],
    ]);
    const csv = funnelCsv({ ...(await createFunnelStore(db).funnel("all")), answers });
    expect(csv.split("\r\n").filter((line) => line.includes(",answer: "))).toEqual([
      "all time,answer: team-size,Just me,,1,,1,100.0,0,0.0,0,",
      "all time,answer: team-size,11–50,,1,,1,100.0,0,0.0,0,",
      "all time,answer: team-size,50+,,4,,4,100.0,1,25.0,0,0.0",
      "all time,answer: tools,Obsidian,,2,,2,100.0,0,0.0,0,",
      "all time,answer: tools,Roam,,1,,1,100.0,1,100.0,0,0.0",
    ]);
  });

  it.runIf(available)("makes an update of a segment's people only, one update per words and segment", async () => {
    const { db, dataKeys } = backend.store;
    const updates = createUpdateStore(db, dataKeys);
    const segment = filter(["team-size=50+"]);
    const people = await tools().matching.ids(segment, "update");
    expect(await names(people)).toEqual(["dee", "gus"]);
    const draft = { subject: "For big teams", body: "Hello." };
    const audience = { segment: filterKey(segment), people };
    expect(audience.segment).toBe("answer%3Ateam-size=50%2B");
    const made = await startUpdate(updates, draft, "test", audience);
    const recipients = async (id: number) =>
      (
        await db.query<{ email: string }>(
          "SELECT w.email FROM waitlist_update_recipient r JOIN waitlist w ON w.id = r.waitlist_id WHERE r.update_id = $1 ORDER BY w.email",
          [id],
        )
      ).map((row) => row.email.split("@")[0]);
    expect(await recipients(made.id)).toEqual(["dee", "gus"]);
    expect((await startUpdate(updates, draft, "test", audience)).id).toBe(made.id);
    const everyone = await startUpdate(updates, draft, "test");
    expect(everyone.id).not.toBe(made.id);
    // Everyone else who said yes: those two have these words already, and nobody is sent them twice.
    expect(await recipients(everyone.id)).toEqual(["ada", "bob", "hal"]);
  });

  // With sequential scans priced out (a session setting: Neon's HTTP protocol has none, and its PostgreSQL is the
  // one over TCP), the plan shows the filter answered from 0022's GIN index: its one condition, folded to a constant
  // array, is one the index takes. At a small table's size the planner rightly prefers to read the table.
  it.runIf(available)("finds people by answer through the choices index", async () => {
    const { db } = backend.store;
    if (db.kind === "neon-http") return;
    const { list } = tools();
    const params = await list.matchParams(filter(["team-size=Just me", "tools=Notion", "tools=Roam"]));
    await db.query("SET enable_seqscan = off");
    try {
      const [plan] = await db.query<Record<string, unknown>>(
        `EXPLAIN (FORMAT JSON) SELECT id FROM waitlist WHERE ${MATCH} AND $1::int > 0`,
        [1, ...params],
      );
      expect(JSON.stringify(plan)).toContain('"Index Name":"waitlist_choices_idx"');
    } finally {
      await db.query("SET enable_seqscan = on");
    }
  });
});
