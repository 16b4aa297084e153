/**
 * Migration 0002 (double opt-in) on a database that already has sign-ups: they count as confirmed, and the
 * migration can run again without error or change (it is written idempotently).
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "../../src/server/db/migrations";

const FIRST = "0001_waitlist.sql";
const SECOND = "0002_confirmation.sql";
let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create();
  // The database as it was before 0002: only the first migration applied, with sign-ups in it.
  const before = mkdtempSync(join(tmpdir(), "migrations-"));
  copyFileSync(join(MIGRATIONS_DIR, FIRST), join(before, FIRST));
  expect(await migrate(db, before)).toEqual(["0001_waitlist"]);
  await db.exec("INSERT INTO waitlist (name, email) VALUES ('Ada', 'ada@example.com'), (NULL, 'grace@example.com')");
}, 60_000);
afterAll(() => db?.close());

it("existing sign-ups become confirmed, and new rows default to confirmed", async () => {
  expect(await migrate(db)).toEqual(["0002_confirmation"]);
  const rows = await db.query<{ email: string; status: string }>("SELECT email, status FROM waitlist ORDER BY id");
  expect(rows.rows).toEqual([
    { email: "ada@example.com", status: "confirmed" },
    { email: "grace@example.com", status: "confirmed" },
  ]);
  await db.exec("INSERT INTO waitlist (email) VALUES ('new@example.com')");
  expect((await db.query("SELECT status FROM waitlist WHERE email = 'new@example.com'")).rows).toEqual([
    { status: "confirmed" },
  ]);
  await expect(db.exec("INSERT INTO waitlist (email, status) VALUES ('x@example.com', 'maybe')")).rejects.toThrow(
    /waitlist_status_check/,
  );
});

it("running 0002 again changes nothing and raises nothing", async () => {
  const shape = async () =>
    (
      await db.query<{ def: string }>(
        `SELECT table_name || '.' || column_name || ' ' || data_type AS def FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      )
    ).rows.map((row) => row.def);
  const before = await shape();
  await db.exec(readFileSync(join(MIGRATIONS_DIR, SECOND), "utf8"));
  expect(await shape()).toEqual(before);
  expect(before).toContain("waitlist.status text");
  expect((await db.query("SELECT count(*)::int AS n FROM waitlist")).rows).toEqual([{ n: 3 }]);
});
