/**
 * A redemption that cannot answer `{email, name}` changes nothing (issue 31, item 4): on a deploy whose DATA_KEY is
 * missing or wrong, the product's redemption answers 503 and logs one line, and the code stays usable for the day
 * the key is right. On every backend, with a person sealed under one key and invited by a real wave.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createStore, type Store } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import { type DataKeys, parseDataKey } from "../../../src/server/data-key";
import { createRedeemHandler } from "../../../src/server/invitations/redeem-handler";
import { backends, useBackend } from "../../support/backends";
import { fakeContext } from "../../support/helpers";
import { inviteByMail } from "../../support/invitations-harness";

const KEY_A = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const KEY_B = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";
const TOKEN = "redeem-token-0123456789abcdef0123456789";
const keys = (key: string): DataKeys => ({ current: parseDataKey(key), previous: null });

describe.each(backends("redeemkey"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  let code = "";
  /** The same database as a deploy with `dataKeys` (or none) sees it. */
  const as = (dataKeys: DataKeys | null) => createStore(backend.store.db, dataKeys);
  const config = readConfig({ INVITE_REDEEM_TOKEN: TOKEN });
  const redeem = (store: Store) =>
    createRedeemHandler({ store: async () => store, config: () => config })(
      new Request("http://localhost/api/invites/redeem", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ code }),
      }),
      fakeContext(),
    );
  const row = async () =>
    (
      await backend.store.db.query<{ status: string; joined: boolean; unused: boolean }>(
        `SELECT status, joined_at IS NOT NULL AS joined, invite_expires_at > now() AS unused FROM waitlist`,
      )
    )[0];

  beforeAll(async () => {
    if (!available) return;
    const sealed = as(keys(KEY_A));
    await sealed.add({ name: "Grace Hopper", email: "grace@example.com", message: null });
    const { report, mails } = await inviteByMail(sealed, 1);
    expect(report).toMatchObject({ invited: 1 });
    const mail = mails.find((m) => m.to === "grace@example.com");
    const link = mail?.links.find((l) => l.startsWith("https://app.noosphere.test/")) ?? "http://x";
    code = new URL(link).searchParams.get("invite") ?? "";
  }, 60_000);

  it.runIf(available)("without the key, or with another, 503 and one log line; the code stays unused", async () => {
    expect(code).toMatch(/^[A-Za-z0-9_-]{27}$/);
    const idA = parseDataKey(KEY_A).id;
    for (const [deploy, dataKeys, reason] of [
      ["no DATA_KEY", null, `1 row is sealed under key ${idA}, but DATA_KEY is not set`],
      ["another DATA_KEY", keys(KEY_B), `DATA_KEY does not open the 1 row sealed under key ${idA}`],
    ] as const) {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        const res = await redeem(as(dataKeys));
        expect(res.status, deploy).toBe(503);
        expect(await res.json()).toEqual({ error: "Invitations are unavailable right now. Please try again." });
        expect(warnings).not.toHaveBeenCalled();
        expect(errors).toHaveBeenCalledTimes(1);
        const line = JSON.parse(String(errors.mock.calls[0]?.[0]));
        expect(line).toMatchObject({ level: "error", event: "invites.redeem_failed", error: "DataKeyError" });
        expect(line.message).toContain(reason);
      } finally {
        errors.mockRestore();
        warnings.mockRestore();
      }
      expect(await row(), deploy).toEqual({ status: "invited", joined: false, unused: true });
    }
  });

  it.runIf(available)("with the key it was sealed with, the same code lets the person in, once", async () => {
    const res = await redeem(as(keys(KEY_A)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: "grace@example.com", name: "Grace Hopper" });
    expect(await row()).toEqual({ status: "joined", joined: true, unused: true });
    expect((await redeem(as(keys(KEY_A)))).status).toBe(409);
  });
});
