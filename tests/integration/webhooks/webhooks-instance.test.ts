/**
 * The process's store on a cold instance with WEBHOOK_URL: it is handed out only once the database records events,
 * so the first change after webhooks are switched on cannot commit before its event would be written.
 */
import { expect, it, vi } from "vitest";
import scheduledDelivery from "../../../netlify/functions/webhooks-deliver";
import { allowEmbeddedDatabase, closeStore, getStore } from "../../../src/server/app/instance";
import { resetConfig } from "../../../src/server/config";
import { openPgliteDb } from "../../../src/server/db/pglite";
import type { Db } from "../../../src/server/db/types";
import { migratedDataDir } from "../../support/helpers";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";

/**
 * A cold instance's environment: the embedded database in a fresh folder named from `prefix` (no DATABASE_URL or
 * NETLIFY_DB_URL), and webhooks on. tests/support/reset-after-file.ts restores the environment.
 */
function coldInstanceWithWebhooks(prefix: string) {
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("NETLIFY_DB_URL", "");
  vi.stubEnv("DATA_DIR", migratedDataDir(prefix));
  vi.stubEnv("WEBHOOK_URL", "http://127.0.0.1:9/hooks");
  vi.stubEnv("WEBHOOK_SECRET", SECRET);
  resetConfig();
}

it("the first change on a cold instance with webhooks on is recorded for the receiver", async () => {
  coldInstanceWithWebhooks("webhooks-instance-");
  // Switching the outbox on reaches the database a turn of the event loop late, as over a network: a store handed
  // out before the switch lands would commit this change with nothing recorded. (tests/support/reset-after-file.ts
  // closes the store and restores the environment.)
  allowEmbeddedDatabase(async (dataDir): Promise<Db> => {
    const db = await openPgliteDb(dataDir);
    return {
      kind: db.kind,
      close: () => db.close(),
      query: async <Row extends Record<string, unknown>>(sql: string, params?: unknown[]) => {
        if (sql.startsWith("UPDATE waitlist_webhook_state")) await new Promise((resolve) => setImmediate(resolve));
        return db.query<Row>(sql, params);
      },
    };
  });
  const store = await getStore();
  await store.add({ name: null, email: "first@example.com", message: null });
  expect(await store.db.query("SELECT type FROM waitlist_webhook_event")).toEqual([{ type: "waitlist.signed_up" }]);
  // Once said, the same store at once, with no query more.
  expect(await getStore()).toBe(store);
});

it("a process without WEBHOOK_URL never switches recording off for one that has it", async () => {
  await closeStore();
  coldInstanceWithWebhooks("webhooks-second-");
  allowEmbeddedDatabase(openPgliteDb);
  const store = await getStore();
  // Another process on the same database, without the variable (a local npm start pointed at the shared
  // DATABASE_URL), runs its every-minute scheduled delivery.
  vi.stubEnv("WEBHOOK_URL", "");
  vi.stubEnv("WEBHOOK_SECRET", "");
  resetConfig();
  expect((await scheduledDelivery()).status).toBe(204);
  // The next change, wherever it is made, is still recorded for the deployment that delivers them.
  await store.add({ name: null, email: "second@example.com", message: null });
  expect(await store.db.query("SELECT type FROM waitlist_webhook_event")).toEqual([{ type: "waitlist.signed_up" }]);
});
