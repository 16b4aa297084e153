/**
 * The outbox's suites below the browser share their ground (webhooks.test.ts, webhooks-outbox.test.ts): for a
 * describe block, one backend with webhooks switched on and a real receiver on 127.0.0.1 that verifies every
 * request, a delivery run against them, and the clock of the schedule moved. One place, so both suites run the
 * outbox exactly as the scheduled function does.
 */
import { afterAll, beforeAll } from "vitest";
import type { Store } from "../../src/server/app/store";
import { createWebhookStore, deliverDue } from "../../src/server/webhooks";
import type { OpenedStore } from "./backends";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

/**
 * Opens the backend (where it is available here) and the receiver before the block's tests, webhooks on, and
 * closes both after them. `store` and `receiver` are read inside the tests, once they are open.
 */
export function useWebhookOutbox(available: boolean, open: () => Promise<OpenedStore>, secret: string) {
  let opened: OpenedStore | undefined;
  let started: WebhookReceiver | undefined;
  beforeAll(async () => {
    if (!available) return;
    started = await startWebhookReceiver(secret);
    opened = await open();
    await createWebhookStore(opened.store.db).setEnabled(true);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await started?.close();
  });
  const outbox = {
    get store(): Store {
      if (!opened) throw new Error("the backend is not open: read it inside a test that runs where it is available");
      return opened.store;
    },
    get receiver(): WebhookReceiver {
      if (!started) throw new Error("the receiver is not started: read it inside a test that runs");
      return started;
    },
    hooks: () => createWebhookStore(outbox.store.db),
    /** One delivery run, as worker "test", to the receiver; `extra` changes any of its parts. */
    deliver: (extra: Partial<Parameters<typeof deliverDue>[0]> = {}) =>
      deliverDue({
        store: outbox.hooks(),
        dataKeys: outbox.store.dataKeys,
        webhook: { url: outbox.receiver.url, secret },
        worker: "test",
        ...extra,
      }),
    /** Makes every waiting event due now: the schedule's clock, moved. */
    due: () =>
      outbox.store.db.query("UPDATE waitlist_webhook_event SET next_attempt_at = now() WHERE state = 'pending'"),
    /** No one on the list, no event in the outbox, nothing received. */
    clear: async () => {
      await outbox.store.db.query("DELETE FROM waitlist");
      await outbox.store.db.query("DELETE FROM waitlist_webhook_event");
      outbox.receiver.reset();
    },
  };
  return outbox;
}
