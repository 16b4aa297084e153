/**
 * Webhooks below the browser, with a real receiver on 127.0.0.1 that verifies every request with the
 * `standardwebhooks` package: each kind of change becomes one event written in the change's own statement, a
 * receiver failing twice then answering 200 gets the same webhook-id each time and acknowledges it once, two
 * workers never send one event twice, a slow receiver times out and is tried again, a 410 pauses deliveries, and an
 * event written before its process died still goes out. On PGlite, PostgreSQL and Neon's HTTP protocol.
 */
import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { parseDataKey } from "../../../src/server/data-key";
import { backends } from "../../support/backends";
import { useWebhookOutbox } from "../../support/webhooks-harness";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";

describe.each(backends("webhooks"))("on %s", (_name, available, open) => {
  const outbox = useWebhookOutbox(available, open, SECRET);
  const { hooks, deliver, due } = outbox;
  const reset = async () => {
    await outbox.clear();
    await hooks().resume();
    // Longer than the 1 KB of an answer the outbox keeps.
    outbox.receiver.state.body = () => "x".repeat(2000);
  };

  describe.skipIf(!available)("events", () => {
    it("each change is one event, verified by the receiver's own library, with the person unsealed", async () => {
      await reset();
      await outbox.store.add({ name: "Ada", email: "ada@example.com", message: null }, "pending");
      await outbox.store.db.query("UPDATE waitlist SET status = 'confirmed' WHERE email = 'ada@example.com'");
      await outbox.store.db.query("UPDATE waitlist SET updates_consent = true WHERE email = 'ada@example.com'");
      await outbox.store.db.query("UPDATE waitlist SET updates_consent = false WHERE email = 'ada@example.com'");
      await outbox.store.db.query("UPDATE waitlist SET status = 'invited' WHERE email = 'ada@example.com'");
      await outbox.store.db.query("UPDATE waitlist SET status = 'joined' WHERE email = 'ada@example.com'");
      await outbox.store.erase("ada@example.com");
      expect(await deliver()).toEqual({ delivered: 6, retrying: 0, failed: 0, gone: false });
      expect(outbox.receiver.received.map((r) => r.type)).toEqual([
        "waitlist.signed_up",
        "waitlist.confirmed",
        "waitlist.unsubscribed",
        "waitlist.invited",
        "waitlist.joined",
        "waitlist.removed",
      ]);
      expect(outbox.receiver.state.bad).toBe(0);
      const [first] = outbox.receiver.received;
      expect(first?.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(first?.body).toMatchObject({
        type: "waitlist.signed_up",
        data: { email: "ada@example.com", name: "Ada", status: "pending", source: null, referrals: 0 },
      });
      expect(String(first?.body["timestamp"])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // Delivered: the person's snapshot is gone from the outbox.
      const kept = await outbox.store.db.query<{ person: unknown }>("SELECT person FROM waitlist_webhook_event");
      expect(kept.every((row) => row.person === null)).toBe(true);
    });

    it("a receiver failing twice then answering 200: the same webhook-id each time, acknowledged once", async () => {
      await reset();
      outbox.receiver.state.answer = (_id, tries) => (tries <= 2 ? 500 : 200);
      await outbox.store.add({ name: null, email: "bob@example.com", message: null });
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
      expect(new Set(outbox.receiver.received.map((r) => r.id)).size).toBe(1);
      expect(outbox.receiver.received.map((r) => r.answered)).toEqual([500, 500, 200]);
      await due();
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0, gone: false });
      expect(outbox.receiver.acknowledged()).toHaveLength(1);
    });

    it("two workers at once never send one event twice", async () => {
      await reset();
      for (let i = 0; i < 20; i++) await outbox.store.add({ name: null, email: `p${i}@example.com`, message: null });
      const [a, b] = await Promise.all([deliver({ worker: "worker-a" }), deliver({ worker: "worker-b" })]);
      expect((a?.delivered ?? 0) + (b?.delivered ?? 0)).toBe(20);
      const ids = outbox.receiver.received.map((r) => r.id);
      expect(new Set(ids).size).toBe(20);
      expect(ids).toHaveLength(20);
    });

    it("a slow receiver times out and is tried again; a 410 pauses deliveries until re-enabled", async () => {
      await reset();
      outbox.receiver.state.answer = (_id, tries) => (tries === 1 ? "hang" : 200);
      await outbox.store.add({ name: null, email: "slow@example.com", message: null });
      expect(await deliver({ timeoutMs: 200 })).toEqual({ delivered: 0, retrying: 1, failed: 0, gone: false });
      expect((await hooks().recent(1))[0]).toMatchObject({ lastError: "no answer within 0.2 s", attempts: 1 });
      await due();
      outbox.receiver.state.answer = () => 410;
      expect(await deliver()).toMatchObject({ gone: true });
      expect((await hooks().state()).pausedReason).toBe("The receiver answered 410 Gone.");
      await outbox.store.add({ name: null, email: "next@example.com", message: null });
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0, gone: false });
      outbox.receiver.state.answer = () => 200;
      await hooks().resume();
      expect(await deliver()).toMatchObject({ delivered: 2 });
    });

    it("an event written before its process died still goes out: it is in the change's own statement", async () => {
      await reset();
      // The sign-up's statement wrote its event; nothing delivered it (the process died at once).
      await outbox.store.add({ name: null, email: "crash@example.com", message: null });
      const [row] = await outbox.store.db.query<{ type: string; state: string }>(
        "SELECT type, state FROM waitlist_webhook_event",
      );
      expect(row).toEqual({ type: "waitlist.signed_up", state: "pending" });
      expect(await deliver({ worker: "next-process" })).toMatchObject({ delivered: 1 });
      expect(outbox.receiver.acknowledged().map((r) => r.type)).toEqual(["waitlist.signed_up"]);
    });

    it("a sealed row's event reaches the receiver opened with DATA_KEY; the outbox never held it in clear", async () => {
      await reset();
      const keys = { current: parseDataKey(Buffer.alloc(32, 7).toString("base64")), previous: null };
      const sealed = createStore(outbox.store.db, keys);
      await sealed.add({ name: "Grace", email: "grace@example.com", message: null });
      const [row] = await outbox.store.db.query<{ person: unknown }>("SELECT person FROM waitlist_webhook_event");
      expect(JSON.stringify(row?.person)).not.toMatch(/grace/i);
      await deliver({ dataKeys: keys, worker: "w" });
      expect(outbox.receiver.acknowledged()[0]?.body).toMatchObject({
        data: { email: "grace@example.com", name: "Grace" },
      });
    });

    it("webhooks off: changes record nothing", async () => {
      await reset();
      await hooks().setEnabled(false);
      await outbox.store.add({ name: null, email: "quiet@example.com", message: null });
      expect(await outbox.store.db.query("SELECT id FROM waitlist_webhook_event")).toEqual([]);
      await hooks().setEnabled(true);
    });
  });
});
