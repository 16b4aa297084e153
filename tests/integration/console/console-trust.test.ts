/**
 * What the team does in the console, held to account: an update confirmed twice (two tabs, a page sent again) is
 * sent once, and its words sent again reach only those who have not had them; every POST that changes something is
 * in the audit log from its start (issue 39).
 */
import { expect, it, vi } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { readConfig } from "../../../src/server/config";
import { CONSOLE_ACTION_PATHS } from "../../../src/server/console/routes";
import {
  ADMIN,
  call,
  cookieOf,
  form,
  h,
  ORIGIN,
  openConsoleHarness,
  signInByLink,
} from "../../support/console-harness";

openConsoleHarness();

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const lastAudit = async () => (await createAuditLog(h.store.db).page(1, null))[0]?.id ?? 0;
const auditSince = async (since: number) =>
  (await createAuditLog(h.store.db).page(100, null)).filter((e) => e.id > since).reverse();
const PEOPLE = ["ada", "bob", "cat", "dee", "eve", "fay"].map((n) => `${n}@example.com`);

async function seedAudience(emails: string[]) {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    "INSERT INTO waitlist (email, status, updates_consent) SELECT unnest($1::text[]), 'confirmed', true",
    [emails],
  );
}
const DRAFT = { subject: "March news", body: "The graph view is in." };
/** The confirmation page's fields for the draft, with its own ticket. */
async function confirmed(cookie: string): Promise<Record<string, string>> {
  const page = await (await form("/admin/updates", { ...DRAFT, action: "confirm" }, { cookie })).text();
  const ticket = /name="ticket" value="([\w-]{22})"/.exec(page)?.[1];
  expect(ticket).toBeDefined();
  return { ...DRAFT, ticket: ticket ?? "", action: "send" };
}
const updateMail = () => h.smtp.messages.filter((m) => m.subject === DRAFT.subject).map((m) => m.to);

it("an update confirmed twice is sent once; its words again reach only those who have not had them", async () => {
  await h.store.db.query("DELETE FROM waitlist_update");
  await seedAudience(PEOPLE);
  const cookie = await signInByLink();
  // Two tabs: two confirmations of the same words, each with its own ticket.
  const [first, second] = [await confirmed(cookie), await confirmed(cookie)];
  expect(first.ticket).not.toBe(second.ticket);
  // The send runs in the background; the answer sends the operator to its page.
  expect((await form("/admin/updates", first, { cookie })).status).toBe(303);
  await h.smtp.waitFor("fay@example.com");
  expect(updateMail().sort()).toEqual(PEOPLE);

  const twice = await form("/admin/updates", second, { cookie });
  expect(twice.status).toBe(200);
  expect(text(await twice.text())).toContain("“March news” with this text was already sent: started");
  // A third confirmation of the same words shows that update instead of asking again.
  const third = text(await (await form("/admin/updates", { ...DRAFT, action: "confirm" }, { cookie })).text());
  expect(third).toContain("6 people sent it. Nobody was sent it again.");
  expect(third).toContain("Everyone who said yes to updates has received these words.");
  // Previewed again, the same: that update, not a preview saying nobody has said yes to updates.
  const previewed = text(await (await form("/admin/updates", { ...DRAFT, action: "preview" }, { cookie })).text());
  expect(previewed).toContain("6 people sent it. Nobody was sent it again.");
  expect(updateMail()).toHaveLength(6);
  expect(await h.store.db.query("SELECT count(*)::int AS n FROM waitlist_update")).toEqual([{ n: 1 }]);

  // Someone new says yes: sending the words again is a choice of its own, and reaches only them, once.
  await h.store.db.query(
    "INSERT INTO waitlist (email, status, updates_consent) VALUES ('gus@example.com', 'confirmed', true)",
  );
  const offer = await (await form("/admin/updates", { ...DRAFT, action: "confirm" }, { cookie })).text();
  expect(text(offer)).toContain("Send it again to 1 person");
  const after = /name="after" value="(\d+)"/.exec(offer)?.[1] ?? "";
  const again = { ...DRAFT, after, action: "again" };
  expect((await form("/admin/updates", again, { cookie })).status).toBe(303);
  await h.smtp.waitFor("gus@example.com");
  // The same choice again (a double click): the update it made, nobody twice.
  await form("/admin/updates", again, { cookie });
  expect(updateMail().sort()).toEqual([...PEOPLE, "gus@example.com"].sort());
  expect(await h.store.db.query("SELECT count(*)::int AS n FROM waitlist_update")).toEqual([{ n: 2 }]);
});

