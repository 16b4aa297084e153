import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "../../../src/server/db/migrations";
import { openPgliteDb } from "../../../src/server/db/pglite";
import type { Db } from "../../../src/server/db/types";
import { tempDataDir } from "../../support/helpers";

describe("the embedded database's folder has one owner", () => {
  const dir = tempDataDir();
  let db: Db;

  beforeAll(async () => {
    db = await openPgliteDb(dir);
    await db.query("INSERT INTO waitlist (email) VALUES ('kept@example.com')");
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it("refuses a second process on the same folder with a clear error", () => {
    const script = `
      import { openPgliteDb } from "./src/server/db/pglite.ts";
      try { await openPgliteDb(${JSON.stringify(dir)}); console.log("OPENED"); }
      catch (error) { console.log(error.name + ": " + error.message); }
    `;
    const child = spawnSync("node_modules/.bin/node", ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stdout).not.toContain("OPENED");
    expect(child.stdout).toContain("DataDirLockedError: The embedded database in");
    expect(child.stdout).toContain("is in use by another process");
  });

  it("lets the folder be reopened once its owner has closed it, data and migrations kept", async () => {
    await db.close();
    db = await openPgliteDb(dir);
    expect(await db.query("SELECT email FROM waitlist")).toEqual([{ email: "kept@example.com" }]);
    const migrations = readdirSync(MIGRATIONS_DIR).length;
    expect(await db.query("SELECT count(*)::int AS n FROM netlify.migrations")).toEqual([{ n: migrations }]);
  }, 60_000);
});
