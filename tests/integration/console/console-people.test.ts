/**
 * The People page over HTTP, as the browser sees it: the filters read back as chosen, chips that each take one
 * away, the list's badges and referral counts, and the bulk actions: each asks first (naming how many, listing them,
 * saying why someone is left out), then invites by a wave of exactly those people or removes them by the erasure,
 * audited from its start without an address; a page says what was done from the database, never from the address.
 */
import { expect, it, vi } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { readConfig } from "../../../src/server/config";
import { call, form, h, openConsoleHarness, signInByLink } from "../../support/console-harness";
import { idOf, lastAudit, readText, sectionText } from "../../support/console-reading";

openConsoleHarness();

async function seed() {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    `INSERT INTO waitlist (email, name, status, source, medium, referrer, referrals, created_at)
     VALUES ('ada@example.com', 'Ada', 'confirmed', 'newsletter', 'email', NULL, 2, '2026-03-01T10:00:00Z'),
       ('bob@example.com', NULL, 'confirmed', 'hn', NULL, 'news.ycombinator.com', 0, '2026-03-02T10:00:00Z'),
       ('pat@example.com', NULL, 'pending', 'hn', NULL, NULL, 0, '2026-03-03T10:00:00Z'),
       ('joy@example.com', NULL, 'joined', NULL, NULL, NULL, 0, '2026-03-04T10:00:00Z')`,
  );
}

it("filters read back as chosen, chips take one away, the list shows badges and counts", async () => {
  await seed();
  const cookie = await signInByLink();
  const html = await (await call("/admin/people?status=confirmed&source=newsletter&sort=referrals", { cookie })).text();
  expect(html).toContain('<a href="/admin/people" aria-current="page">People</a>');
  expect(html).toContain('<option value="confirmed" selected="">Confirmed</option>');
  expect(html).toContain('<option value="newsletter" selected="">newsletter (1)</option>');
  expect(html).toContain('<option value="hn">hn (2)</option>');
  expect(html).toContain('<option value=" ">None recorded</option>');
  expect(html).toContain('<option value="referrals" selected="">Most referrals first</option>');
  expect(html).toContain('<a class="button quiet" href="/admin/people">Clear filters</a>');
  expect(sectionText(html, "found")).toBe(
    "1 person match Status: Confirmed × (remove this filter) Source: newsletter × (remove this filter) " +
      "Most referrals first · page 1 of 1 Invite everyone matching (1) Write to everyone matching " +
      "Invite selected Remove selected Select all 1 on this page " +
      "People, most referrals first Select Signed up (UTC) Person Status Source Referring site Referrals " +
      "Select ada@example.com 2026-03-01 10:00 ada@example.com Ada Confirmed newsletter · email none 2 referrals",
  );
  // Each chip is the same list without its filter.
  expect(html).toContain('href="/admin/people?source=newsletter&amp;sort=referrals">Status: Confirmed');
  expect(html).toContain('href="/admin/people?status=confirmed&amp;sort=referrals">Source: newsletter');
  expect(html).toContain('<span class="badge confirmed">Confirmed</span>');
  expect(html).toContain(`<a href="/admin/person?id=${await idOf("ada@example.com")}">ada@example.com</a>`);

  // Nothing chosen: everyone, newest first, with the total from the tallies.
  const all = await (await call("/admin/people", { cookie })).text();
  expect(readText(all)).toContain("4 people Newest first · page 1 of 1");
  expect(all).not.toContain("Clear filters");
  const none = readText(await (await call("/admin/people?source=+", { cookie })).text());
  expect(none).toContain("1 person match Source: none recorded");
  expect(readText(await (await call("/admin/people?status=invited", { cookie })).text())).toContain(
    "Nobody matches Status: Invited × (remove this filter) Newest first · page 1 of 1 Nobody matches these filters.",
  );
  // Select all checks every row of the page.
  const selected = await (await call("/admin/people?select=all", { cookie })).text();
  expect(selected.match(/type="checkbox" name="select-\d+" checked=""/g)).toHaveLength(4);
  expect((await call("/admin/people?status=waiting", { cookie })).status).toBe(400);
});