/**
 * Each POST path of the console, each action of its forms, and what each writes to the audit log. Asking for a
 * sign-in link is not an action of the team's (anyone may ask, and nothing changes but an e-mail): the sign-in it
 * leads to is. Previews, edits and confirmation pages change nothing and write nothing.
 */
const WALK: Record<string, string[]> = {
  "/admin/sign-in": [],
  "/admin/sign-in/confirm": ["sign-in"],
  "/admin/sign-out": ["sign-out"],
  "/admin/invite preview": [],
  "/admin/invite confirm": ["wave started", "wave ended"],
  "/admin/invite again": ["wave-file-again started", "wave-file-again ended"],
  "/admin/invite arrived": ["wave-file-arrived started", "wave-file-arrived ended"],
  "/admin/remove ask": [],
  "/admin/remove confirm": ["remove started", "remove ended"],
  "/admin/export": ["export"],
  "/admin/updates preview": [],
  "/admin/updates edit": [],
  "/admin/updates confirm": [],
  "/admin/updates test": ["update-test started", "update-test ended"],
  "/admin/updates send": ["update started", "update ended"],
  "/admin/updates again": ["update started", "update ended"],
  "/admin/jobs pause": ["job-pause started", "job-pause ended"],
  "/admin/jobs resume": ["job-resume started", "job-resume ended"],
  "/admin/jobs cancel": ["job-cancel started", "job-cancel ended"],
  "/admin/webhooks test": ["webhook-test started", "webhook-test ended"],
  "/admin/webhooks retry": ["webhook-retry started", "webhook-retry ended"],
  "/admin/webhooks resume": ["webhooks-resume started", "webhooks-resume ended"],
  "/admin/person resend": ["resend-confirmation started", "resend-confirmation ended"],
  "/admin/person invite ask": [],
  "/admin/person invite": ["wave started", "wave ended"],
  "/admin/people/selected invite ask": [],
  "/admin/people/selected invite": ["invite-selected started", "invite-selected ended"],
  "/admin/people/selected remove ask": [],
  "/admin/people/selected remove": ["remove-selected started", "remove-selected ended"],
  // The upload's dry run changes nothing on the list (the file is kept for its import, which is audited).
  "/admin/people/import dry-run": [],
  "/admin/people/import/start": ["import started", "import ended"],
};
const named = (e: { action: string; details: Record<string, unknown> }) =>
  e.details["phase"] ? `${e.action} ${e.details["phase"]}` : e.action;

