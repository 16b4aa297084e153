/**
 * The console's page per person and its audit log: what each section shows, literally (the status as a badge, the
 * terms by their date, the updates choice in words, the share link); the person's actions, Invite now asking once
 * before it sends; and an audit entry for every action the team takes (never a signed-up person's address), shown
 * in the log as a sentence.
 */
import { expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { UPDATES_WORDS_VERSION } from "../../../src/server/updates";
import { ADMIN, call, form, h, openConsoleHarness, signInByLink } from "../../support/console-harness";
import { idOf, lastAudit, readText, sectionText } from "../../support/console-reading";

openConsoleHarness();

/** The actions under a person's name, as read (their legend first). */
const actions = (html: string) =>
  readText(/<fieldset class="person-actions">([\s\S]*?)<\/fieldset>/.exec(html)?.[1] ?? "");

it("a person's page: answers, sources, share link, consent in words, timeline and actions", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    `INSERT INTO waitlist (email, name, organization, why, status, source, terms_version, created_at, confirmed_at,
       updates_consent, updates_consent_at, updates_consent_words, referral_code)
     VALUES ('ada@example.com', 'Ada', 'Analytical Engines', 'Notes', 'confirmed', 'newsletter', '2d81b8fd62c70c2e',
       '2026-03-01T10:00:00Z', '2026-03-01T10:07:00Z', true, '2026-03-01T10:08:00Z', $1, 'ada2345678'),
       ('pat@example.com', NULL, NULL, NULL, 'pending', NULL, NULL, '2026-03-02T10:00:00Z', NULL, NULL, NULL, NULL, 'pat2345678')`,
    [UPDATES_WORDS_VERSION],
  );
  const [ada, pat] = [await idOf("ada@example.com"), await idOf("pat@example.com")];
  const cookie = await signInByLink();
  // Found from the list by the address.
  expect(await (await call("/admin/people?q=ada%40example.com", { cookie })).text()).toContain(
    `href="/admin/person?id=${ada}"`,
  );

  const html = await (await call(`/admin/person?id=${ada}`, { cookie })).text();
  expect(html).toContain(
    '<div class="title-row"><h1><span class="ident" title="ada@example.com">ada@example.com</span></h1><span class="badge confirmed">Confirmed</span></div>',
  );
  expect(html).toContain('<a href="/admin/people" aria-current="page">People</a>');
  expect(sectionText(html, "who")).toBe(
    "Answers Name Ada Organization Analytical Engines Why are you interested? Notes How would you like to connect or contribute? Not given",
  );
  expect(sectionText(html, "from")).toBe(
    "Where they came from Source newsletter Medium Not given Campaign Not given Referring site Not given Landing page Not given",
  );
  expect(sectionText(html, "share")).toBe(
    "Their share link Share code ada2345678 Share link http://localhost:4321/?via=ada2345678 Referrals 0 counted",
  );
  expect(sectionText(html, "consent")).toBe(
    "Consent Terms agreed at sign-up The Terms of Service of November 22, 2026 Address Confirmed 2026-03-01 10:07 UTC Updates Yes since 2026-03-01 10:08 UTC, on their status page, to these words: Occasional e-mails from the Noosphere team while you wait: what we are building, and when the next people are let in. A few a year, no tracking, and every one has a link to stop them.",
  );
  expect(sectionText(html, "timeline")).toBe(
    "Timeline (UTC) 2026-03-01 10:00 Signed up 2026-03-01 10:07 Confirmed their address 2026-03-01 10:08 Said yes to updates",
  );
  expect(sectionText(html, "hooks")).toBe("Webhooks No webhook events for this person.");
  expect(actions(html)).toBe("Actions Invite now… Remove…");
  expect(html).not.toContain("2d81b8fd62c70c2e");
  expect(html).not.toContain(UPDATES_WORDS_VERSION);

  const pending = await (await call(`/admin/person?id=${pat}`, { cookie })).text();
  expect(pending).toContain('<span class="badge pending">Pending</span>');
  expect(sectionText(pending, "consent")).toBe(
    "Consent Terms agreed at sign-up Not recorded (they signed up before the terms were kept with each sign-up) Address Not confirmed yet Updates Not asked yet: they are asked on their status page once they confirm",
  );
  expect(actions(pending)).toBe("Actions Resend the confirmation Remove…");
  expect((await call("/admin/person?id=999999", { cookie })).status).toBe(404);
  expect((await call("/admin/person?id=abc", { cookie })).status).toBe(404);
});

