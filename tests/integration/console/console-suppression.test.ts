/**
 * The suppression list in the console: the person page shows a suppression with its reason, time and evidence, and
 * Lift / Stop all mail (each audited, never with an address); the Updates page shows what came back for each update
 * with its rates, and the banner of an update that paused by itself; a complaint past the threshold pauses the
 * running send. The sign-in link to the team's own address is the one e-mail the list does not stop.
 */
import { expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { databaseKey } from "../../../src/server/crypto/keys";
import type { RootKey } from "../../../src/server/crypto/secret";
import { addressKey, mailboxKey } from "../../../src/server/mail/mailbox";
import { createSuppressionStore, listKeysOf, recordMailEvent } from "../../../src/server/suppression";
import { createUpdateStore } from "../../../src/server/updates";
import { ADMIN, call, form, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

/** What a person reads: the tags gone, the entities as characters. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replaceAll("&#39;", "'")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
const lastAudit = async () => (await createAuditLog(h.store.db).page(1, null))[0]?.id ?? 0;
const root = async () => (await h.store.secret()) as RootKey;

it("the sign-in link reaches a team address even while its mailbox is suppressed", async () => {
  await createSuppressionStore(h.store.db).suppress(addressKey(await root(), ADMIN), "operator", "test", "test");
  expect(await signInByLink()).toMatch(/^noosphere_console=./);
  await h.store.db.query("DELETE FROM mail_suppression");
});

it("a person's page shows the suppression and its evidence; Lift and Stop all mail are audited", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  const [ada] = await h.store.db.query<{ id: number }>(
    "INSERT INTO waitlist (email, status, mailbox_key, address_key) VALUES ('ada@example.com', 'confirmed', $1, $2) RETURNING id",
    [mailboxKey(await root(), "ada@example.com"), addressKey(await root(), "ada@example.com")],
  );
  const id = ada?.id;
  const since = await lastAudit();
  const cookie = await signInByLink();
  expect(text(await (await call(`/admin/person?id=${id}`, { cookie })).text())).toContain(
    "Mail Not suppressed: the product's e-mails reach this address. Stop all mail to this address",
  );
  await recordMailEvent(
    { db: h.store.db, database: await databaseKey(h.store), config: h.config },
    {
      provider: "smtp",
      eventId: "m1",
      kind: "hard_bounce",
      messageIds: [],
      email: "ADA@Example.com",
      evidence: "550 5.1.1 <ada@example.com>: user unknown",
    },
  );
  const page = text(await (await call(`/admin/person?id=${id}`, { cookie })).text());
  expect(page).toMatch(
    /Mail Suppressed No e-mail goes to this address: their server refused the address for good \(a hard bounce\), \d{4}-\d\d-\d\d \d\d:\d\d UTC, from smtp\. Evidence: smtp: 550 5\.1\.1 <recipient>: user unknown Lift the suppression/,
  );

  const lifted = await form("/admin/person", { id: String(id), action: "lift" }, { cookie });
  expect(lifted.headers.get("location")).toBe(`/admin/person?id=${id}&done=lifted`);
  const after = text(await (await call(lifted.headers.get("location") ?? "", { cookie })).text());
  expect(after).toContain("Lifted: the product's e-mails go to this address again.");
  expect(after).toMatch(
    /Lifted Suppressed, then lifted: .* Lifted \d{4}-\d\d-\d\d \d\d:\d\d UTC by ops@noosphere\.test\./,
  );

  const stopped = await form("/admin/person", { id: String(id), action: "suppress" }, { cookie });
  expect(stopped.headers.get("location")).toBe(`/admin/person?id=${id}&done=suppressed`);
  expect(text(await (await call(`/admin/person?id=${id}`, { cookie })).text())).toContain(
    "Suppressed No e-mail goes to this address: an operator stopped all mail to them",
  );

  const entries = (await createAuditLog(h.store.db).page(50, null)).filter((e) => e.id > since).reverse();
  expect(entries.map((e) => [e.actor, e.action, e.details])).toEqual([
    ["ops@noosphere.test", "sign-in", { by: "link" }],
    ["smtp", "mail.suppressed", { reason: "hard_bounce", mailbox: expect.stringMatching(/^[\w-]{12}$/), update: null }],
    ["ops@noosphere.test", "mail.lifted", { person: id }],
    ["ops@noosphere.test", "mail.suppressed", { person: id, reason: "operator" }],
  ]);
  expect(JSON.stringify(entries)).not.toContain("ada@");
});

it("a complaint past 0.3 % pauses the running update; the Updates page says why, with the rates", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    "INSERT INTO waitlist (email, status, updates_consent) SELECT 'p' || n || '@example.com', 'confirmed', true FROM generate_series(1, 200) n",
  );
  const updates = createUpdateStore(h.store.db, h.store.dataKeys);
  const { id } = await updates.create("Spring news", "Hello.", "CLI", null);
  await h.store.db.query(
    // Its audience was recorded when it was made: all 200 were sent it.
    "UPDATE waitlist_update_recipient SET state = 'sent', done_at = now() WHERE update_id = $1",
    [id],
  );
  // The send is under way: a live run owns it.
  await h.store.db.query("UPDATE waitlist_update SET owner = 'cli@elsewhere:1', heartbeat_at = now() WHERE id = $1", [
    id,
  ]);
  const list = createSuppressionStore(h.store.db);
  await list.sent(
    "<u1@noosphere.test>",
    "ses-0001",
    listKeysOf(await databaseKey(h.store), "p1@example.com"),
    "update",
    id,
  );
  const paused: string[] = [];
  const deps = {
    db: h.store.db,
    database: await databaseKey(h.store),
    config: h.config,
    onPause: (_: number, why: string) => paused.push(why),
  };
  const event = { provider: "ses", kind: "hard_bounce" as const, messageIds: ["ses-0001"], email: null, evidence: "x" };
  // One hard bounce in 200 (0.5 %) is under 5 %: the send goes on.
  await recordMailEvent(deps, { ...event, eventId: "e1" });
  expect(paused).toEqual([]);
  await recordMailEvent(deps, { ...event, eventId: "e2", kind: "complaint", evidence: "Complaint abuse" });
  expect(paused).toEqual(["Paused by itself: 1 complaint, 0.5 % of 200 sent, past 0.3 %."]);
  // Paused through the long-job core, with its reason: its run stops at its next step; Resume goes on.
  const [row] = await h.store.db.query<{ paused_reason: string }>(
    "SELECT paused_reason FROM waitlist_update WHERE id = $1",
    [id],
  );
  expect(row?.paused_reason).toBe("Paused by itself: 1 complaint, 0.5 % of 200 sent, past 0.3 %.");

  const cookie = await signInByLink();
  const page = text(await (await call("/admin/updates", { cookie })).text());
  expect(page).toContain(
    "What came back “Spring news”: Paused by itself: 1 complaint, 0.5 % of 200 sent, past 0.3 %. Look at who complained or bounced before you resume it on its page.",
  );
  expect(page).toContain("Spring news 1 (0.5 %) 1 (0.5 %) 0");
});
