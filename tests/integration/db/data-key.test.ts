/**
 * Encryption at rest with DATA_KEY, on every backend: a sealed row names nobody, yet duplicates are refused,
 * links and erasures find the address, the export and the console open it; rows written before the key are
 * sealed by a resumable command, rotated the same way, and a wrong key is refused before it writes anything.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../src/server/app/store";
import { createConsoleList } from "../../../src/server/console/people/list";
import { DataKeyError, type DataKeys, parseDataKey } from "../../../src/server/data-key";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { backends, useBackend } from "../../support/backends";
import { migratedDataDir } from "../../support/helpers";
import { inviteByMail } from "../../support/invitations-harness";

const KEY_A = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const KEY_B = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";
const KEY_C = "QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8=";
const keys = (current: string, previous?: string): DataKeys => ({
  current: parseDataKey(current),
  previous: previous ? parseDataKey(previous) : null,
});
const ADA = {
  name: "Ada Lovelace",
  email: "Ada.Lovelace@Example.com",
  message: "Organization: Analytical Engines\n\nWhy: notes",
  organization: "Analytical Engines",
  why: "notes",
  connect: null,
  termsVersion: "2d81b8fd62c70c2e",
};
/** Every stored value of every row, as one text: what a copy of the table shows. */
/**
 * Every row as text, lowercased, with what is random by design masked — the ciphertext (base64url), the address's
 * HMAC (hex) and the share code — where "ada" turns up by chance about once in a hundred runs. Masked only in
 * their sealed shapes: a plain value in any of them is still read.
 */
const tableText = async (store: Store) =>
  JSON.stringify(
    (await store.db.query<Record<string, unknown>>("SELECT * FROM waitlist ORDER BY id")).map((row) => ({
      ...row,
      sealed: typeof row["sealed"] === "string" && /^[A-Za-z0-9_-]+$/.test(row["sealed"]) ? "(sealed)" : row["sealed"],
      email: typeof row["email"] === "string" && /^hmac:[0-9a-f]{64}$/.test(row["email"]) ? "(hmac)" : row["email"],
      referral_code:
        typeof row["referral_code"] === "string" && /^[0-9a-z]{10}$/.test(row["referral_code"])
          ? "(code)"
          : row["referral_code"],
    })),
  ).toLowerCase();