it("every console action that changes something is in the audit log, written before its first effect", async () => {
  // Every POST path the handler has is walked.
  expect([...new Set(Object.keys(WALK).map((step) => step.split(" ")[0]))].sort()).toEqual(
    [...CONSOLE_ACTION_PATHS].sort(),
  );
  const first = await lastAudit();
  await h.store.db.query("DELETE FROM waitlist_update");
  await seedAudience(["ann@example.com"]);
  await h.store.db.query("INSERT INTO waitlist (email, status) VALUES ('pat@example.com', 'pending')");
  const seen: Record<string, string[]> = {};
  const walk = async (step: string, act: () => Promise<unknown>) => {
    const since = await lastAudit();
    await act();
    seen[step] = (await auditSince(since)).map(named);
  };

  await walk("/admin/sign-in", () => form("/admin/sign-in", { email: ADMIN }));
  await h.smtp.waitFor(ADMIN);
  const since = await lastAudit();
  const cookie = await signInByLink();
  seen["/admin/sign-in/confirm"] = (await auditSince(since)).map(named);

  const other = { subject: "April news", body: "Search is in." };
  await walk("/admin/updates preview", () => form("/admin/updates", { ...other, action: "preview" }, { cookie }));
  await walk("/admin/updates edit", () => form("/admin/updates", { ...other, action: "edit" }, { cookie }));
  await walk("/admin/updates confirm", () => form("/admin/updates", { ...other, action: "confirm" }, { cookie }));
  await walk("/admin/updates test", () => form("/admin/updates", { ...DRAFT, action: "test" }, { cookie }));
  // The test's subject says it is one.
  expect(h.smtp.messages.filter((m) => m.to === ADMIN).map((m) => m.subject)).toContain("[Test] March news");
  // The send's entry is in the log while its first e-mail is still on its way: written before it.
  const fields = await confirmed(cookie);
  await walk("/admin/updates send", async () => {
    const held = h.smtp.hold("data", "ann@example.com");
    const sending = form("/admin/updates", fields, { cookie });
    await held.reached;
    // (The send runs in the background: its entry is ended once handed over, before this e-mail is answered.)
    expect((await auditSince(since)).map(named).slice(-2)).toEqual(["update started", "update ended"]);
    held.release();
    await sending;
  });
  const [update] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist_update");
  const job = { kind: "update", id: String(update?.id) };
  await walk("/admin/jobs pause", () => form("/admin/jobs", { ...job, action: "pause" }, { cookie }));
  await walk("/admin/jobs resume", () => form("/admin/jobs", { ...job, action: "resume" }, { cookie }));
  await walk("/admin/jobs cancel", () => form("/admin/jobs", { ...job, action: "cancel", confirm: "yes" }, { cookie }));
  await h.store.db.query(
    "INSERT INTO waitlist (email, status, updates_consent) VALUES ('new@example.com', 'confirmed', true)",
  );
  await walk("/admin/updates again", () =>
    form("/admin/updates", { ...DRAFT, after: String(update?.id), action: "again" }, { cookie }),
  );

  h.config = { ...h.config, webhook: { url: "http://127.0.0.1:9/hooks", secret: "whsec_unused" } };
  await h.store.db.query("UPDATE waitlist_webhook_state SET paused_at = now(), paused_reason = 'test'");
  await walk("/admin/webhooks test", () => form("/admin/webhooks", { action: "test" }, { cookie }));
  const [event] = await h.store.db.query<{ id: string }>("SELECT id FROM waitlist_webhook_event LIMIT 1");
  await walk("/admin/webhooks retry", () =>
    form("/admin/webhooks", { action: "retry", id: event?.id ?? "" }, { cookie }),
  );
  await walk("/admin/webhooks resume", () => form("/admin/webhooks", { action: "resume" }, { cookie }));
  h.config = { ...h.config, webhook: null };

  const [pat] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = 'pat@example.com'");
  const [ann] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = 'ann@example.com'");
  await walk("/admin/person resend", () =>
    form("/admin/person", { id: String(pat?.id), action: "resend" }, { cookie }),
  );
  await walk("/admin/person invite ask", () =>
    form("/admin/person", { id: String(ann?.id), action: "invite" }, { cookie }),
  );
  await walk("/admin/person invite", () =>
    form("/admin/person", { id: String(ann?.id), action: "invite", confirm: "yes" }, { cookie }),
  );
  // The People list's bulk actions: each asks first (naming how many), then acts.
  await h.store.db.query(
    "INSERT INTO waitlist (email, status) VALUES ('gus@example.com', 'confirmed'), ('hal@example.com', 'confirmed')",
  );
  const [gus] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = 'gus@example.com'");
  const [hal] = await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = 'hal@example.com'");
  const bulk = (ids: string, action: string, confirm?: string) =>
    form("/admin/people/selected", { ids, action, ...(confirm ? { confirm } : {}) }, { cookie });
  await walk("/admin/people/selected invite ask", () => bulk(String(gus?.id), "invite"));
  await walk("/admin/people/selected invite", () => bulk(String(gus?.id), "invite", "yes"));
  await walk("/admin/people/selected remove ask", () => bulk(String(hal?.id), "remove"));
  await walk("/admin/people/selected remove", () => bulk(String(hal?.id), "remove", "yes"));
  const file = new FormData();
  file.set("consent", "ask");
  file.set("file", new File(["email,name\nivy@example.com,Ivy\n"], "old-tool.csv", { type: "text/csv" }));
  const upload = () =>
    call("/admin/people/import", { method: "POST", headers: { Origin: ORIGIN }, body: file, cookie });
  let hash = "";
  await walk("/admin/people/import dry-run", async () => {
    hash = /name="file" value="([0-9a-f]{64})"/.exec(await (await upload()).text())?.[1] ?? "";
  });
  await walk("/admin/people/import/start", async () => {
    await form("/admin/people/import/start", { file: hash, consent: "ask", source: "", confirm: "yes" }, { cookie });
    await h.smtp.waitFor("ivy@example.com");
    // The background run's own entry is written once its last e-mail is answered: wait for the run to finish.
    const finished = "SELECT 1 FROM waitlist_import WHERE finished_at IS NOT NULL";
    await vi.waitFor(async () => expect(await h.store.db.query(finished)).toHaveLength(1));
  });
  await walk("/admin/export", async () => (await form("/admin/export", { format: "csv" }, { cookie })).text());
  await walk("/admin/remove ask", () => form("/admin/remove", { email: "pat@example.com" }, { cookie }));
  await walk("/admin/remove confirm", () =>
    form("/admin/remove", { email: "pat@example.com", confirm: "yes" }, { cookie }),
  );

  // A wave, with mail off: the file, the file again (new codes, old ones void), and "the file arrived".
  await h.store.db.query(
    "INSERT INTO waitlist (email, status) VALUES ('kim@example.com', 'confirmed'), ('lee@example.com', 'confirmed')",
  );
  h.config = readConfig({
    WAITLIST_ADMIN_TOKEN: "t".repeat(40),
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
  });
  const token = cookieOf(await form("/admin/sign-in", { token: "t".repeat(40) }));
  let preview = "";
  await walk("/admin/invite preview", async () => {
    preview = await (await form("/admin/invite", { next: "2" }, { cookie: token })).text();
  });
  const ticket = /name="ticket" value="([\w-]{22})"/.exec(preview)?.[1] ?? "";
  await walk("/admin/invite confirm", async () =>
    (await form("/admin/invite", { next: "2", confirm: "yes", ticket }, { cookie: token })).text(),
  );
  const wave = /name="file" value="(\d+)"/.exec(await (await call("/admin", { cookie: token })).text())?.[1] ?? "";
  await walk("/admin/invite again", async () =>
    (await form("/admin/invite", { file: wave, action: "again" }, { cookie: token })).text(),
  );
  await walk("/admin/invite arrived", () =>
    form("/admin/invite", { file: wave, action: "arrived" }, { cookie: token }),
  );
  await walk("/admin/sign-out", () => form("/admin/sign-out", {}, { cookie: token }));

  expect(seen).toEqual(WALK);
  const entries = await auditSince(first);
  // A completion names the entry that started it.
  const ended = entries.filter((e) => e.details["phase"] === "ended");
  expect(ended.length).toBe(18);
  for (const end of ended) {
    expect(entries.find((e) => e.id === end.details["started"])?.details["phase"]).toBe("started");
  }
  expect(JSON.stringify(entries)).not.toMatch(/(ann|pat|kim|lee|new|gus|hal)@example\.com/);
});
