/**
 * The console's numbers and its People list at any size, on every backend: totals, the chart and the sources come
 * from tallies the database keeps in the statement that changes a row (so they are exact at once, and a failed
 * statement counts nothing); the list's pages continue from a row (no row skipped or repeated, ties in time
 * included), in each of its orders; every filter (status, source, medium, campaign, referring site, updates choice,
 * the suppression list, the wave that invited them, a search) finds exactly its people, alone and together; matches
 * are counted up to a cap. How each query reads the table at a million rows: docs in bench/scale.ts's console rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../../src/server/app/store";
import { createConsoleList } from "../../../src/server/console/people/list";
import {
  type ListPosition,
  listPosition,
  NO_FILTER,
  type PeopleFilter,
  type PeopleSort,
  peopleParams,
  peopleQuery,
} from "../../../src/server/console/people/people-filter";
import { backends, type OpenedStore, useBackend } from "../../support/backends";

/** Sixty sign-ups two by two in the same microsecond, one minute apart; every third from "hn", every fifth pending. */
const SIXTY = `INSERT INTO waitlist (email, name, created_at, status, source, medium)
  SELECT 'Person' || g || '@Example.com', 'Person ' || g,
    (now() AT TIME ZONE 'UTC')::date + time '08:00' - (g / 2) * interval '1 minute',
    CASE WHEN g % 5 = 0 THEN 'pending' ELSE 'confirmed' END,
    CASE WHEN g % 3 = 0 THEN 'hn' END, CASE WHEN g % 3 = 0 THEN 'social' END
  FROM generate_series(1, 60) g`;

const FIRST: ListPosition = { kind: "page", page: 1 };
const numbers = (rows: Array<{ email: string }>) => rows.map((r) => Number(/\d+/.exec(r.email)?.[0]));