describe.each(backends("sealed"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  /** The same database seen by a process with other keys (or none). */
  const as = (dataKeys: DataKeys | null) => createStore(backend.store.db, dataKeys);

  it.skipIf(!available)("a sealed sign-up names nobody in the table, and opens for the export", async () => {
    const store = as(keys(KEY_A));
    expect(await store.add(ADA)).toBe(true);
    const text = await tableText(store);
    for (const secret of ["ada", "lovelace", "analytical", "notes"]) expect(text).not.toContain(secret);
    const [row] = await store.db.query<{ email: string; key_id: string }>("SELECT email, key_id FROM waitlist");
    expect(row?.email).toMatch(/^hmac:[0-9a-f]{64}$/);
    expect(row?.key_id).toBe(parseDataKey(KEY_A).id);
    // Every field opens as it was given, the address in its own case (termsVersion is stored as terms_version).
    const [entry] = await store.list();
    const { termsVersion, ...given } = ADA;
    expect(entry).toMatchObject({ ...given, terms_version: termsVersion });
  });

  it.skipIf(!available)("the address is found whole, in any case: duplicates, links, search, erasure", async () => {
    const store = as(keys(KEY_A));
    expect(await store.add({ ...ADA, email: "ADA.LOVELACE@example.COM" })).toBe(false);
    expect(await store.count()).toBe(1);
    await store.db.query("UPDATE waitlist SET status = 'pending'");
    expect(await store.consent.issueConfirmation("ada.lovelace@example.com", "c".repeat(64), "r".repeat(64))).not.toBe(
      null,
    );
    const list = createConsoleList(store.db, store.dataKeys);
    const found = await list.page("ada.lovelace@example.com", { kind: "page", page: 1 });
    expect(found.rows.map((r) => r.email)).toEqual(["Ada.Lovelace@Example.com"]);
    // A sealed address cannot be searched by a part of it: only whole.
    expect(await list.matching("lovelace")).toEqual({ count: 0, capped: false });
    expect(await store.erase("ada.lovelace@EXAMPLE.com")).toBe(true);
    expect(await store.count()).toBe(0);
  });

  it.skipIf(!available)("a wave mails the sealed address itself", async () => {
    const store = as(keys(KEY_A));
    try {
      await store.add({ name: "Grace", email: "grace@example.com", message: null });
      const { report, mails } = await inviteByMail(store, 1);
      expect(report).toMatchObject({ invited: 1, refused: 0 });
      expect(mails.map((mail) => mail.to)).toEqual(["grace@example.com"]);
    } finally {
      await store.erase("grace@example.com");
    }
  });

  it.skipIf(!available)("rows from before the key are sealed by a resumable command, and rotated by it", async () => {
    const plain = as(null);
    for (const email of ["old1@example.com", "old2@example.com", "old3@example.com"]) {
      await plain.add({ name: "Old", email, message: null });
    }
    const store = as(keys(KEY_A));
    // Until sealed, a plain row still refuses its duplicate and opens for the export.
    expect(await store.add({ name: null, email: "OLD1@example.com", message: null })).toBe(false);
    expect(await store.sealNext(1)).toEqual({ sealed: 1, read: 1 });
    expect((await store.list()).map((e) => e.email)).toEqual([
      "old1@example.com",
      "old2@example.com",
      "old3@example.com",
    ]);
    expect(await store.sealing()).toEqual({ plain: 2, sealed: { [parseDataKey(KEY_A).id]: 1 } });
    // Run again: it goes on where it stopped, and then has nothing left.
    expect(await store.sealNext(500)).toEqual({ sealed: 2, read: 2 });
    expect(await store.sealNext(500)).toEqual({ sealed: 0, read: 0 });
    expect(await tableText(store)).not.toContain("old1");

    const rotating = as(keys(KEY_B, KEY_A));
    expect(await rotating.sealNext(500)).toEqual({ sealed: 3, read: 3 });
    const rotated = as(keys(KEY_B));
    await rotated.checkDataKey();
    expect((await rotated.list()).map((e) => e.email)).toEqual([
      "old1@example.com",
      "old2@example.com",
      "old3@example.com",
    ]);
    expect(await rotated.add({ name: null, email: "Old2@Example.com", message: null })).toBe(false);
  });

  it.skipIf(!available)("a wrong key, or none, is refused before it writes anything", async () => {
    const wrong = as(keys(KEY_C));
    await expect(wrong.checkDataKey()).rejects.toThrow(
      `DATA_KEY does not open the 3 rows sealed under key ${parseDataKey(KEY_B).id}`,
    );
    await expect(wrong.add({ name: null, email: "new@example.com", message: null })).rejects.toBeInstanceOf(
      DataKeyError,
    );
    await expect(as(null).checkDataKey()).rejects.toThrow("but DATA_KEY is not set");
    await expect(as(null).list()).rejects.toBeInstanceOf(DataKeyError);
    expect(await as(keys(KEY_B)).count()).toBe(3);
  });

  it.skipIf(!available)("a sealed blob moved to another row does not open", async () => {
    const store = as(keys(KEY_B));
    await store.db.query(
      "UPDATE waitlist SET sealed = (SELECT sealed FROM waitlist ORDER BY id DESC LIMIT 1) WHERE id = (SELECT min(id) FROM waitlist)",
    );
    await expect(store.list()).rejects.toThrow("does not open with it: it was altered or moved");
  });
});

describe("npm run waitlist -- encrypt", () => {
  const run = promisify(execFile);
  let dataDir: string;
  beforeAll(async () => {
    dataDir = migratedDataDir("encrypt-cli-");
    const store = createStore(await openPgliteDb(dataDir));
    await store.add({ name: "Plain", email: "plain1@example.com", message: null });
    await store.add({ name: "Plain", email: "plain2@example.com", message: null });
    await store.close();
  }, 60_000);
  const cli = (env: Record<string, string>, ...args: string[]) =>
    run("node_modules/.bin/node", ["--import", "tsx", "scripts/waitlist.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NETLIFY_DB_URL: "", DATA_KEY: "", ...env },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);

  it("seals every plain row, says so, and a wrong key is one clear line", async () => {
    const id = parseDataKey(KEY_A).id;
    expect((await cli({ DATA_KEY: KEY_A }, "encrypt")).stdout).toBe(
      `Sealed 2 rows now; 2 rows under key ${id} in the embedded database in ${dataDir}/.\n`,
    );
    expect((await cli({ DATA_KEY: KEY_A }, "encrypt")).stdout).toBe(
      `Sealed 0 rows now; 2 rows under key ${id} in the embedded database in ${dataDir}/.\n`,
    );
    const wrong = await cli({ DATA_KEY: KEY_C }, "export");
    expect(wrong).toMatchObject({ code: 2, stdout: "" });
    expect((wrong as { stderr: string }).stderr).toContain(`DATA_KEY does not open the 2 rows sealed under key ${id}`);
    const malformed = await cli({ DATA_KEY: "too-short" }, "count");
    expect((malformed as { stderr: string }).stderr).toContain(
      "DATA_KEY must be 32 random bytes in base64: make one with `openssl rand -base64 32`.",
    );
  }, 60_000);
});
