/**
 * Every feature reaches its SQL through the Store: `store.of(createUpdateStore)` makes a feature's store once per
 * database and keys, so nothing builds one from `store.db` by hand (the Store is the one door a test can replace).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStore } from "../../src/server/app/store";
import type { Db } from "../../src/server/db/types";

const ROOT = join(import.meta.dirname, "../..");
const walk = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? walk(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
  });

/**
 * A call that builds a store (an object of a feature's queries) from a Store's database: `createX(store.db…)`,
 * `waveRecords(run.store.db, …)`. A function that runs one statement on a database (`auditStart(store.db, …)`) is
 * not a store.
 */
const BY_HAND = /\b(?:create\w+|\w+Store|waveRecords|peopleData|personData)\(\s*(?:[a-z]\w*\.)*store\.db\s*[,)]/g;

const handBuilt = (source: string) => [...source.matchAll(BY_HAND)].map((match) => match[0]);

describe("feature stores", () => {
  it.each([
    { source: "const u = createUpdateStore(store.db, store.dataKeys);", found: ["createUpdateStore(store.db,"] },
    { source: "const w = createWebhookStore(visit.store.db);", found: ["createWebhookStore(visit.store.db)"] },
    { source: "const r = waveRecords(run.store.db, keys);", found: ["waveRecords(run.store.db,"] },
    { source: "const u = store.of(createUpdateStore);", found: [] },
    { source: "await audit(store.db.kind);", found: [] },
    { source: "await auditStart(store.db, admin, 'wave');", found: [] },
  ])("a call is told apart: $source", ({ source, found }) => {
    expect(handBuilt(source)).toEqual(found);
  });

  it("are never built from store.db in src/ or scripts/", () => {
    const files = [...walk("src"), ...walk("scripts")];
    const found = files.flatMap((file) =>
      handBuilt(readFileSync(join(ROOT, file), "utf8")).map((call) => `${file}: ${call}`),
    );
    expect(files.length).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it("are made once per Store, with its database and keys", () => {
    const db = { kind: "pglite" } as unknown as Db;
    const store = createStore(db, null);
    const made: unknown[][] = [];
    const make = (...given: unknown[]) => {
      made.push(given);
      return { n: made.length };
    };
    expect(store.of(make)).toEqual({ n: 1 });
    expect(store.of(make)).toBe(store.of(make));
    expect(made).toEqual([[db, null]]);
    expect(createStore(db, null).of(make)).toEqual({ n: 2 });
  });
});
