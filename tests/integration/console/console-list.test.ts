/**
 * The console's numbers and list at any size, on every backend: totals, the chart and the sources come from tallies
 * the database keeps in the statement that changes a row (so they are exact at once, and a failed statement
 * counts nothing); the list's pages continue from a row (no row skipped or repeated, ties in time included); a
 * search finds a part of an address and counts its matches up to a cap. How each query reads the table at 100,000
 * rows: console-plans.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../../src/server/app/store";
import { createConsoleList, type ListPosition, listPosition } from "../../../src/server/console/list";
import { backends, type OpenedStore } from "../../support/backends";

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
      expect({ older: first.older, newer: first.newer }).toEqual({ older: true, newer: false });
      const seen = [...first.rows];
      let page = first;
      while (page.older) {
        const last = page.rows.at(-1)?.cursor ?? "";
        page = await list.page("", { kind: "older", cursor: last, page: null });
        seen.push(...page.rows);
      }
      // Person3 was removed above; the others from the newest (1, 2 share a minute: the higher id first).
      // Person3 was removed above. Person1 is newest; the others come two to a minute, the later id first.
      expect(numbers(seen)).toEqual([
        1, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30,
        33, 32, 35, 34, 37, 36, 39, 38, 41, 40, 43, 42, 45, 44, 47, 46, 49, 48, 51, 50, 53, 52, 55, 54, 57, 56, 59, 58,
        60,
      ]);
      const second = await list.page("", { kind: "older", cursor: first.rows.at(-1)?.cursor ?? "", page: 2 });
      const back = await list.page("", { kind: "newer", cursor: second.rows[0]?.cursor ?? "", page: 1 });
      expect(numbers(back.rows)).toEqual(numbers(first.rows));
      expect(back.newer).toBe(false);
      const third = await list.page("", { kind: "page", page: 3 });
      expect(numbers(third.rows)).toEqual(numbers(seen.slice(50)));
      expect({ older: third.older, newer: third.newer }).toEqual({ older: false, newer: true });
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

describe("the list's position comes only from what its links write", () => {
  it.each([
    ["", { kind: "page", page: 1 }],
    ["page=400", { kind: "page", page: 400 }],
    ["page=10000", { kind: "page", page: 10000 }],
    ["before=1764057600000000.42", { kind: "older", cursor: "1764057600000000.42", page: null }],
    ["after=1764057600000000.42&page=3", { kind: "newer", cursor: "1764057600000000.42", page: 3 }],
    ["page=0", null],
    ["page=10001", null],
    ["page=-1", null],
    ["page=1.5", null],
    ["page=abc", null],
    ["page=", null],
    ["before=1764057600000000", null],
    ["before=x.1", null],
    ["before=1.1&after=2.2", null],
    ["before=1.1%20OR%201=1", null],
  ])("%s", (search, expected) => {
    expect(listPosition(new URLSearchParams(search))).toEqual(expected);
  });
});
