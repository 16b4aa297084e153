/**
 * Durability of the embedded database: under a running load of sign-ups, the server is killed with SIGKILL,
 * restarted on the same folder, and every sign-up that got a success answer must be there.
 */
import { expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server-process";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../support/helpers";

/** The kill comes once this many sign-ups have been acknowledged, while the clients keep sending. */
const ACKNOWLEDGED_BEFORE_KILL = 500;
const CLIENTS = 8;

it("keeps every acknowledged sign-up across a SIGKILL", { timeout: 180_000 }, async () => {
  const first = await startServer({}, migratedDataDir("durability-"));
  const acknowledged = new Set<string>();
  let sent = 0;
  let failed = 0;
  let killed = false;
  let reachedTarget: () => void = () => {};
  const target = new Promise<void>((resolve) => (reachedTarget = resolve));

  const client = async (id: number) => {
    for (let i = 0; !killed; i++) {
      const email = `load${id}.${i}@example.com`;
      sent++;
      try {
        const res = await fetch(`${first.url}/api/waitlist`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email, termsAccepted: true, why: `attempt ${i}` }),
        });
        if (res.status === 201) acknowledged.add(email);
        else failed++;
        if (acknowledged.size >= ACKNOWLEDGED_BEFORE_KILL) reachedTarget();
      } catch {
        failed++; // the connection died with the server: not acknowledged
      }
    }
  };

  const load = Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id)));
  await target;
  process.kill(first.pid, "SIGKILL");
  killed = true;
  await load;
  await first.stop();
  const ackedBeforeKill = acknowledged.size;

  // Restart on the same folder: the dead owner's lock is taken over and Postgres recovers.
  const second = await startServer({}, first.dataDir);
  const after = await fetch(`${second.url}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "after.restart@example.com", termsAccepted: true }),
  });
  expect(after.status).toBe(201);
  await second.stop();

  const db = await openPgliteDb(first.dataDir);
  const rows = await db.query<{ email: string }>("SELECT email FROM waitlist");
  await db.close();
  const found = new Set(rows.map((row) => row.email));
  const missing = [...acknowledged].filter((email) => !found.has(email));

  console.log(
    `durability: ${sent} sent, ${ackedBeforeKill} acknowledged before SIGKILL, ${failed} failed or cut off; ` +
      `after restart ${rows.length - 1} load rows found, ${missing.length} acknowledged missing`,
  );
  expect(ackedBeforeKill).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
  expect(missing).toEqual([]);
});
