/**
 * Webhooks below the browser, with a real receiver on 127.0.0.1 that verifies every request with the
 * `standardwebhooks` package: each kind of change becomes one event written in the change's own statement, a
 * receiver failing twice then answering 200 gets the same webhook-id each time and acknowledges it once, two
 * workers never send one event twice, a slow receiver times out and is tried again, a 410 pauses deliveries, and an
 * event written before its process died still goes out. On PGlite, PostgreSQL and Neon's HTTP protocol.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../src/server/app/store";
import { parseDataKey } from "../../../src/server/data-key";
import { createWebhookStore, deliverDue } from "../../../src/server/webhooks";
import { backends, type OpenedStore } from "../../support/backends";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/webhook-receiver";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";

describe.each(backends("webhooks"))("on %s", (_name, available, open) => {
  let opened: OpenedStore | undefined;
  let store: Store;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    if (!available) return;
    receiver = await startWebhookReceiver(SECRET);
    opened = await open();
    store = opened.store;
    await createWebhookStore(store.db).setEnabled(true);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await receiver?.close();
  });

  const hooks = () => createWebhookStore(store.db);
  const deliver = (worker = "test", timeoutMs?: number) =>
    deliverDue({
      store: hooks(),
      dataKeys: store.dataKeys,
      webhook: { url: receiver.url, secret: SECRET },
      worker,
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  /** Makes every waiting event due now: the schedule's clock, moved. */
  const due = () => store.db.query("UPDATE waitlist_webhook_event SET next_attempt_at = now() WHERE state = 'pending'");
  const reset = async () => {
    await store.db.query("DELETE FROM waitlist");
    await store.db.query("DELETE FROM waitlist_webhook_event");
    await hooks().resume();
    receiver.reset();
    // Longer than the 1 KB of an answer the outbox keeps.
    receiver.state.body = () => "x".repeat(2000);
  };

  describe.skipIf(!available)("events", () => {
    it("each change is one event, verified by the receiver's own library, with the person unsealed", async () => {
      await reset();
      await store.add({ name: "Ada", email: "ada@example.com", message: null }, "pending");
      await store.db.query("UPDATE waitlist SET status = 'confirmed' WHERE email = 'ada@example.com'");
      await store.db.query("UPDATE waitlist SET updates_consent = true WHERE email = 'ada@example.com'");
      await store.db.query("UPDATE waitlist SET updates_consent = false WHERE email = 'ada@example.com'");
      await store.db.query("UPDATE waitlist SET status = 'invited' WHERE email = 'ada@example.com'");
      await store.db.query("UPDATE waitlist SET status = 'joined' WHERE email = 'ada@example.com'");
      await store.erase("ada@example.com");
      expect(await deliver()).toEqual({ delivered: 6, retrying: 0, failed: 0, gone: false });
      expect(receiver.received.map((r) => r.type)).toEqual([
        "waitlist.signed_up",
        "waitlist.confirmed",
        "waitlist.unsubscribed",
        "waitlist.invited",
        "waitlist.joined",
        "waitlist.removed",
      ]);
      expect(receiver.state.bad).toBe(0);
      const [first] = receiver.received;
      expect(first?.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(first?.body).toMatchObject({
        type: "waitlist.signed_up",
        data: { email: "ada@example.com", name: "Ada", status: "pending", source: null, referrals: 0 },
      });
      expect(String(first?.body["timestamp"])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // Delivered: the person's snapshot is gone from the outbox.
      const kept = await store.db.query<{ person: unknown }>("SELECT person FROM waitlist_webhook_event");
      expect(kept.every((row) => row.person === null)).toBe(true);
    });

    it("a receiver failing twice then answering 200: the same webhook-id each time, acknowledged once", async () => {
      await reset();
      receiver.state.answer = (_id, tries) => (tries <= 2 ? 500 : 200);
      await store.add({ name: null, email: "bob@example.com", message: null });
      expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0, gone: false });
      const [waiting] = await hooks().recent(1);
      expect(waiting).toMatchObject({ state: "pending", attempts: 1, lastStatus: 500 });
      expect((waiting?.lastAnswer ?? "").length).toBe(1024);
      // Not due yet: the next try waits 5 seconds.
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0, gone: false });
      await due();
      await deliver();
      await due();
      expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0, gone: false });
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
      expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 200]);
      await due();
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0, gone: false });
      expect(receiver.acknowledged()).toHaveLength(1);
    });

    it("two workers at once never send one event twice", async () => {
      await reset();
      for (let i = 0; i < 20; i++) await store.add({ name: null, email: `p${i}@example.com`, message: null });
      const [a, b] = await Promise.all([deliver("worker-a"), deliver("worker-b")]);
      expect((a?.delivered ?? 0) + (b?.delivered ?? 0)).toBe(20);
      const ids = receiver.received.map((r) => r.id);
      expect(new Set(ids).size).toBe(20);
      expect(ids).toHaveLength(20);
    });

    it("a slow receiver times out and is tried again; a 410 pauses deliveries until re-enabled", async () => {
      await reset();
      receiver.state.answer = (_id, tries) => (tries === 1 ? "hang" : 200);
      await store.add({ name: null, email: "slow@example.com", message: null });
      expect(await deliver("test", 200)).toEqual({ delivered: 0, retrying: 1, failed: 0, gone: false });
      expect((await hooks().recent(1))[0]).toMatchObject({ lastError: "no answer within 0.2 s", attempts: 1 });
      await due();
      receiver.state.answer = () => 410;
      expect(await deliver()).toMatchObject({ gone: true });
      expect((await hooks().state()).pausedReason).toBe("The receiver answered 410 Gone.");
      await store.add({ name: null, email: "next@example.com", message: null });
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0, gone: false });
      receiver.state.answer = () => 200;
      await hooks().resume();
      expect(await deliver()).toMatchObject({ delivered: 2 });
    });

    it("an event written before its process died still goes out: it is in the change's own statement", async () => {
      await reset();
      // The sign-up's statement wrote its event; nothing delivered it (the process died at once).
      await store.add({ name: null, email: "crash@example.com", message: null });
      const [row] = await store.db.query<{ type: string; state: string }>(
        "SELECT type, state FROM waitlist_webhook_event",
      );
      expect(row).toEqual({ type: "waitlist.signed_up", state: "pending" });
      expect(await deliver("next-process")).toMatchObject({ delivered: 1 });
      expect(receiver.acknowledged().map((r) => r.type)).toEqual(["waitlist.signed_up"]);
    });

    it("a sealed row's event reaches the receiver opened with DATA_KEY; the outbox never held it in clear", async () => {
      await reset();
      const keys = { current: parseDataKey(Buffer.alloc(32, 7).toString("base64")), previous: null };
      const sealed = createStore(store.db, keys);
      await sealed.add({ name: "Grace", email: "grace@example.com", message: null });
      const [row] = await store.db.query<{ person: unknown }>("SELECT person FROM waitlist_webhook_event");
      expect(JSON.stringify(row?.person)).not.toMatch(/grace/i);
      await deliverDue({ store: hooks(), dataKeys: keys, webhook: { url: receiver.url, secret: SECRET }, worker: "w" });
      expect(receiver.acknowledged()[0]?.body).toMatchObject({ data: { email: "grace@example.com", name: "Grace" } });
    });

    it("webhooks off: changes record nothing", async () => {
      await reset();
      await hooks().setEnabled(false);
      await store.add({ name: null, email: "quiet@example.com", message: null });
      expect(await store.db.query("SELECT id FROM waitlist_webhook_event")).toEqual([]);
      await hooks().setEnabled(true);
    });
  });
});
