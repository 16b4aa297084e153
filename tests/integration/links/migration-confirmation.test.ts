/**
 * Migrations on a database that already has sign-ups: 0002 (double opt-in) makes them confirmed, 0003
 * (invitations and sources) keeps every status; each can run again without error or change (written idempotently).
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "../../../src/server/db/migrations";

const FIRST = "0001_waitlist.sql";
const SECOND = "0002_confirmation.sql";
const THIRD = "0003_invitations_and_sources.sql";
let db: PGlite;

/** A migrations folder holding only `files`: the database as it was before the later ones. */
function folderWith(...files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  for (const file of files) copyFileSync(join(MIGRATIONS_DIR, file), join(dir, file));
  return dir;
}

const shape = async () =>
  (
    await db.query<{ def: string }>(
      `SELECT table_name || '.' || column_name || ' ' || data_type AS def FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    )
  ).rows.map((row) => row.def);

beforeAll(async () => {
  db = await PGlite.create();
  // The database as it was before 0002: only the first migration applied, with sign-ups in it.
  expect(await migrate(db, folderWith(FIRST))).toEqual(["0001_waitlist"]);
  await db.exec("INSERT INTO waitlist (name, email) VALUES ('Ada', 'ada@example.com'), (NULL, 'grace@example.com')");
}, 60_000);
afterAll(() => db?.close());

it("existing sign-ups become confirmed, and new rows default to confirmed", async () => {
  expect(await migrate(db, folderWith(FIRST, SECOND))).toEqual(["0002_confirmation"]);
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
  const before = await shape();
  await db.exec(readFileSync(join(MIGRATIONS_DIR, SECOND), "utf8"));
  expect(await shape()).toEqual(before);
  expect(before).toContain("waitlist.status text");
  expect((await db.query("SELECT count(*)::int AS n FROM waitlist")).rows).toEqual([{ n: 3 }]);
});

it("0003 keeps every row's status, adds the lifecycle's two new ones, and runs again without change", async () => {
  await db.exec("INSERT INTO waitlist (email, status) VALUES ('waiting@example.com', 'pending')");
  expect(await migrate(db, folderWith(FIRST, SECOND, THIRD))).toEqual(["0003_invitations_and_sources"]);
  const statuses = async () =>
    (await db.query<{ email: string; status: string }>("SELECT email, status FROM waitlist ORDER BY id")).rows;
  const expected = [
    { email: "ada@example.com", status: "confirmed" },
    { email: "grace@example.com", status: "confirmed" },
    { email: "new@example.com", status: "confirmed" },
    { email: "waiting@example.com", status: "pending" },
  ];
  expect(await statuses()).toEqual(expected);
  const columns = await shape();
  for (const column of ["invited_at", "joined_at", "source", "medium", "campaign", "referrer", "page"]) {
    expect(columns.some((def) => def.startsWith(`waitlist.${column} `))).toBe(true);
  }
  await db.exec(readFileSync(join(MIGRATIONS_DIR, THIRD), "utf8"));
  expect(await shape()).toEqual(columns);
  expect(await statuses()).toEqual(expected);
  await db.exec("UPDATE waitlist SET status = 'invited' WHERE email = 'ada@example.com'");
  await db.exec("UPDATE waitlist SET status = 'joined' WHERE email = 'grace@example.com'");
  await expect(db.exec("UPDATE waitlist SET status = 'maybe' WHERE email = 'new@example.com'")).rejects.toThrow(
    /waitlist_status_check/,
  );
});
