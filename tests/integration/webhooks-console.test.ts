/**
 * The console's delivery log: each event's last answer from the receiver as text (escaped, on one line, shortened,
 * the whole behind a <details>), and "Retry now" while deliveries are paused or off says the event waits for them.
 */
import { expect, it } from "vitest";
import { createWebhookStore } from "../../src/server/webhooks";
import { call, form, h, openConsoleHarness, signInByLink } from "./console-harness";

openConsoleHarness();

const SHORT = `msg_${"a".repeat(32)}`;
const LONG = `msg_${"b".repeat(32)}`;

it("shows the receiver's last answer, escaped, and shortened with the whole behind a disclosure", async () => {
  await h.store.db.query("DELETE FROM waitlist_webhook_event");
  await h.store.db.query(
    `INSERT INTO waitlist_webhook_event (id, type, occurred_at, state, attempts, last_status, last_answer, last_error)
     VALUES ($1, 'waitlist.signed_up', '2026-03-01T10:00:00Z', 'failed', 10, 500, $3, 'answered 500'),
       ($2, 'waitlist.confirmed', '2026-03-01T09:00:00Z', 'failed', 10, 502, $4, 'answered 502')`,
    [SHORT, LONG, "<b>Busy</b>\r\n\ttry\u0001later", `<i>${"é".repeat(100)}</i>`],
  );
  const cookie = await signInByLink();
  const html = await (await call("/admin/webhooks", { cookie })).text();
  expect(html).toContain(
    `<td data-label="Last answer">500 (answered 500)<br><span class="note">&lt;b&gt;Busy&lt;/b&gt; try later</span></td>`,
  );
  expect(html).toContain(
    `<td data-label="Last answer">502 (answered 502)<details><summary class="note">&lt;i&gt;${"é".repeat(77)}…</summary><pre>&lt;i&gt;${"é".repeat(100)}&lt;/i&gt;</pre></details></td>`,
  );
  expect(html).not.toContain("<script");
});

it("Retry now while deliveries are paused, or webhooks off, says the event is queued until they are on", async () => {
  await createWebhookStore(h.store.db).pause("The receiver answered 410 Gone.");
  // No receiver is reached: paused, nothing goes.
  h.config = { ...h.config, webhook: { url: "http://127.0.0.1:9/hooks", secret: "whsec_unused" } };
  const cookie = await signInByLink();
  const paused = await form("/admin/webhooks", { action: "retry", id: SHORT }, { cookie });
  expect(paused.status).toBe(303);
  expect(paused.headers.get("location")).toBe("/admin/webhooks?done=retry-paused");
  const page = (await (await call("/admin/webhooks?done=retry-paused", { cookie })).text()).replace(/\s+/g, " ");
  expect(page).toContain(
    `<p class="notice" role="status">The event is queued: it goes once deliveries are re-enabled (they are paused, below).</p>`,
  );
  expect(await createWebhookStore(h.store.db).recent(2)).toMatchObject([
    { id: SHORT, state: "pending", attempts: 0 },
    { id: LONG, state: "failed", attempts: 10 },
  ]);

  await createWebhookStore(h.store.db).resume();
  h.config = { ...h.config, webhook: null };
  const off = await form("/admin/webhooks", { action: "retry", id: LONG }, { cookie });
  expect(off.headers.get("location")).toBe("/admin/webhooks?done=retry-off");
  expect(await (await call("/admin/webhooks?done=retry-off", { cookie })).text()).toContain(
    `<p class="notice" role="status">The event is queued: it goes once webhooks are on (WEBHOOK_URL and WEBHOOK_SECRET).</p>`,
  );
});

it("shows WEBHOOK_URL as its scheme and host only: its user, password, path and query may be secrets", async () => {
  const before = h.config;
  h.config = {
    ...h.config,
    webhook: {
      url: "https://user:pass@hooks.example.com:8443/hook/PATHSECRET?key=QUERYSECRET",
      secret: "whsec_unused",
    },
  };
  try {
    const cookie = await signInByLink();
    const html = await (await call("/admin/webhooks", { cookie })).text();
    expect(html).toContain("events go to https://hooks.example.com:8443 (the rest of WEBHOOK_URL is not shown");
    for (const secret of ["user", "pass", "PATHSECRET", "QUERYSECRET"]) expect(html).not.toContain(secret);
  } finally {
    h.config = before;
  }
});