describe.each(backends("console_list"))("%s", (_name, available, open) => {
  let opened: OpenedStore;
  let store: Store;

  beforeAll(async () => {
    if (!available) return;
    opened = await open();
    store = opened.store;
    await store.db.query(SIXTY);
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  it.skipIf(!available)("totals, days and sources count every row the moment it is stored, and only then", async () => {
    expect(await store.countByStatus()).toEqual({ pending: 12, confirmed: 48, invited: 0, joined: 0, total: 60 });
    expect((await store.perDay(2)).map((d) => d.count)).toEqual([0, 60]);
    // A statement that fails after its insert is rolled back whole: its row and its count.
    await expect(
      store.db.query(`WITH added AS (INSERT INTO waitlist (email) VALUES ('gone@example.com') RETURNING id)
        SELECT 1 / (count(*) - 1) FROM added`),
    ).rejects.toThrow();
    // A repeated address is refused by the index: nothing counted.
    await store.db.query(`INSERT INTO waitlist (email) VALUES ('person1@example.com') ON CONFLICT DO NOTHING`);
    expect(await store.count()).toBe(60);
    await store.db.query(
      `UPDATE waitlist SET status = 'invited' WHERE email IN ('Person1@Example.com', 'Person2@Example.com')`,
    );
    await store.db.query(`UPDATE waitlist SET confirmation_sent_at = now()`);
    await store.db.query(`DELETE FROM waitlist WHERE email = 'Person3@Example.com'`);
    expect(await store.countByStatus()).toEqual({ pending: 12, confirmed: 45, invited: 2, joined: 0, total: 59 });
    expect((await store.perDay(1)).map((d) => d.count)).toEqual([59]);
    expect((await store.breakdown(30, 5)).source).toEqual([
      { value: null, count: 40 },
      { value: "hn", count: 19 },
    ]);
    expect(await store.sealing()).toEqual({ plain: 59, sealed: {} });
  });

  it.skipIf(!available)(
    "Older and Newer go on from the edge row: every row once, in order, ties included",
    async () => {
      const list = createConsoleList(store.db, store.dataKeys);
      const first = await list.page("", FIRST);
      expect(first.rows).toHaveLength(25);
      expect({ after: first.after, before: first.before }).toEqual({ after: true, before: false });
      const seen = [...first.rows];
      let page = first;
      while (page.after) {
        page = await list.page("", { kind: "after", cursor: page.rows.at(-1)?.cursor ?? "", page: null });
        seen.push(...page.rows);
      }
      // Person3 was removed above. Person1 is newest; the others come two to a minute, the later id first.
      expect(numbers(seen)).toEqual([
        1, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30,
        33, 32, 35, 34, 37, 36, 39, 38, 41, 40, 43, 42, 45, 44, 47, 46, 49, 48, 51, 50, 53, 52, 55, 54, 57, 56, 59, 58,
        60,
      ]);
      const second = await list.page("", { kind: "after", cursor: first.rows.at(-1)?.cursor ?? "", page: 2 });
      const back = await list.page("", { kind: "before", cursor: second.rows[0]?.cursor ?? "", page: 1 });
      expect(numbers(back.rows)).toEqual(numbers(first.rows));
      expect(back.before).toBe(false);
      const third = await list.page("", { kind: "page", page: 3 });
      expect(numbers(third.rows)).toEqual(numbers(seen.slice(50)));
      expect({ after: third.after, before: third.before }).toEqual({ after: false, before: true });
      // Oldest first is the same rows the other way round, ties included.
      const oldest = await list.page("", FIRST, "oldest", 100);
      expect(numbers(oldest.rows)).toEqual(numbers(seen).reverse());
    },
  );

  it.skipIf(!available)(
    "a search finds a part of an address, the whole of it in any case, and counts to a cap",
    async () => {
      const list = createConsoleList(store.db, store.dataKeys);
      expect(await list.partSearch()).toBe("anywhere");
      expect(numbers((await list.page("son5", FIRST)).rows)).toEqual([5, 51, 50, 53, 52, 55, 54, 57, 56, 59, 58]);
      expect(numbers((await list.page("PERSON42@example.COM", FIRST)).rows)).toEqual([42]);
      expect(await list.matching("example.com")).toEqual({ count: 59, capped: false });
      // A complete address finds that address only, by its index, not every address it is part of.
      expect(await list.matching("erson42@example.com")).toEqual({ count: 0, capped: false });
      // LIKE's own characters match only themselves.
      expect(await list.matching("person_")).toEqual({ count: 0, capped: false });
      expect(await list.matching("%")).toEqual({ count: 0, capped: false });
      // Two characters cannot use the index: whole addresses only.
      expect(await list.matching("on")).toEqual({ count: 0, capped: false });
    },
  );
});

/**
 * Ten people an hour apart (ada first, jon last): name, status, source, medium, campaign, referring site, updates
 * choice, counted referrals. Their mailboxes: cat's and hal's suppressed, gus's suppressed and lifted; dan and ivy
 * invited by one wave.
 */
const TEN: Array<[string, string, string | null, string | null, string | null, string | null, boolean | null, number]> =
  [
    ["ada", "confirmed", "hn", "social", "launch", "news.ycombinator.com", true, 3],
    ["bob", "pending", null, null, null, null, null, 0],
    ["cat", "confirmed", "newsletter", "email", "spring", null, false, 0],
    ["dan", "invited", "hn", "social", null, "t.co", true, 1],
    ["eve", "joined", "newsletter", "email", "spring", null, true, 0],
    ["fay", "confirmed", null, null, null, "duckduckgo.com", null, 5],
    ["gus", "confirmed", "hn", null, "launch", "news.ycombinator.com", false, 0],
    ["hal", "pending", "podcast", "audio", null, null, null, 0],
    ["ivy", "invited", null, null, null, null, true, 3],
    ["jon", "confirmed", "newsletter", "email", null, null, true, 0],
  ];
const names = (rows: Array<{ email: string }>) => rows.map((r) => r.email.split("@")[0] ?? "");

describe.each(backends("console_people"))("the People list's filters and orders, %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const filterOf = (filter: Partial<PeopleFilter>): PeopleFilter => ({ ...NO_FILTER, ...filter });
  const listed = async (filter: Partial<PeopleFilter>, sort: PeopleSort = "newest") =>
    names((await createConsoleList(backend.store.db, null).page(filterOf(filter), FIRST, sort, 25)).rows);

  beforeAll(async () => {
    if (!available) return;
    const { db } = backend.store;
    for (const [i, [name, status, source, medium, campaign, referrer, updates, referrals]] of TEN.entries()) {
      await db.query(
        `INSERT INTO waitlist (email, status, source, medium, campaign, referrer, updates_consent, referrals,
           mailbox_key, address_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, timestamptz '2026-03-01T10:00:00Z' + $11 * interval '1 hour')`,
        [
          `${name}@example.com`,
          status,
          source,
          medium,
          campaign,
          referrer,
          updates,
          referrals,
          `mk-${name}`,
          `ak-${name}`,
          i,
        ],
      );
    }
    // A suppression marks its address's people at once (keyed on the exact address, migration 0021); a lift
    // unmarks them; a sign-up of a suppressed address comes in marked (hal's suppression is older than his row: it
    // is inserted first, below).
    await db.query("DELETE FROM waitlist WHERE email = 'hal@example.com'");
    await db.query(
      `INSERT INTO mail_suppression (address_key, reason, evidence, source)
       VALUES ('ak-hal', 'hard_bounce', '550', 'smtp'), ('ak-cat', 'complaint', 'spam', 'smtp'),
         ('ak-gus', 'hard_bounce', '550', 'smtp')`,
    );
    await db.query("UPDATE mail_suppression SET lifted_at = now(), lifted_by = 'ops' WHERE address_key = 'ak-gus'");
    await db.query(
      `INSERT INTO waitlist (email, status, source, medium, mailbox_key, address_key, created_at)
       VALUES ('hal@example.com', 'pending', 'podcast', 'audio', 'mk-hal', 'ak-hal', '2026-03-01T17:00:00Z')`,
    );
    const [wave] = await db.query<{ id: number }>(
      "INSERT INTO waitlist_invite_wave (owner, size, invited) VALUES ('test', 2, 2) RETURNING id",
    );
    await db.query("UPDATE waitlist SET invited_wave_id = $1 WHERE email IN ('dan@example.com', 'ivy@example.com')", [
      wave?.id,
    ]);
  }, 60_000);

  it.skipIf(!available)("sorts by sign-up date either way, or by referrals (most first, then the newest)", async () => {
    expect(await listed({})).toEqual(["jon", "ivy", "hal", "gus", "fay", "eve", "dan", "cat", "bob", "ada"]);
    expect(await listed({}, "oldest")).toEqual(["ada", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon"]);
    expect(await listed({}, "referrals")).toEqual([
      "fay",
      "ivy",
      "ada",
      "dan",
      "jon",
      "hal",
      "gus",
      "eve",
      "cat",
      "bob",
    ]);
  });

  it.skipIf(!available)("the largest cursor the address takes is one every database takes, each way", async () => {
    const list = createConsoleList(backend.store.db, null);
    const cursor = "2147483647.99999999999999999.9223372036854775807";
    const read = async (sort: PeopleSort, kind: "after" | "before") =>
      names((await list.page(NO_FILTER, { kind, cursor, page: null }, sort, 3)).rows);
    expect(await read("referrals", "after")).toEqual(["fay", "ivy", "ada"]);
    expect(await read("referrals", "before")).toEqual([]);
    expect(await read("newest", "after")).toEqual(["jon", "ivy", "hal"]);
    expect(await read("oldest", "after")).toEqual([]);
    expect(await read("oldest", "before")).toEqual(["hal", "ivy", "jon"]);
  });

  it.skipIf(!available)("each filter finds exactly its people, a value or none recorded", async () => {
    expect(await listed({ status: "confirmed" })).toEqual(["jon", "gus", "fay", "cat", "ada"]);
    expect(await listed({ status: "joined" })).toEqual(["eve"]);
    expect(await listed({ from: { source: "hn" } })).toEqual(["gus", "dan", "ada"]);
    expect(await listed({ from: { source: null } })).toEqual(["ivy", "fay", "bob"]);
    expect(await listed({ from: { source: "podcast" } })).toEqual(["hal"]);
    expect(await listed({ from: { source: "nobody-has-this" } })).toEqual([]);
    expect(await listed({ from: { medium: "email" } })).toEqual(["jon", "eve", "cat"]);
    expect(await listed({ from: { campaign: "launch" } })).toEqual(["gus", "ada"]);
    expect(await listed({ from: { referrer: "news.ycombinator.com" } })).toEqual(["gus", "ada"]);
    expect(await listed({ from: { referrer: null } })).toEqual(["jon", "ivy", "hal", "eve", "cat", "bob"]);
    expect(await listed({ updates: "yes" })).toEqual(["jon", "ivy", "eve", "dan", "ada"]);
    expect(await listed({ updates: "no" })).toEqual(["gus", "cat"]);
    expect(await listed({ updates: "never" })).toEqual(["hal", "fay", "bob"]);
    expect(await listed({ suppressed: "yes" })).toEqual(["hal", "cat"]);
    expect(await listed({ suppressed: "no" })).toEqual(["jon", "ivy", "gus", "fay", "eve", "dan", "bob", "ada"]);
    const [wave] = await backend.store.db.query<{ id: number }>("SELECT id FROM waitlist_invite_wave");
    expect(await listed({ wave: Number(wave?.id) })).toEqual(["ivy", "dan"]);
    expect(await listed({ wave: Number(wave?.id) + 1 })).toEqual([]);
  });

  it.skipIf(!available)("filters narrow together, in every order, and with a search", async () => {
    expect(await listed({ status: "confirmed", from: { source: "hn" } })).toEqual(["gus", "ada"]);
    expect(await listed({ status: "confirmed", updates: "no" }, "oldest")).toEqual(["cat", "gus"]);
    expect(await listed({ status: "confirmed" }, "referrals")).toEqual(["fay", "ada", "jon", "gus", "cat"]);
    expect(await listed({ from: { medium: "email", campaign: "spring" }, updates: "yes" })).toEqual(["eve"]);
    expect(await listed({ suppressed: "yes", status: "pending" })).toEqual(["hal"]);
    expect(await listed({ search: "JON@example.com", status: "confirmed" })).toEqual(["jon"]);
    expect(await listed({ search: "jon@example.com", status: "pending" })).toEqual([]);
    expect(await listed({ search: "example", from: { source: "newsletter" } }, "oldest")).toEqual([
      "cat",
      "eve",
      "jon",
    ]);
    const list = createConsoleList(backend.store.db, null);
    expect(await list.matching(filterOf({ updates: "yes" }))).toEqual({ count: 5, capped: false });
    expect(await list.matching(filterOf({ status: "pending", suppressed: "yes" }))).toEqual({
      count: 1,
      capped: false,
    });
  });

  it.skipIf(!available)(
    "pages by referrals go on from the edge row, across those with and without, both ways",
    async () => {
      const list = createConsoleList(backend.store.db, null);
      const pages: string[][] = [];
      let page = await list.page(NO_FILTER, FIRST, "referrals", 3);
      pages.push(names(page.rows));
      while (page.after) {
        page = await list.page(
          NO_FILTER,
          { kind: "after", cursor: page.rows.at(-1)?.cursor ?? "", page: null },
          "referrals",
          3,
        );
        pages.push(names(page.rows));
      }
      expect(pages).toEqual([["fay", "ivy", "ada"], ["dan", "jon", "hal"], ["gus", "eve", "cat"], ["bob"]]);
      // Back from the last page: the same pages, the other way, into those with referrals.
      const back: string[][] = [];
      while (page.before) {
        page = await list.page(
          NO_FILTER,
          { kind: "before", cursor: page.rows[0]?.cursor ?? "", page: null },
          "referrals",
          3,
        );
        back.push(names(page.rows));
      }
      expect(back).toEqual([
        ["gus", "eve", "cat"],
        ["dan", "jon", "hal"],
        ["fay", "ivy", "ada"],
      ]);
      // Page 2 by number is the second page.
      expect(names((await list.page(NO_FILTER, { kind: "page", page: 2 }, "referrals", 3)).rows)).toEqual([
        "dan",
        "jon",
        "hal",
      ]);
      expect(
        names((await list.page(filterOf({ status: "confirmed" }), { kind: "page", page: 2 }, "oldest", 2)).rows),
      ).toEqual(["fay", "gus"]);
    },
  );
});

describe("the list's address comes only from what its links and forms write", () => {
  it.each([
    ["", { kind: "page", page: 1 }],
    ["page=400", { kind: "page", page: 400 }],
    ["page=10000", { kind: "page", page: 10000 }],
    ["after=0.1764057600000000.42", { kind: "after", cursor: "0.1764057600000000.42", page: null }],
    ["before=3.1764057600000000.42&page=3", { kind: "before", cursor: "3.1764057600000000.42", page: 3 }],
    ["page=0", null],
    ["page=10001", null],
    ["page=-1", null],
    ["page=1.5", null],
    ["page=abc", null],
    ["page=", null],
    ["after=1764057600000000.42", null],
    ["after=x.1.1", null],
    ["after=0.1.1&before=0.2.2", null],
    ["after=0.1.1%20OR%201=1", null],
    // Numbers past their columns (referrals integer, id bigint), and leading zeros no link writes.
    [
      "after=2147483647.99999999999999999.9223372036854775807",
      {
        kind: "after",
        cursor: "2147483647.99999999999999999.9223372036854775807",
        page: null,
      },
    ],
    ["after=2147483648.1.1", null],
    ["after=1.1.9223372036854775808", null],
    ["after=1.1.9999999999999999999", null],
    ["after=1.100000000000000000.1", null],
    ["after=00.1.1", null],
    ["after=0.01.1", null],
  ])("%s", (search, expected) => {
    expect(listPosition(new URLSearchParams(search))).toEqual(expected);
  });

  it("reads every filter and writes it back the same", () => {
    const query = peopleQuery(
      new URLSearchParams(
        "q=ada&status=confirmed&source=hn&medium=+&updates=never&suppressed=yes&wave=7&sort=referrals",
      ),
    );
    expect(query?.filter).toEqual({
      search: "ada",
      status: "confirmed",
      from: { source: "hn", medium: null },
      updates: "never",
      suppressed: "yes",
      wave: 7,
      answers: {},
    });
    expect(query?.sort).toBe("referrals");
    expect(peopleParams(query?.filter ?? NO_FILTER, query?.sort)).toEqual({
      q: "ada",
      status: "confirmed",
      source: "hn",
      medium: " ",
      updates: "never",
      suppressed: "yes",
      wave: "7",
      sort: "referrals",
    });
    // Empty values are "any"; the defaults leave nothing in the address.
    expect(peopleQuery(new URLSearchParams("status=&source=&sort=newest"))?.filter).toEqual(NO_FILTER);
    expect(peopleParams(NO_FILTER, "newest")).toEqual({});
  });

  it.each([
    "status=waiting",
    "updates=maybe",
    "suppressed=1",
    "sort=name",
    "wave=x",
    "wave=-1",
    "q=%00",
    "source=%00",
    "campaign=spring%00",
    `source=${"x".repeat(254)}`,
  ])("refuses %s", (search) => {
    expect(peopleQuery(new URLSearchParams(search))).toBeNull();
  });
});