it("Invite now asks once, naming who and where they stand, then invites; each action is audited", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    `INSERT INTO waitlist (email, status, created_at) VALUES ('bea@example.com', 'confirmed', '2026-03-01T09:00:00Z'),
       ('ada@example.com', 'confirmed', '2026-03-01T10:00:00Z'), ('pat@example.com', 'pending', '2026-03-02T10:00:00Z')`,
  );
  const [ada, pat] = [await idOf("ada@example.com"), await idOf("pat@example.com")];
  const since = await lastAudit();
  const cookie = await signInByLink();
  const mailed = () => h.smtp.messages.filter((m) => m.to === "ada@example.com").length;

  const asked = await form("/admin/person", { id: String(ada), action: "invite" }, { cookie });
  expect(asked.status).toBe(200);
  const question = await asked.text();
  expect(readText(/<main id="main">([\s\S]*)<\/main>/.exec(question)?.[1] ?? "")).toBe(
    "Invite ada@example.com now? What happens They are 2nd in line, of 2 people waiting: they go ahead of the 1 person before them. They get an e-mail now with a single-use link to the product, good for 30 days, and leave the line. Invite now Cancel",
  );
  expect(question).toContain(`<a class="button quiet" href="/admin/person?id=${ada}">Cancel</a>`);
  // Asking changed nothing: no e-mail, no entry, still confirmed.
  expect(mailed()).toBe(0);
  expect(await lastAudit()).toBeGreaterThan(since);
  const afterSignIn = await lastAudit();

  const invited = await form("/admin/person", { id: String(ada), action: "invite", confirm: "yes" }, { cookie });
  expect(invited.headers.get("location")).toBe(`/admin/person?id=${ada}&done=invited`);
  expect(mailed()).toBe(1);
  const page = await (await call(invited.headers.get("location") ?? "", { cookie })).text();
  expect(page).toContain('<p class="notice" role="status">Invited: their e-mail was accepted by the SMTP server.</p>');
  expect(page).toContain('<span class="badge invited">Invited</span>');
  expect(actions(page)).toBe("Actions Resend the invitation Remove…");
  // A second confirmation (a reload, another tab) invites nobody again.
  const again = await form("/admin/person", { id: String(ada), action: "invite", confirm: "yes" }, { cookie });
  expect(readText(await again.text())).toContain("Only someone confirmed and waiting can be invited.");
  expect(mailed()).toBe(1);

  // Resending the confirmation mails the pending person; the page says so after a redirect (a reload sends nothing).
  const resent = await form("/admin/person", { id: String(pat), action: "resend" }, { cookie });
  expect(resent.headers.get("location")).toBe(`/admin/person?id=${pat}&done=resent`);
  expect(readText(await (await call(resent.headers.get("location") ?? "", { cookie })).text())).toContain(
    "A new confirmation went out.",
  );
  // A word the console did not write shows nothing.
  expect(readText(await (await call(`/admin/person?id=${pat}&done=constructor`, { cookie })).text())).not.toContain(
    "A new confirmation went out",
  );
  await h.smtp.waitFor("pat@example.com");
  await form("/admin/remove", { email: "pat@example.com", confirm: "yes" }, { cookie });
  await form("/admin/sign-out", {}, { cookie });

  const entries = (await createAuditLog(h.store.db).page(50, null)).filter((e) => e.id > afterSignIn).reverse();
  // Actions with effects: an entry before the first, completed by one naming it (audit/index.ts).
  const started = (action: string) => entries.find((e) => e.action === action && e.details["phase"] === "started")?.id;
  expect(entries.map((e) => [e.actor, e.action, e.details])).toEqual([
    [ADMIN, "wave", { phase: "started", size: 1, person: ada }],
    [ADMIN, "wave", { phase: "ended", started: started("wave"), size: 1, person: ada, invited: 1 }],
    [ADMIN, "resend-confirmation", { phase: "started", person: pat }],
    [
      ADMIN,
      "resend-confirmation",
      { phase: "ended", started: started("resend-confirmation"), person: pat, outcome: "sent" },
    ],
    [ADMIN, "remove", { phase: "started" }],
    [ADMIN, "remove", { phase: "ended", started: started("remove"), removed: true }],
    [ADMIN, "sign-out", {}],
  ]);
  expect(JSON.stringify(entries)).not.toContain("@example.com");

  // The log in the console: each action once, as a sentence, newest first; a person still listed is linked.
  const log = await (await call("/admin/audit", { cookie: await signInByLink() })).text();
  const rows = [...log.matchAll(/<tr><td data-label="When \(UTC\)">[^<]+<\/td>([\s\S]*?)<\/tr>/g)]
    .map((m) => readText(m[1] ?? "").replace(/ As recorded .*$/, ""))
    .slice(0, 6);
  expect(rows).toEqual([
    `${ADMIN} Signed in with a link sent by e-mail.`,
    `${ADMIN} Signed out.`,
    `${ADMIN} Removed a person from the list, with everything they sent.`,
    `${ADMIN} Sent a pending person their confirmation e-mail again.`,
    `${ADMIN} Invited one person now, from their page. Their page`,
    `${ADMIN} Signed in with a link sent by e-mail.`,
  ]);
  expect(log).toContain(`<a href="/admin/person?id=${ada}">Their page</a>`);
  expect(log).toContain('<h2 id="log">What the team did, newest first</h2>');
  expect(log).not.toContain("@example.com");
});
