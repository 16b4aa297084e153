/**
 * Sent work in the console, below the browser (issue 54, points 6 and 7): the update's preview shows the e-mail the
 * mailer sends, in sandboxed frames of a page of its own whose CSP allows the e-mail's inline styles and nothing
 * else; a started update's page shows the same for what went out; past waves have a page, and the overview links
 * to the latest updates and waves. In the browser: tests/e2e/console-jobs.spec.ts and tests/e2e/updates-console.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { createUpdateStore, updateEmail } from "../../../src/server/updates";
import { call, form, h, ORIGIN, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

const DRAFT = { subject: "Spring news", body: "Hello <b>all</b>!\n\nThe graph: https://noosphere.test/graph." };
const SAMPLE = {
  unsubscribe: `${ORIGIN}/waitlist/unsubscribe?token=…`,
  status: `${ORIGIN}/waitlist/status?token=…`,
  site: ORIGIN,
  messageId: "",
};
const FRAME_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'; sandbox allow-popups allow-popups-to-escape-sandbox";

describe("the update's e-mail in the console", () => {
  it("the preview frames the mailer's own HTML, served under a CSP of its own; a test comes before the send", async () => {
    await h.store.db.query(
      "INSERT INTO waitlist (email, status, updates_consent) VALUES ('ada@example.com', 'confirmed', true)",
    );
    const cookie = await signInByLink();
    const preview = await (await form("/admin/updates", { ...DRAFT, action: "preview" }, { cookie })).text();
    const src = /<iframe src="([^"]+)"/.exec(preview)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(src).toMatch(/^\/admin\/updates\/mail\?draft=[0-9a-f]{64}$/);
    expect(preview).toContain(
      `<iframe src="${src}" title="The e-mail “Spring news”, on a phone" sandbox="allow-popups allow-popups-to-escape-sandbox" width="360" height="560"></iframe>`,
    );
    expect(preview).toContain(
      `<iframe src="${src}" title="The e-mail “Spring news”, on a computer" sandbox="allow-popups allow-popups-to-escape-sandbox" width="640" height="560"></iframe>`,
    );
    expect(preview.indexOf(">Send a test to me<")).toBeLessThan(preview.indexOf(">Send to 1 person…<"));
    expect(preview).not.toContain("style=");

    const mail = await call(src, { cookie });
    expect(mail.status).toBe(200);
    expect(mail.headers.get("content-security-policy")).toBe(FRAME_CSP);
    expect(mail.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(mail.headers.get("cache-control")).toBe("no-store");
    expect(await mail.text()).toBe(updateEmail(DRAFT, SAMPLE).html);
    // Only for someone signed in; a key that names no draft is not found.
    expect((await call(src)).status).toBe(401);
    expect((await call(`/admin/updates/mail?draft=${"0".repeat(64)}`, { cookie })).status).toBe(404);
    expect((await call("/admin/updates/mail?draft=nope", { cookie })).status).toBe(404);
  });

  it("a started update's page frames the e-mail it sent; the Updates page and the overview link to it", async () => {
    const { id } = await createUpdateStore(h.store.db, null).create(DRAFT.subject, DRAFT.body, "CLI", null);
    const cookie = await signInByLink();
    const mail = await call(`/admin/updates/mail?update=${id}`, { cookie });
    expect(await mail.text()).toBe(updateEmail(DRAFT, SAMPLE).html);
    expect((await call("/admin/updates/mail?update=999999", { cookie })).status).toBe(404);
    const its = `/admin/jobs?kind=update&amp;id=${id}`;
    expect(await (await call("/admin/updates", { cookie })).text()).toContain(`<a href="${its}">Spring news</a>`);
    const overview = await (await call("/admin", { cookie })).text();
    expect(overview).toContain(`<a href="${its}">Sending “Spring news”</a>`);
    expect(overview).toContain('<a href="/admin/waves">All past waves</a>');
  });
});

describe("past waves", () => {
  it("lists each wave, newest first, with its page and whom it invited", async () => {
    const [first] = await h.store.db.query<{ id: number }>(
      `INSERT INTO waitlist_invite_wave (owner, size, invited, started_at, finished_at)
       VALUES ('done', 2, 2, '2026-03-01T10:00:00Z', '2026-03-01T10:01:00Z') RETURNING id`,
    );
    const [second] = await h.store.db.query<{ id: number }>(
      `INSERT INTO waitlist_invite_wave (owner, size, started_at, finished_at, cancelled_at)
       VALUES ('done', 3, '2026-03-02T10:00:00Z', NULL, '2026-03-02T10:05:00Z') RETURNING id`,
    );
    const cookie = await signInByLink();
    const page = await (await call("/admin/waves", { cookie })).text();
    expect(page).toContain("<h1>Past waves</h1>");
    const rows = [...page.matchAll(/<tr><td data-label="Started" class="when">(.*?)<\/tr>/g)].map((m) => m[1]);
    expect(rows).toEqual([
      `2026-03-02 10:00</td><td data-label="Wave"><a href="/admin/jobs?kind=wave&amp;id=${second?.id}">Inviting 3 people (cancelled)</a></td><td data-label="Invited" class="n">0</td><td data-label="Refused" class="n">0</td><td data-label="State"><span class="badge tone-muted">Cancelled</span></td><td data-label="Who"><span class="note">Nobody yet</span></td>`,
      `2026-03-01 10:00</td><td data-label="Wave"><a href="/admin/jobs?kind=wave&amp;id=${first?.id}">Invited 2 people</a></td><td data-label="Invited" class="n">2</td><td data-label="Refused" class="n">0</td><td data-label="State"><span class="badge tone-good">Finished</span></td><td data-label="Who"><a href="/admin/people?wave=${first?.id}" aria-label="Who it invited: Invited 2 people, 2026-03-01 10:00">Who it invited</a></td>`,
    ]);
  });
});