it("Invite selected asks first, leaves out whom it must with why, then invites by one wave of them", async () => {
  await seed();
  const cookie = await signInByLink();
  const [ada, bob, pat, joy] = await Promise.all(["ada", "bob", "pat", "joy"].map((n) => idOf(`${n}@example.com`)));
  const chosen = {
    [`select-${ada}`]: "yes",
    [`select-${bob}`]: "yes",
    [`select-${pat}`]: "yes",
    [`select-${joy}`]: "yes",
  };
  const before = await lastAudit();
  const asked = await form(
    "/admin/people/selected",
    { ...chosen, action: "invite", back: "status=confirmed" },
    { cookie },
  );
  const page = await asked.text();
  expect(asked.status).toBe(200);
  expect(page).toContain("<h1>Invite 2 people?</h1>");
  expect(sectionText(page, "invite-who")).toBe(
    "They get their invitation now Each gets an e-mail with a single-use code to join, as a wave sends it. Anyone " +
      "whose mail server refuses it stays confirmed. bob@example.com Confirmed signed up 2026-03-02 from hn " +
      "ada@example.com Confirmed signed up 2026-03-01 from newsletter Invite 2 people Cancel",
  );
  expect(sectionText(page, "invite-not")).toBe(
    "Not invited: 2 people joy@example.com Joined signed up 2026-03-04 Already joined. pat@example.com Pending " +
      "signed up 2026-03-03 from hn Hasn't confirmed their address yet, so can't be invited.",
  );
  expect(page).toContain(`<input type="hidden" name="ids" value="${bob},${ada}"/>`);
  expect(page).toContain('<a class="button quiet" href="/admin/people?status=confirmed">Cancel</a>');
  // Asking sent nothing and wrote nothing.
  expect(h.smtp.messages.filter((m) => m.to !== "ops@noosphere.test")).toEqual([]);
  expect(await lastAudit()).toBe(before);

  const done = await form(
    "/admin/people/selected",
    { action: "invite", ids: `${bob},${ada}`, back: "status=confirmed", confirm: "yes" },
    { cookie },
  );
  expect(done.status).toBe(303);
  const wave = Number(/wave=(\d+)/.exec(done.headers.get("location") ?? "")?.[1]);
  expect(done.headers.get("location")).toBe(`/admin/people?wave=${wave}&done=invited`);
  await h.smtp.waitFor("ada@example.com");
  await h.smtp.waitFor("bob@example.com");
  const after = await (await call(`/admin/people?wave=${wave}&done=invited`, { cookie })).text();
  expect(after).toContain(
    '<p class="notice" role="status">Invited 2 of the 2 people you chose: their e-mails were accepted.</p>',
  );
  expect(readText(after)).toMatch(/2 people match Invited by the wave of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC ×/);
  expect(after.match(/<span class="badge invited">Invited<\/span>/g)).toHaveLength(2);
  const entries = (await createAuditLog(h.store.db).page(10, null)).filter((e) => e.id > before).reverse();
  expect(entries.map((e) => [e.action, e.details])).toEqual([
    ["invite-selected", { phase: "started", selected: 2, invitable: 2 }],
    [
      "invite-selected",
      { phase: "ended", started: entries[0]?.id, selected: 2, invitable: 2, wave, invited: 2, refused: 0 },
    ],
  ]);
  // The same people again: nobody left to invite.
  const again = await form(
    "/admin/people/selected",
    { action: "invite", ids: `${bob},${ada}`, confirm: "yes" },
    { cookie },
  );
  expect(readText(await again.text())).toContain("Nobody here can be invited Not invited: 2 people");
});

it("Remove selected asks first, then erases each, and says how many from its audit entry", async () => {
  await seed();
  const cookie = await signInByLink();
  const [bob, pat] = [await idOf("bob@example.com"), await idOf("pat@example.com")];
  const asked = await (
    await form(
      "/admin/people/selected",
      { [`select-${bob}`]: "yes", [`select-${pat}`]: "yes", action: "remove" },
      { cookie },
    )
  ).text();
  expect(asked).toContain("<h1>Remove 2 people for good?</h1>");
  expect(asked).toContain('<button type="submit" class="danger">Remove 2 people for good</button>');
  expect(await h.store.count()).toBe(4);
  const before = await lastAudit();
  const done = await form(
    "/admin/people/selected",
    { action: "remove", ids: `${bob},${pat}`, back: "source=hn", confirm: "yes" },
    { cookie },
  );
  const [start] = (await createAuditLog(h.store.db).page(10, null)).filter((e) => e.id > before).reverse();
  expect(done.headers.get("location")).toBe(`/admin/people?source=hn&removed=${start?.id}`);
  expect(await h.store.count()).toBe(2);
  const page = await (await call(done.headers.get("location") ?? "", { cookie })).text();
  expect(page).toContain(
    '<p class="notice" role="status">Removed 2 people: their addresses, everything they sent and their links are deleted.</p>',
  );
  // A number typed into the address says nothing.
  expect(await (await call("/admin/people?removed=99999", { cookie })).text()).not.toContain("Removed");
  const entries = (await createAuditLog(h.store.db).page(10, null)).filter((e) => e.id > before).reverse();
  expect(entries.map((e) => [e.action, e.details])).toEqual([
    ["remove-selected", { phase: "started", selected: 2 }],
    ["remove-selected", { phase: "ended", started: start?.id, selected: 2, removed: 2 }],
  ]);
  expect(JSON.stringify(entries)).not.toContain("@example.com");
});

