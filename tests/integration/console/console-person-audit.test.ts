/**
 * The console's page per person, its delivery log and its audit log: what each shows, the person's actions, and an
 * audit entry for every action the team takes (never a signed-up person's address).
 */
import { expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { call, form, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
/** The newest entry's id: the log is append-only (no entry can be deleted), so a test reads what follows it. */
const lastAudit = async () => (await createAuditLog(h.store.db).page(1, null))[0]?.id ?? 0;

it("a person's page: answers, sources, consent, timeline and actions; actions and sign-ins are audited", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  const since = await lastAudit();
  await h.store.db.query(
    `INSERT INTO waitlist (email, name, organization, why, status, source, terms_version, created_at, confirmed_at,
       updates_consent, updates_consent_at, updates_consent_words, referral_code)
     VALUES ('ada@example.com', 'Ada', 'Analytical Engines', 'Notes', 'confirmed', 'newsletter', '2d81b8fd62c70c2e',
       '2026-03-01T10:00:00Z', '2026-03-01T10:07:00Z', true, '2026-03-01T10:08:00Z', 'abc123', 'ada2345678'),
       ('pat@example.com', NULL, NULL, NULL, 'pending', NULL, NULL, '2026-03-02T10:00:00Z', NULL, NULL, NULL, NULL, 'pat2345678')`,
  );
  const [ada] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = 'ada@example.com'");
  const [pat] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = 'pat@example.com'");
  const cookie = await signInByLink();
  const dashboard = await (await call("/admin", { cookie })).text();
  expect(dashboard).toContain(`<a href="/admin/person?id=${ada?.id}">ada@example.com</a>`);

  const page = text(await (await call(`/admin/person?id=${ada?.id}`, { cookie })).text());
  for (const said of [
    "Name Ada",
    "Organization Analytical Engines",
    "source newsletter",
    "Share code ada2345678 · 0 counted referrals",
    "Terms version 2d81b8fd62c70c2e, agreed at sign-up (2026-03-01 10:00); address confirmed 2026-03-01 10:07. Updates: yes since 2026-03-01 10:08 (words: abc123).",
    "2026-03-01 10:00 Signed up 2026-03-01 10:07 Confirmed their address",
    "Invite now",
    "Remove…",
  ]) {
    expect(page).toContain(said);
  }
  expect(text(await (await call(`/admin/person?id=${pat?.id}`, { cookie })).text())).toContain(
    "Resend the confirmation",
  );
  expect((await call("/admin/person?id=999999", { cookie })).status).toBe(404);
  expect((await call("/admin/person?id=abc", { cookie })).status).toBe(404);

  // Resending the confirmation mails the pending person, and the log says so without their address.
  // Then to the person's page (a reload does not send it again), which says so.
  const resent = await form("/admin/person", { id: String(pat?.id), action: "resend" }, { cookie });
  expect(resent.status).toBe(303);
  expect(resent.headers.get("location")).toBe(`/admin/person?id=${pat?.id}&done=resent`);
  expect(text(await (await call(resent.headers.get("location") ?? "", { cookie })).text())).toContain(
    "A new confirmation went out, unless one did in the last 10 minutes.",
  );
  // A word the console did not write shows nothing.
  expect(text(await (await call(`/admin/person?id=${pat?.id}&done=constructor`, { cookie })).text())).not.toContain(
    "A new confirmation went out",
  );
  await h.smtp.waitFor("pat@example.com");
  await form("/admin/remove", { email: "pat@example.com", confirm: "yes" }, { cookie });
  await form("/admin/sign-out", {}, { cookie });

  const entries = (await createAuditLog(h.store.db).page(50, null)).filter((e) => e.id > since).reverse();
  // Actions with effects: an entry before the first, completed by one naming it (audit/index.ts).
  const started = (action: string) => entries.find((e) => e.action === action && e.details["phase"] === "started")?.id;
  expect(entries.map((e) => [e.actor, e.action, e.details])).toEqual([
    ["ops@noosphere.test", "sign-in", { by: "link" }],
    ["ops@noosphere.test", "resend-confirmation", { phase: "started", person: pat?.id }],
    [
      "ops@noosphere.test",
      "resend-confirmation",
      { phase: "ended", started: started("resend-confirmation"), person: pat?.id },
    ],
    ["ops@noosphere.test", "remove", { phase: "started" }],
    ["ops@noosphere.test", "remove", { phase: "ended", started: started("remove"), removed: true }],
    ["ops@noosphere.test", "sign-out", {}],
  ]);
  // The console shows each action once: what it did, with no trace of its phases.
  const shown = (await createAuditLog(h.store.db).actions(50, null)).filter((e) => e.id > since).reverse();
  expect(shown.map((e) => [e.action, e.details])).toEqual([
    ["sign-in", { by: "link" }],
    ["resend-confirmation", { person: pat?.id }],
    ["remove", { removed: true }],
    ["sign-out", {}],
  ]);
  expect(JSON.stringify(entries)).not.toContain("pat@example.com");
});

it("the audit log and the delivery log in the console, newest first", async () => {
  const cookie = await signInByLink();
  const log = text(await (await call("/admin/audit", { cookie })).text());
  expect(log).toMatch(
    /What the team did, newest first .* \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} ops@noosphere\.test sign-in by: link/,
  );
  const hooks = text(await (await call("/admin/webhooks", { cookie })).text());
  expect(hooks).toContain("Off: set WEBHOOK_URL and WEBHOOK_SECRET to send the list's changes to another tool.");
});
