/**
 * What the background function's tests share (tests/integration/jobs/), on the console harness's store and SMTP
 * server: an update to five people, its recipients' states, the start nonces, who was mailed since a point, waiting
 * for every run left detached, and a run held at the SMTP server while the test acts.
 */
import { createUpdateStore } from "../../src/server/updates";
import { h, pending } from "./console-harness";
import type { HeldStep } from "./smtp";

/** Until every run left detached has ended. */
export const settle = async () => {
  while (pending.size) await Promise.all(pending);
};

/** Whom the SMTP server received messages for since it held `from`, in order. */
export const sentTo = (from: number) => h.smtp.messages.slice(from).map((m) => m.to);

/** How many job starts have been used (each start's nonce, kept once). */
export const nonces = async () =>
  Number((await h.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM waitlist_job_nonce"))[0]?.n);

/** The list emptied, then `n` confirmed people who said yes to updates, `<prefix>1@example.com` on, a minute apart. */
export async function seedConfirmed(prefix: string, n: number): Promise<void> {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    `INSERT INTO waitlist (email, status, updates_consent, updates_consent_at, created_at)
     SELECT $1 || g || '@example.com', 'confirmed', true, now(), timestamptz '2026-01-01' + g * interval '1 minute'
     FROM generate_series(1, $2::int) AS g`,
    [prefix, n],
  );
}

/** An update from the CLI, not started, to five people: u1@example.com … u5@example.com. */
export async function newUpdate(): Promise<number> {
  await seedConfirmed("u", 5);
  return (await createUpdateStore(h.store.db, null).create("News", "Hello.", "CLI", null)).id;
}

/** An update's recipients as "state:count", by state. */
export const recipientStates = async (id: number) =>
  (
    await h.store.db.query<{ state: string; n: number }>(
      "SELECT state, count(*)::int AS n FROM waitlist_update_recipient WHERE update_id = $1 GROUP BY state ORDER BY state",
      [id],
    )
  ).map((r) => `${r.state}:${r.n}`);

/**
 * Starts `run` with the SMTP server holding its reply at `step` for `to`, does `act` once the run is waiting there,
 * then releases the reply: the run's answer, once it and every run it left have ended.
 */
export async function actWhileHeld<T>(
  [step, to]: [HeldStep, string],
  run: () => Promise<T>,
  act: () => Promise<unknown>,
): Promise<T> {
  const held = h.smtp.hold(step, to);
  const running = run();
  await held.reached;
  await act();
  held.release();
  const answer = await running;
  await settle();
  return answer;
}
