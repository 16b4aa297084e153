/**
 * The console's delivery log: each event's last answer from the receiver as text (escaped, on one line, its status
 * once, the whole in the row's <details>), a place in the log no link writes refused, and "Retry now" while deliveries are paused or off says the event waits for them.
 */
import { expect, it } from "vitest";
import { createWebhookStore } from "../../../src/server/webhooks";
import { call, form, h, openConsoleHarness, signInByLink } from "../../support/console-harness";
import { startWebhookReceiver } from "../../support/webhook-receiver";

openConsoleHarness();

const SHORT = `msg_${"a".repeat(32)}`;
const LONG = `msg_${"b".repeat(32)}`;

it("shows the receiver's last answer, escaped, its status once, the whole in the row's details", async () => {
  await h.store.db.query("DELETE FROM waitlist_webhook_event");
  await h.store.db.query(
    `INSERT INTO waitlist_webhook_event (id, type, occurred_at, state, attempts, last_status, last_answer, last_error)
     VALUES ($1, 'waitlist.signed_up', '2026-03-01T10:00:00Z', 'failed', 10, 500, $3, 'answered 500'),
       ($2, 'waitlist.confirmed', '2026-03-01T09:00:00Z', 'failed', 10, 502, $4, 'answered 502')`,
    [SHORT, LONG, "<b>Busy</b>\r\n\ttry\u0001later", `<i>${"é".repeat(100)}</i>`],
  );
  const cookie = await signInByLink();
  const html = await (await call("/admin/webhooks", { cookie })).text();
  // Its status said once, then the answer on one line (the stylesheet cuts it to the room left); whole in the details.
  expect(html).toContain('<td class="answer">500: &lt;b&gt;Busy&lt;/b&gt; try later</td>');
  expect(html).toContain(`<td class="answer">502: &lt;i&gt;${"é".repeat(100)}&lt;/i&gt;</td>`);
  expect(html).toContain(`<dt>Last answer</dt><dd><pre>&lt;i&gt;${"é".repeat(100)}&lt;/i&gt;</pre></dd>`);
  expect(html).not.toContain("answered 50");
  // Each event in words, its type in its details, its state a badge: these two will not be tried again.
  expect(html).toContain("<summary>Someone signed up</summary>");
  expect(html).toContain("<dt>Type</dt><dd><code>waitlist.signed_up</code></dd>");
  expect(html.match(/<td class="state"><span class="badge tone-bad">Failed<\/span><\/td>/g)).toHaveLength(2);
  expect(html).toContain('aria-label="Retry now: Someone confirmed their address, 2026-03-01 09:00:00 UTC"');
  expect(html).not.toContain("<script");
});

