/**
 * Migration 0028 fills the visits' tally from the rollups already there: on a database as 0027 left it, with a
 * month and a half of rollups, applying the migrations adds 0028 alone and the console's reads find every visit.
 */
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQLExecutor } from "@netlify/database-dev";
import pg from "pg";
import { expect, it } from "vitest";
import { migrate, pgExecutor } from "../../../src/server/db/migrations";
import { migratedDataDir } from "../../support/helpers";
import { createMigratedDatabase, postgresReachable } from "../../support/postgres";

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** Back to 0027, rollups written as 0024's count wrote them, then the migrations applied again. */
async function backfilled(db: SQLExecutor, query: Query) {
  await db.exec(`DROP FUNCTION visit_tally_refill(); DROP TABLE visit_tally;
    DELETE FROM netlify.migrations WHERE name = '0028_visit_tallies';`);
  await db.exec(`INSERT INTO visit_rollup VALUES
    ('2026-10-20', '*', 'hn', NULL, NULL, 'news.ycombinator.com', false, 12, 9),
    ('2026-10-20', '/', 'hn', NULL, NULL, 'news.ycombinator.com', false, 12, 9),
    ('2026-11-02', '*', NULL, NULL, NULL, NULL, true, 3, 2),
    ('2026-11-02', '*', 'hn', NULL, NULL, 'news.ycombinator.com', false, 5, 4),
    ('2026-11-02', '/product', NULL, NULL, NULL, NULL, true, 4, 2)`);
  expect(await migrate(db)).toEqual(["0028_visit_tallies"]);
  const rows = await query(`SELECT span, day::text, field, value, views::int, visitors::int FROM visit_tally
    ORDER BY span, day, field, value NULLS FIRST`);
  return rows.map((r) => [r["span"], r["day"], r["field"], r["value"] ?? "-", r["views"], r["visitors"]].join(" "));
}

const EXPECTED = [
  "day 2026-10-20 all - 12 9",
  "day 2026-10-20 campaign - 12 9",
  "day 2026-10-20 medium - 12 9",
  "day 2026-10-20 referrer news.ycombinator.com 12 9",
  "day 2026-10-20 source hn 12 9",
  "day 2026-11-02 all - 8 6",
  "day 2026-11-02 campaign - 8 6",
  "day 2026-11-02 medium - 8 6",
  "day 2026-11-02 referrer - 3 2",
  "day 2026-11-02 referrer news.ycombinator.com 5 4",
  "day 2026-11-02 share - 3 2",
  "day 2026-11-02 source - 3 2",
  "day 2026-11-02 source hn 5 4",
  ...[
    "2026-10-01 all - 12 9",
    "2026-10-01 campaign - 12 9",
    "2026-10-01 medium - 12 9",
    "2026-10-01 referrer news.ycombinator.com 12 9",
    "2026-10-01 source hn 12 9",
    "2026-11-01 all - 8 6",
    "2026-11-01 campaign - 8 6",
    "2026-11-01 medium - 8 6",
    "2026-11-01 referrer - 3 2",
    "2026-11-01 referrer news.ycombinator.com 5 4",
    "2026-11-01 share - 3 2",
    "2026-11-01 source - 3 2",
    "2026-11-01 source hn 5 4",
  ].map((row) => `month ${row}`),
];

it("fills the tally from the rollups on the embedded database", async () => {
  const db = await PGlite.create(join(migratedDataDir("visit-tally-migration-"), "pg"), { extensions: { pg_trgm } });
  try {
    expect(await backfilled(db, async (sql) => (await db.query<Record<string, unknown>>(sql)).rows)).toEqual(EXPECTED);
  } finally {
    await db.close();
  }
}, 60_000);

it.skipIf(!(await postgresReachable()))(
  "fills the tally from the rollups on PostgreSQL",
  async () => {
    const database = await createMigratedDatabase("visit_tally_migration");
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect(await backfilled(pgExecutor(client), async (sql) => (await client.query(sql)).rows)).toEqual(EXPECTED);
    } finally {
      await client.end();
      await database.drop();
    }
  },
  60_000,
);
