/**
 * A deploy that lost DATA_KEY while the table holds sealed rows (issue 31, item 5): the function stores nothing in
 * clear beside them. Each sign-up is answered as an outage (503, so the dialog keeps what the visitor typed), with
 * one log line naming the key; the console says so at the top. On every backend.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import { atRestWarning } from "../../../src/server/console/handler";
import { parseDataKey } from "../../../src/server/data-key";
import { createWaitlistHandler } from "../../../src/server/signup/handler";
import { backends, useBackend } from "../../support/backends";
import { fakeContext, post } from "../../support/helpers";

const KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const KEY_ID = parseDataKey(KEY).id;

describe.each(backends("sealed_no_key"))("%s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const withoutKey = readConfig({ RATE_LIMIT_MAX: "1000" });
  const withKey = readConfig({ RATE_LIMIT_MAX: "1000", DATA_KEY: KEY });

  beforeAll(async () => {
    if (!available) return;
    const sealing = createStore(backend.store.db, withKey.dataKeys);
    expect(await sealing.add({ name: "Ada", email: "ada@example.com", message: null, termsVersion: "t" })).toBe(true);
  }, 60_000);

  const rows = async () =>
    (await backend.store.db.query<{ email: string; key_id: string | null }>("SELECT email, key_id FROM waitlist"))
      .map((r) => (r.key_id === null ? r.email : `sealed:${r.key_id}`))
      .sort();

  it.skipIf(!available)("a sign-up without DATA_KEY is a 503 that stores nothing, logged once by key", async () => {
    const handler = createWaitlistHandler({
      store: async () => createStore(backend.store.db),
      config: () => withoutKey,
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await handler(post({ email: "grace@example.com", termsAccepted: true }), fakeContext("198.51.100.9"));
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "The waitlist is unavailable right now. Please try again." });
      expect(logged).toHaveBeenCalledTimes(1);
      const line = String(logged.mock.calls[0]?.[0]);
      expect(line).toContain("waitlist.store_failed");
      expect(line).toContain(`1 row is sealed under key ${KEY_ID}, but DATA_KEY is not set`);
      expect(line).not.toContain("grace");
    } finally {
      logged.mockRestore();
    }
    expect(await rows()).toEqual([`sealed:${KEY_ID}`]);
  });

  it.skipIf(!available)("the same sign-up with the key is stored, sealed", async () => {
    const handler = createWaitlistHandler({
      store: async () => createStore(backend.store.db, withKey.dataKeys),
      config: () => withKey,
    });
    const res = await handler(post({ email: "grace@example.com", termsAccepted: true }), fakeContext("198.51.100.9"));
    expect(res.status).toBe(201);
    expect(await rows()).toEqual([`sealed:${KEY_ID}`, `sealed:${KEY_ID}`]);
  });

  it.skipIf(!available)("the console says at the top that sign-ups are refused until the key is set", async () => {
    const sealing = await backend.store.sealing();
    expect(atRestWarning(withoutKey, sealing)).toBe(
      `Sign-ups are refused: rows are sealed under key ${KEY_ID}, but DATA_KEY is not set on this deploy. Set DATA_KEY to the key they were sealed with; nothing is stored in clear meanwhile.`,
    );
    expect(atRestWarning(withKey, sealing)).toBe(null);
  });
});