it("a selection is one page at most, never empty, and invitations need e-mail", async () => {
  await seed();
  const cookie = await signInByLink();
  const many = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`select-${i + 1}`, "yes"]));
  const tooMany = await form("/admin/people/selected", { ...many, action: "remove" }, { cookie });
  expect(tooMany.status).toBe(400);
  expect(readText(await tooMany.text())).toContain("Choose at most 25 people at a time: one page of the list.");
  const empty = await form("/admin/people/selected", { action: "invite" }, { cookie });
  expect(empty.status).toBe(400);
  expect(readText(await empty.text())).toContain("Nobody was selected: tick the box beside each person first.");
  h.config = readConfig({
    WAITLIST_ADMIN_TOKEN: "t".repeat(40),
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
  });
  const token =
    (await form("/admin/sign-in", { token: "t".repeat(40) })).headers.get("set-cookie")?.split(";")[0] ?? "";
  const ada = await idOf("ada@example.com");
  const off = await form("/admin/people/selected", { [`select-${ada}`]: "yes", action: "invite" }, { cookie: token });
  expect(off.status).toBe(400);
  expect(readText(await off.text())).toContain("E-mail is off on this site, so invitations can't be sent from here.");
});

const POSITION = "The link's position in the list is not valid";
const SEARCH = "The search is not valid: it holds a character no address or source has (a NUL).";
const FILTER = "A filter in the link is not valid";

it.each([
  // Positions no link writes, with numbers past their columns' ranges (referrals integer, id bigint).
  ["sort=referrals&after=9999999999.1.1", 400, POSITION],
  ["sort=referrals&after=2147483648.1.1", 400, POSITION],
  ["sort=referrals&before=2147483648.1.1", 400, POSITION],
  ["after=9999999999.1.1", 400, POSITION],
  ["after=1.1.9999999999999999999", 400, POSITION],
  ["after=1.1.9223372036854775808", 400, POSITION],
  ["sort=oldest&before=0.1.9223372036854775808", 400, POSITION],
  ["sort=referrals&after=01.1.1", 400, POSITION],
  ["after=1.1.1&page=0", 400, POSITION],
  // The largest numbers each column holds: a valid position (at the end of the list).
  ["sort=referrals&after=2147483647.1.1", 200, "4 people Most referrals first"],
  ["after=1.1.9223372036854775807", 200, "4 people Newest first"],
  ["sort=referrals&before=2147483647.99999999999999999.9223372036854775807", 200, "4 people Most referrals first"],
  ["sort=oldest&after=0.99999999999999999.1", 200, "4 people Oldest first"],
  ["after=0.0.0", 200, "4 people Newest first"],
  // A search or filter the database cannot take as text (NUL), or can (what URL decoding makes of bad bytes).
  ["q=%00", 400, SEARCH],
  ["q=ada%00%40example.com", 400, SEARCH],
  ["q=%00&sort=referrals", 400, SEARCH],
  ["source=hn%00", 400, FILTER],
  ["q=%C0%AF", 200, "Nobody matches"],
  ["q=%ED%A0%80", 200, "Nobody matches"],
  ["q=%01", 200, "Nobody matches"],
])("People?%s answers %i, never a database error", async (search, status, said) => {
  await seed();
  const cookie = await signInByLink();
  const failed = vi.spyOn(console, "error");
  try {
    const response = await call(`/admin/people?${search}`, { cookie });
    expect(response.status).toBe(status);
    expect(readText(await response.text())).toContain(said);
    expect(failed.mock.calls.map((args) => String(args[0])).filter((line) => line.includes("admin.failed"))).toEqual(
      [],
    );
  } finally {
    failed.mockRestore();
  }
});
