import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteDb } from "../../src/server/db-pglite";
import { applySchema, createStore, type Store } from "../../src/server/store";
import { tempDataDir } from "./helpers";

describe("the store on the embedded database (PGlite)", () => {
  const dir = tempDataDir();
  let store: Store;

  beforeAll(async () => {
    const db = await openPgliteDb(dir);
    await applySchema(db);
    await applySchema(db); // idempotent
    store = createStore(db);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it("adds entries, one per address whatever its case", async () => {
    expect(await store.add({ name: "Ada", email: "ada@example.com", message: null })).toBe(true);
    expect(await store.add({ name: "Ada again", email: "ADA@EXAMPLE.COM", message: "Why: again" })).toBe(false);
    expect(await store.count()).toBe(1);
    expect(await store.find("Ada@Example.com")).toEqual({ name: "Ada", email: "ada@example.com", message: null });
  });

  it("stores text exactly: quotes, SQL, emoji, right-to-left and line breaks", async () => {
    const message = "Why: Robert'); DROP TABLE waitlist;--\n\nConnect: 🧠 مرحبا \u200b ok";
    expect(await store.add({ name: "O'Brien", email: "obrien@example.com", message })).toBe(true);
    expect(await store.find("obrien@example.com")).toEqual({ name: "O'Brien", email: "obrien@example.com", message });
  });

  it("refuses a second process on the same folder with a clear error", () => {
    const script = `
      import { openPgliteDb } from "./src/server/db-pglite.ts";
      try { await openPgliteDb(${JSON.stringify(dir)}); console.log("OPENED"); }
      catch (error) { console.log(error.name + ": " + error.message); }
    `;
    const child = spawnSync("npx", ["tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(child.stdout).not.toContain("OPENED");
    expect(child.stdout).toContain("DataDirLockedError: The embedded database in");
    expect(child.stdout).toContain("is in use by another process");
  });

  it("lets the folder be reopened once its owner has closed it", async () => {
    await store.close();
    const db = await openPgliteDb(dir);
    store = createStore(db);
    expect(await store.count()).toBe(2);
  }, 60_000);
});