it("refuses a place in the log that no link writes", async () => {
  const cookie = await signInByLink();
  for (const query of ["older=1.msg_x", "newer=1.2", `older=1.${SHORT}&newer=1.${SHORT}`]) {
    const answer = await call(`/admin/webhooks?${query}`, { cookie });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("Start again from the webhook log&#x27;s first page.");
  }
  expect((await call(`/admin/webhooks?older=1.${SHORT}`, { cookie })).status).toBe(200);
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

it("Retry now says what it did: nothing for an unknown or a delivered event; delivered, or not, for one it tried", async () => {
  await h.store.db.query("DELETE FROM waitlist_webhook_event");
  await createWebhookStore(h.store.db).resume();
  const receiver = await startWebhookReceiver("whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
  try {
    h.config = {
      ...h.config,
      webhook: { url: receiver.url, secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" },
    };
    await h.store.db.query(
      `INSERT INTO waitlist_webhook_event (id, type, state, attempts, last_status, delivered_at)
       VALUES ($1, 'webhook.test', 'delivered', 1, 200, now()), ($2, 'webhook.test', 'failed', 10, 500, NULL)`,
      [SHORT, LONG],
    );
    const cookie = await signInByLink();
    const notice = async (location: string | null) =>
      /<p class="notice" role="status">([^<]*)<\/p>/.exec(await (await call(location ?? "", { cookie })).text())?.[1];

    const unknown = await form("/admin/webhooks", { action: "retry", id: `msg_${"c".repeat(32)}` }, { cookie });
    expect(await notice(unknown.headers.get("location"))).toBe(
      "Nothing was done: there is no such event (a delivered event is deleted after 30 days).",
    );
    const delivered = await form("/admin/webhooks", { action: "retry", id: SHORT }, { cookie });
    expect(await notice(delivered.headers.get("location"))).toBe(
      "Nothing was done: that event was delivered already, and an event is never sent twice.",
    );
    expect(receiver.requests).toEqual([]);

    receiver.state.answer = () => 503;
    const missed = await form("/admin/webhooks", { action: "retry", id: LONG }, { cookie });
    expect(await notice(missed.headers.get("location"))).toBe(
      "The event was tried again now: the receiver did not acknowledge it (its row shows the answer). It is tried again on its schedule.",
    );
    receiver.state.answer = () => 200;
    await h.store.db.query("UPDATE waitlist_webhook_event SET next_attempt_at = now() WHERE id = $1", [LONG]);
    const ok = await form("/admin/webhooks", { action: "retry", id: LONG }, { cookie });
    expect(await notice(ok.headers.get("location"))).toBe("The event was tried again now: delivered.");
    expect(receiver.requests).toEqual([LONG, LONG]);
    const audited = await h.store.db.query<{ details: { event: string; queued: boolean } }>(
      "SELECT details FROM waitlist_audit WHERE action = 'webhook-retry' AND details->>'phase' = 'ended' ORDER BY id DESC LIMIT 4",
    );
    expect(audited.map((a) => a.details.queued)).toEqual([true, true, false, false]);
  } finally {
    await receiver.close();
  }
});

it("a failing receiver: red rows, filters, payloads, a banner on the first page; Deliver everything waiting now drains them once", async () => {
  await h.store.db.query("DELETE FROM waitlist_webhook_event");
  await h.store.db.query("DELETE FROM waitlist_webhook_drain");
  await createWebhookStore(h.store.db).resume();
  const secret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
  const receiver = await startWebhookReceiver(secret);
  try {
    h.config = { ...h.config, webhook: { url: receiver.url, secret } };
    // Twelve events from ten minutes ago, each tried once and answered 500, next try in an hour.
    await h.store.db.query(
      `INSERT INTO waitlist_webhook_event (id, type, occurred_at, state, attempts, last_status, last_answer, last_error,
         last_attempt_at, next_attempt_at)
       SELECT 'msg_' || lpad(to_hex(g), 32, '0'), 'webhook.test', now() - interval '10 minutes', 'pending', 1, 500,
         'Internal error', 'answered 500', now() - interval '9 minutes', now() + interval '1 hour'
       FROM generate_series(1, 12) AS g`,
    );
    const cookie = await signInByLink();
    const home = await (await call("/admin", { cookie })).text();
    expect(home).toContain(
      '<p class="error" role="alert">Webhook deliveries are failing: the oldest waiting event is 10 minutes old. 12 events waiting. Last answer: answered 500: Internal error. <a href="/admin/webhooks">Open the delivery log</a></p>',
    );
    const log = await (await call("/admin/webhooks?show=waiting", { cookie })).text();
    expect(log.match(/<tr class="failing">/g)).toHaveLength(12);
    expect(log.match(/<span class="badge tone-bad">Failing<\/span>/g)).toHaveLength(13);
    expect(log).toContain(
      '<p class="error" role="alert">Failing: the oldest waiting event is 10 minutes old. Last answer: answered 500: Internal error.</p>',
    );
    expect(log).toContain('<a href="/admin/webhooks" aria-current="page">Webhooks</a>');
    expect(log).toContain('<a href="/admin/webhooks?show=waiting" aria-current="page">Waiting (12)</a>');
    expect(log).toContain("&quot;message&quot;: &quot;A test event from the waitlist console.&quot;");
    expect(await (await call("/admin/webhooks?show=delivered", { cookie })).text()).toContain("No delivered events.");

    const drained = await form("/admin/webhooks", { action: "drain" }, { cookie });
    const location = drained.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/jobs\?kind=webhooks&id=\d+&done=started$/);
    // Every waiting event went once, and was acknowledged once.
    expect(receiver.requests).toHaveLength(12);
    expect(new Set(receiver.requests).size).toBe(12);
    expect(await createWebhookStore(h.store.db).counts()).toMatchObject({ pending: 0, delivered: 12 });
    const page = await (await call(location, { cookie })).text();
    // Named by what it does, in the Webhooks area, its state a badge.
    expect(page).toContain("<h1>Delivered 12 waiting webhook events</h1>");
    expect(page).toContain('<a href="/admin/webhooks" aria-current="page">Webhooks</a>');
    expect(page).toMatch(
      /<p role="status" class="job-state"><span class="badge tone-good">Finished<\/span> at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.<\/p>/,
    );
    expect(page).toContain("<div><dt>Delivered</dt><dd>12</dd></div>");
    expect(page).toContain('<a href="/admin/webhooks">Back to the webhook log</a>');
    expect(await (await call("/admin", { cookie })).text()).not.toContain("Webhook deliveries are");
  } finally {
    await receiver.close();
  }
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
    expect(html).toContain(
      '<span class="badge tone-good">On</span> Events go to <code>https://hooks.example.com:8443</code> (the rest of WEBHOOK_URL is not shown: it may hold a secret), signed with WEBHOOK_SECRET.',
    );
    // Read without the stylesheet, whose rules name input[type=password].
    const shown = html.replace(/<style>[\s\S]*<\/style>/, "");
    for (const secret of ["user", "pass", "PATHSECRET", "QUERYSECRET"]) expect(shown).not.toContain(secret);
  } finally {
    h.config = before;
  }
});
