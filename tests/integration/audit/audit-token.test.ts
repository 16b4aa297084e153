/**
 * Every use of a bearer token is in the audit log, named by its token ("token": the admin token's; "redeem-token":
 * INVITE_REDEEM_TOKEN's), before its answer goes: an HTTP export's part (its
 * format and where it starts and ends), written before the download streams, so one cut off or never read is still
 * there; and each redemption through the product's API, with its outcome. On PGlite, PostgreSQL and Neon's HTTP
 * protocol.
 */
import { describe, expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { readConfig } from "../../../src/server/config";
import { hashToken } from "../../../src/server/crypto/tokens";
import { createExportHandler } from "../../../src/server/export/handler";
import { createRedeemHandler } from "../../../src/server/invitations/redeem-handler";
import { backends, useBackend } from "../../support/backends";

const EXPORT_TOKEN = "export-token-0123456789abcdef0123456789";
const REDEEM_TOKEN = "redeem-token-0123456789abcdef0123456789";
const CODE = "abcdefghijklmnopqrstuvwxyz0";

describe.each(backends("audit_token"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const config = readConfig({
    WAITLIST_ADMIN_TOKEN: EXPORT_TOKEN,
    INVITE_REDEEM_TOKEN: REDEEM_TOKEN,
    RATE_LIMIT_MAX: "1000",
  });
  const deps = { store: async () => backend.store, config: () => config };
  const exportHandler = createExportHandler({ ...deps, partSize: { bytes: 1_000_000_000, rows: 2 } });
  const redeemHandler = createRedeemHandler(deps);

  /** The entries after entry `since`, oldest first, as [who, what, details]. */
  const entriesAfter = async (since: number) =>
    (await createAuditLog(backend.store.db).page(100, null))
      .filter((e) => e.id > since)
      .reverse()
      .map((e) => [e.actor, e.action, e.details]);
  const lastId = async () => (await createAuditLog(backend.store.db).page(1, null))[0]?.id ?? 0;

  it.skipIf(!available)("an HTTP export is audited before it streams: a part never read is in the log", async () => {
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      await backend.store.add({ name: null, email, message: null });
    }
    const [first] = await backend.store.db.query<{ id: number }>("SELECT min(id)::int AS id FROM waitlist");
    const start = Number(first?.id) - 1;
    const since = await lastId();
    const response = await exportHandler(
      new Request("http://localhost/api/waitlist/export?format=json&confirmed-only", {
        headers: { Authorization: `Bearer ${EXPORT_TOKEN}` },
      }),
    );
    expect(response.status).toBe(200);
    // The reader goes away without a byte: the entry is there all the same.
    await response.body?.cancel();
    expect(await entriesAfter(since)).toEqual([
      ["token", "export", { via: "http", format: "json", after: start, to: start + 2, rows: 2, confirmedOnly: true }],
    ]);
    // The next part, read whole: one entry more, where it starts and ends.
    const next = response.headers.get("link")?.match(/<([^>]+)>/)?.[1] ?? "";
    const rest = await exportHandler(
      new Request(`http://localhost${next}`, { headers: { Authorization: `Bearer ${EXPORT_TOKEN}` } }),
    );
    expect(((await rest.json()) as Array<{ email: string }>).map((row) => row.email)).toEqual(["c@example.com"]);
    expect((await entriesAfter(since)).slice(1)).toEqual([
      [
        "token",
        "export",
        { via: "http", format: "json", after: start + 2, to: start + 3, rows: 1, confirmedOnly: true },
      ],
    ]);
  });

  it.skipIf(!available)("each redemption through the API is audited with its outcome, never the code", async () => {
    await backend.store.db.query(
      `INSERT INTO waitlist (email, status, invited_at, invite_code_hash, invite_expires_at)
       VALUES ('invited@example.com', 'invited', now(), $1, now() + interval '1 day')`,
      [hashToken(CODE)],
    );
    const since = await lastId();
    const redeem = (code: string) =>
      redeemHandler(
        new Request("http://localhost/api/invites/redeem", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${REDEEM_TOKEN}` },
          body: JSON.stringify({ code }),
        }),
      );
    expect((await redeem(CODE)).status).toBe(200);
    expect((await redeem(CODE)).status).toBe(409);
    expect((await redeem("z".repeat(27))).status).toBe(404);
    const entries = await entriesAfter(since);
    expect(entries).toEqual([
      ["redeem-token", "invite.redeem", { outcome: "joined" }],
      ["redeem-token", "invite.redeem", { outcome: "used" }],
      ["redeem-token", "invite.redeem", { outcome: "unknown" }],
    ]);
    expect(JSON.stringify(entries)).not.toContain(CODE);
  });
});
