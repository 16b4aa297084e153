/**
 * The outbox under what a receiver, a database or a run's clock can do to it: an answer Postgres refuses (U+0000)
 * or longer than 1 KB in many-byte characters, a record that fails after the receiver acknowledged, a run that must
 * end by its deadline, a process without the key to a sealed snapshot (the store, and `waitlist webhooks deliver`),
 * and what the outbox still keeps of a person after OUTBOX_DAYS. On PGlite, PostgreSQL and Neon's HTTP protocol.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { parseDataKey } from "../../../src/server/data-key";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { createWebhookStore, type WebhookStore } from "../../../src/server/webhooks";
import { backends } from "../../support/backends";
import { migratedDataDir } from "../../support/helpers";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/webhook-receiver";
import { useWebhookOutbox } from "../../support/webhooks-harness";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";
const KEY = Buffer.alloc(32, 7).toString("base64");

describe.each(backends("webhooks_outbox"))("on %s", (_name, available, open) => {
  const outbox = useWebhookOutbox(available, open, SECRET);
  const { hooks, deliver, due, clear: reset } = outbox;
  const signUp = (email: string) => outbox.store.add({ name: null, email, message: null });

  describe.skipIf(!available)("answers and records", () => {
    it("an answer with U+0000 is recorded without it: acknowledged once, and never sent again", async () => {
      await reset();
      outbox.receiver.state.answer = () => 200;
      outbox.receiver.state.body = () => Buffer.from("ok\u0000done");
      await signUp("nul@example.com");
      expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0, gone: false });
      expect(await hooks().recent(1)).toMatchObject([{ state: "delivered", lastStatus: 200, lastAnswer: "okdone" }]);
      await outbox.store.db.query("UPDATE waitlist_webhook_event SET next_attempt_at = now()");
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0, gone: false });
      expect(outbox.receiver.requests).toHaveLength(1);

      outbox.receiver.state.answer = () => 500;
      outbox.receiver.state.body = () => Buffer.from("\u0000oops\u0000");
      await signUp("nul2@example.com");
      expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0, gone: false });
      expect(await hooks().recent(1)).toMatchObject([{ state: "pending", lastStatus: 500, lastAnswer: "oops" }]);
    });

    it("an answer over 1 KB in three-byte characters is cut between characters: 1023 bytes, no U+FFFD", async () => {
      await reset();
      outbox.receiver.state.answer = () => 500;
      outbox.receiver.state.body = () => Buffer.from("€".repeat(400));
      await signUp("euro@example.com");
      await deliver();
      const [row] = await hooks().recent(1);
      expect(row?.lastAnswer).toBe("€".repeat(341));
      expect(Buffer.byteLength(row?.lastAnswer ?? "")).toBe(1023);
    });

    it("a record that fails once after a 2xx is tried again, the POST never", async () => {
      await reset();
      await signUp("flaky@example.com");
      let calls = 0;
      const real = hooks();
      const flaky: WebhookStore = {
        ...real,
        delivered: async (...args) => {
          calls++;
          if (calls === 1) throw new Error("connection reset");
          return real.delivered(...args);
        },
      };
      expect(await deliver({ store: flaky })).toEqual({ delivered: 1, retrying: 0, failed: 0, gone: false });
      expect(calls).toBe(2);
      expect(outbox.receiver.requests).toHaveLength(1);
      expect(await hooks().recent(1)).toMatchObject([{ state: "delivered", attempts: 1 }]);
    });

    it("a record the database keeps refusing: the run stops, the event keeps its lease and is not sent again", async () => {
      await reset();
      await signUp("down1@example.com");
      await signUp("down2@example.com");
      const down: WebhookStore = {
        ...hooks(),
        delivered: async () => {
          throw new Error("the database went away");
        },
      };
      expect(await deliver({ store: down })).toEqual({ delivered: 1, retrying: 0, failed: 0, gone: false });
      // One POST: the run claimed nothing more once the record failed.
      expect(outbox.receiver.requests).toHaveLength(1);
      // Another worker, at once: the acknowledged event is still leased, so only the other one goes.
      expect(await deliver({ worker: "other" })).toEqual({ delivered: 1, retrying: 0, failed: 0, gone: false });
      expect(outbox.receiver.requests).toHaveLength(2);
      expect(new Set(outbox.receiver.requests).size).toBe(2);
      const [leased] = await outbox.store.db.query<{ lease_owner: string; state: string }>(
        "SELECT lease_owner, state FROM waitlist_webhook_event WHERE id = $1",
        [outbox.receiver.requests[0]],
      );
      expect(leased).toEqual({ lease_owner: "test", state: "pending" });
    });
  });

  describe.skipIf(!available)("a run's deadline", () => {
    it("starts an attempt only while its whole timeout and the margin fit before the deadline", async () => {
      await reset();
      outbox.receiver.state.answer = () => "hang";
      for (let i = 0; i < 6; i++) await signUp(`hang${i}@example.com`);
      // The run's own clock: each attempt takes its whole timeout (200 ms) as far as the run can tell.
      let clock = 0;
      const report = await deliver({
        timeoutMs: 200,
        now: () => clock,
        deadline: 3000,
        fetch: (url, init) => {
          clock += 200;
          return fetch(url, init);
        },
      });
      // Starts at 0, 200, 400 and 600 (each + 200 ms + the 2 s margin < 3000); at 800 the next would not fit.
      expect(report).toEqual({ delivered: 0, retrying: 4, failed: 0, gone: false });
      expect(outbox.receiver.requests).toHaveLength(4);
      expect(clock).toBe(800);
    });
  });

  describe.skipIf(!available)("a sealed snapshot without its key", () => {
    it("is given back unsent, its try not counted, and goes from a process that holds the key", async () => {
      await reset();
      const keys = { current: parseDataKey(KEY), previous: null };
      await createStore(outbox.store.db, keys).add({ name: "Grace", email: "grace@example.com", message: null });
      expect(await deliver({ dataKeys: null })).toEqual({ delivered: 0, retrying: 1, failed: 0, gone: false });
      expect(outbox.receiver.requests).toEqual([]);
      const id = parseDataKey(KEY).id;
      const [row] = await outbox.store.db.query<{ attempts: number; later: boolean; last_error: string }>(
        `SELECT attempts, next_attempt_at > now() + interval '290 seconds' AS later, last_error
         FROM waitlist_webhook_event`,
      );
      expect(row).toEqual({
        attempts: 0,
        later: true,
        last_error: `unreadable: A row is sealed under key ${id}, which DATA_KEY is not.`,
      });
      await due();
      expect(await deliver({ dataKeys: keys })).toEqual({ delivered: 1, retrying: 0, failed: 0, gone: false });
      expect(await hooks().recent(1)).toMatchObject([{ state: "delivered", attempts: 1 }]);
    });
  });

  describe.skipIf(!available)("retention", () => {
    it("after OUTBOX_DAYS no event keeps its person: a waiting one fails, one in an attempt is left to it", async () => {
      await reset();
      const person = JSON.stringify({ email: "kept@example.com", status: "pending" });
      await outbox.store.db.query(
        `INSERT INTO waitlist_webhook_event (id, type, occurred_at, person, state, delivered_at, lease_until, last_error)
         VALUES ('msg_old_pending', 'waitlist.signed_up', now() - interval '31 days', $1::jsonb, 'pending', NULL, NULL, '410 Gone: deliveries paused'),
           ('msg_old_failed', 'waitlist.signed_up', now() - interval '31 days', $1::jsonb, 'failed', NULL, NULL, 'answered 500'),
           ('msg_old_leased', 'waitlist.signed_up', now() - interval '31 days', $1::jsonb, 'pending', NULL, now() + interval '1 minute', NULL),
           ('msg_old_delivered', 'waitlist.signed_up', now() - interval '32 days', NULL, 'delivered', now() - interval '31 days', NULL, NULL),
           ('msg_new_pending', 'waitlist.signed_up', now() - interval '29 days', $1::jsonb, 'pending', NULL, NULL, NULL)`,
        [person],
      );
      expect(await hooks().retain(30)).toEqual({ deleted: 1, forgotten: 2 });
      const rows = await outbox.store.db.query<{ id: string; state: string; kept: boolean; last_error: string | null }>(
        "SELECT id, state, person IS NOT NULL AS kept, last_error FROM waitlist_webhook_event ORDER BY id",
      );
      expect(rows).toEqual([
        { id: "msg_new_pending", state: "pending", kept: true, last_error: null },
        { id: "msg_old_failed", state: "failed", kept: false, last_error: "answered 500" },
        { id: "msg_old_leased", state: "pending", kept: true, last_error: null },
        {
          id: "msg_old_pending",
          state: "failed",
          kept: false,
          last_error: "not delivered within 30 days: its person is no longer kept",
        },
      ]);
    });
  });
});

describe("waitlist webhooks deliver, without the key to a waiting event", () => {
  const run = promisify(execFile);
  let dataDir: string;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET);
    dataDir = migratedDataDir("webhooks-cli-");
    const store = createStore(await openPgliteDb(dataDir), { current: parseDataKey(KEY), previous: null });
    await createWebhookStore(store.db).setEnabled(true);
    // Sealed, then removed: the list holds no sealed row (the store's own key check passes), the outbox does.
    await store.add({ name: "Grace", email: "grace@example.com", message: null });
    await store.erase("grace@example.com");
    await store.close();
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
  });

  it("refuses in one line before any claim: no try spent, nothing sent", async () => {
    const result = await run(
      "node_modules/.bin/node",
      ["--import", "tsx", "scripts/waitlist.ts", "webhooks", "deliver"],
      {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          NETLIFY_DB_URL: "",
          DATA_KEY: "",
          WEBHOOK_URL: receiver.url,
          WEBHOOK_SECRET: SECRET,
        },
      },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    const id = parseDataKey(KEY).id;
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `waitlist: waiting webhook events are sealed under key ${id}, but DATA_KEY is not set: set the key they were sealed with. Nothing was sent.\n`,
    });
    expect(receiver.requests).toEqual([]);
    const store = createStore(await openPgliteDb(dataDir));
    try {
      expect(
        await store.db.query("SELECT type, attempts, state FROM waitlist_webhook_event ORDER BY occurred_at"),
      ).toEqual([
        { type: "waitlist.signed_up", attempts: 0, state: "pending" },
        { type: "waitlist.removed", attempts: 0, state: "pending" },
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
