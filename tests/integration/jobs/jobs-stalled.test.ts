/**
 * A run that dies is found and started again within two minutes of its last beat (a minute's staleness, the
 * every-minute scheduler), a live run keeps its lease beating while a step waits, and a job whose lease expired
 * with no run alive says so on its page, on a fixed clock: "Stalled, resumes by …", never "Running".
 */
import { describe, expect, it, vi } from "vitest";
import { jobPage } from "../../../src/server/console/jobs/jobs";
import { keepAlive, resumableJobs } from "../../../src/server/jobs";
import { createUpdateStore } from "../../../src/server/updates";
import { ADMIN, h, openConsoleHarness } from "../../support/console-harness";

openConsoleHarness();

const DEAD = "background-update-0badf00d@elsewhere.invalid:4242";

async function newUpdate(): Promise<number> {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query("DELETE FROM waitlist_update");
  await h.store.db.query(
    `INSERT INTO waitlist (email, status, updates_consent, updates_consent_at)
     SELECT 'u' || g || '@example.com', 'confirmed', true, now() FROM generate_series(1, 5) AS g`,
  );
  const id = (await createUpdateStore(h.store.db, null).create("News", "Hello.", "CLI", null)).id;
  await h.store.db.query("UPDATE waitlist_update SET owner = $2 WHERE id = $1", [id, DEAD]);
  return id;
}
const beatAgo = (id: number, seconds: number) =>
  h.store.db.query("UPDATE waitlist_update SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1", [
    id,
    seconds,
  ]);

describe("the lease", () => {
  it("a run silent 59 s is alive; at 61 s it is dead, and the scheduler's next minute starts the job again", async () => {
    const id = await newUpdate();
    await beatAgo(id, 59);
    expect(await resumableJobs(h.store.db)).toEqual([]);
    await beatAgo(id, 61);
    expect(await resumableJobs(h.store.db)).toEqual([{ kind: "update", id }]);
  });

  it("a live run's timer beats while its step waits, so it never reads as dead", async () => {
    const id = await newUpdate();
    await beatAgo(id, 50);
    const stop = keepAlive(h.store.db, "update", id, DEAD, 10);
    await vi.waitFor(async () => {
      const [row] = await h.store.db.query<{ fresh: boolean }>(
        "SELECT heartbeat_at > now() - interval '5 seconds' AS fresh FROM waitlist_update WHERE id = $1",
        [id],
      );
      expect(row?.fresh).toBe(true);
    });
    await stop();
    await beatAgo(id, 61);
    expect(await resumableJobs(h.store.db)).toEqual([{ kind: "update", id }]);
  });
});

describe("a stalled job's page, on a fixed clock", () => {
  /** Two of five sent, started at 10:00:00, its last beat at 10:01:30, its run on another host killed. */
  async function stalled(): Promise<number> {
    const id = await newUpdate();
    await h.store.db.query(
      `UPDATE waitlist_update_recipient SET state = 'sent', done_at = now()
       WHERE update_id = $1 AND waitlist_id IN (SELECT id FROM waitlist WHERE email IN ('u1@example.com', 'u2@example.com'))`,
      [id],
    );
    await h.store.db.query(
      `UPDATE waitlist_update SET sent = 2, created_at = '2025-03-01T10:00:00Z', heartbeat_at = '2025-03-01T10:01:30Z'
       WHERE id = $1`,
      [id],
    );
    return id;
  }
  const at = async (id: number, iso: string) => {
    const visit = {
      store: h.store,
      config: h.config,
      admin: ADMIN,
      origin: "http://localhost",
      now: () => Date.parse(iso),
    };
    return (await jobPage(visit, new URLSearchParams({ kind: "update", id: String(id) }))).text();
  };
  const status = (page: string) => /<p role="status" class="job-state">(.*?)<\/p>/.exec(page)?.[1];
  const finish = (page: string) => /<dt>Estimated finish<\/dt><dd>([^<]*)<\/dd>/.exec(page)?.[1];

  it("is Running within a minute of its last beat, then Stalled, resuming by the scheduler's next minute", async () => {
    const id = await stalled();
    const running = await at(id, "2025-03-01T10:02:00Z");
    expect(status(running)).toBe('<span class="badge tone-live">Running</span>');
    expect(finish(running)).toBe("2025-03-01 10:05 UTC");

    const justStalled = await at(id, "2025-03-01T10:02:31Z");
    expect(status(justStalled)).toBe(
      '<span class="badge tone-warn">Stalled</span>, resumes by 2025-03-01 10:04 UTC: its last run stopped answering at 2025-03-01 10:01 UTC.',
    );
    const later = await at(id, "2025-03-01T10:03:20Z");
    expect(status(later)).toBe(
      '<span class="badge tone-warn">Stalled</span>, resumes by 2025-03-01 10:05 UTC: its last run stopped answering at 2025-03-01 10:01 UTC.',
    );
    // Three left at two in 90 s: 135 s from when it resumes, never a moment already past.
    expect(finish(later)).toBe("2025-03-01 10:07 UTC");
    expect(later).toContain('<meta http-equiv="refresh" content="3"/>');
  });
});
