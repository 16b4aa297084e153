/**
 * The one lease every long job runs under, whatever its kind:
 * - a job is a row of its kind's table with `owner`, `heartbeat_at`, `finished_at`, `paused_reason` and
 *   `cancelled_at` (migrations 0003, 0012, 0015): the database is the one record of who runs it;
 * - take: one UPDATE that only one run can win, from no owner (NO_OWNER) or a dead one (owner.ts: silent past
 *   JOB_STALE_SECONDS, or a process of this host that has ended);
 * - beat: each step of a run refreshes the heartbeat and learns in the same statement whether it still holds the
 *   job (a pause or a cancellation takes it away: the run stops at its next step); a timer beats too (keepAlive);
 * - release: the run ends its hold, finishing the job when nothing is left, else leaving it with no owner.
 * A paused or cancelled job is taken by nobody until it is resumed.
 */
import type { Db } from "../db/types";
import { isOwnerDead, NO_OWNER } from "./owner";

/**
 * A live run beats every JOB_BEAT_MS on a timer (keepAlive), whatever its step is waiting for (an SMTP server's
 * answer may take 40 s and more), as well as at every step: a minute of silence is four beats missed, so the run is
 * dead. With the every-minute scheduler, a dead run is started again at most two minutes after its last beat.
 */
export const JOB_STALE_SECONDS = 60;
/** How often a run's timer beats (keepAlive): a quarter of the staleness, so one slow query does not read as death. */
export const JOB_BEAT_MS = 15_000;

export { NO_OWNER };

/** Each kind of long job and its table: the only names ever put into the SQL below. */
export const JOB_TABLES = {
  update: "waitlist_update",
  wave: "waitlist_invite_wave",
  webhooks: "waitlist_webhook_drain",
  import: "waitlist_import",
} as const;

export type JobKind = keyof typeof JOB_TABLES;
export const JOB_KINDS = Object.keys(JOB_TABLES) as JobKind[];
export const isJobKind = (value: string): value is JobKind => Object.hasOwn(JOB_TABLES, value);

/** What the lease says about a job right now. */
export interface Lease {
  owner: string | null;
  /** Silent past JOB_STALE_SECONDS. */
  stale: boolean;
  finished: boolean;
  /** Why it is paused (the operator's words, or an automatic rule's); null: not paused. */
  pausedReason: string | null;
  cancelled: boolean;
}

/** A job nobody may take: done, cancelled, or paused. */
const CLOSED = "finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL";

const statements = (kind: JobKind) => {
  const table = JOB_TABLES[kind];
  return {
    lease: `SELECT owner, coalesce(heartbeat_at < now() - make_interval(secs => ${JOB_STALE_SECONDS}), false) AS stale,
        finished_at IS NOT NULL AS finished, paused_reason, cancelled_at IS NOT NULL AS cancelled
      FROM ${table} WHERE id = $1`,
    take: `UPDATE ${table} SET owner = $3, heartbeat_at = now()
      WHERE id = $1 AND owner IS NOT DISTINCT FROM $2 AND NOT (${CLOSED}) RETURNING id`,
    beat: `UPDATE ${table} SET heartbeat_at = now() WHERE id = $1 AND owner = $2 AND NOT (${CLOSED}) RETURNING id`,
    release: `UPDATE ${table} SET owner = $3, heartbeat_at = now(),
        finished_at = CASE WHEN $4::boolean THEN now() ELSE finished_at END
      WHERE id = $1 AND owner = $2 RETURNING id`,
    pause: `UPDATE ${table} SET paused_reason = $2, owner = '${NO_OWNER}', heartbeat_at = now()
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL RETURNING id`,
    resume: `UPDATE ${table} SET paused_reason = NULL, owner = '${NO_OWNER}', heartbeat_at = now() - make_interval(secs => 3600)
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NOT NULL RETURNING id`,
    cancel: `UPDATE ${table} SET cancelled_at = now(), finished_at = now(), owner = '${NO_OWNER}'
      WHERE id = $1 AND finished_at IS NULL RETURNING id`,
    /**
     * Jobs the scheduler should start again: not closed, and either with no owner for over 30 s (the continuation a run
     * dispatched never came, or a run stopped by its SMTP server left it for later: a continuation takes its job
     * within seconds, and a take is compare-and-set, so one that comes late finds it taken) or held by an owner
     * silent past the staleness limit (an invocation that died). At 60 s, a job released just after a minute's run
     * of the scheduler waited for the one after: two minutes, not one.
     */
    resumable: `SELECT id, owner FROM ${table}
      WHERE finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL
        AND ((owner = '${NO_OWNER}' AND coalesce(heartbeat_at < now() - interval '30 seconds', true))
          OR heartbeat_at < now() - make_interval(secs => ${JOB_STALE_SECONDS}))
      ORDER BY id LIMIT 20`,
  };
};
/** Every kind's statements, named `<kind>.<statement>` (docs/sql/jobs-lease.sql has them whole). */
export const JOB_SQL: Readonly<Record<string, string>> = Object.fromEntries(
  JOB_KINDS.flatMap((kind) => Object.entries(statements(kind)).map(([name, text]) => [`${kind}.${name}`, text])),
);
const sql = statements;

export async function leaseOf(db: Db, kind: JobKind, id: number): Promise<Lease | null> {
  const [row] = await db.query<{
    owner: string | null;
    stale: boolean;
    finished: boolean;
    paused_reason: string | null;
    cancelled: boolean;
  }>(sql(kind).lease, [id]);
  if (!row) return null;
  return {
    owner: row.owner,
    stale: row.stale,
    finished: row.finished,
    pausedReason: row.paused_reason,
    cancelled: row.cancelled,
  };
}

/**
 * Run `owner` takes job `id` of `kind`: true when it now holds it (it already did, or its holder was nobody or
 * dead); false when another live run holds it, or the job is finished, paused or cancelled.
 */
export async function takeJob(db: Db, kind: JobKind, id: number, owner: string): Promise<boolean> {
  const lease = await leaseOf(db, kind, id);
  if (!lease || lease.finished || lease.cancelled || lease.pausedReason !== null) return false;
  if (lease.owner !== null && lease.owner !== owner && !isOwnerDead(lease.owner, lease.stale)) return false;
  return (await db.query(sql(kind).take, [id, lease.owner, owner])).length === 1;
}

/** Takes job `id` from exactly `from` (NO_OWNER, say) for `owner`: the compare-and-swap alone. */
export async function takeJobFrom(db: Db, kind: JobKind, id: number, from: string | null, owner: string) {
  return (await db.query(sql(kind).take, [id, from, owner])).length === 1;
}

/** A step of run `owner`: the heartbeat, and whether the run still holds the job (false: stop now). */
export async function beatJob(db: Db, kind: JobKind, id: number, owner: string): Promise<boolean> {
  return (await db.query(sql(kind).beat, [id, owner])).length === 1;
}

/** Run `owner` ends its hold: finished when `done`, else no owner, for the next run. False: it no longer held it. */
export async function releaseJob(db: Db, kind: JobKind, id: number, owner: string, done: boolean): Promise<boolean> {
  return (await db.query(sql(kind).release, [id, owner, NO_OWNER, done])).length === 1;
}

/**
 * Pauses job `id` with `reason` (the operator's "Paused by …", or an automatic rule's own words): its run stops at
 * its next step, and nobody takes it until resumeJob. False when it is finished, cancelled or already paused.
 */
export async function pauseJob(db: Db, kind: JobKind, id: number, reason: string): Promise<boolean> {
  return (await db.query(sql(kind).pause, [id, reason])).length === 1;
}

/** Resumes a paused job: no owner, and due at once for the next run. False when it was not paused. */
export async function resumeJob(db: Db, kind: JobKind, id: number): Promise<boolean> {
  return (await db.query(sql(kind).resume, [id])).length === 1;
}

/**
 * Keeps run `owner`'s hold on job `id` beating every `everyMs` while it works, so a step that waits long (an SMTP
 * answer, a paced send) never reads as death; a paused, cancelled or taken-over job is not beaten (the statement
 * checks). Returns the stop, which waits for a beat under way. A failed beat is left to the next one.
 */
export function keepAlive(db: Db, kind: JobKind, id: number, owner: string, everyMs = JOB_BEAT_MS) {
  let beating: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beatJob(db, kind, id, owner).catch(() => false);
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await beating;
  };
}

/** Cancels job `id`: finished now, the rest left undone; its run stops at its next step. False: already finished. */
export async function cancelJob(db: Db, kind: JobKind, id: number): Promise<boolean> {
  return (await db.query(sql(kind).cancel, [id])).length === 1;
}

/** Jobs whose run ended without a successor (no owner for over 30 s) or died (stale): the scheduler starts them. */
export async function resumableJobs(db: Db): Promise<Array<{ kind: JobKind; id: number }>> {
  const found: Array<{ kind: JobKind; id: number }> = [];
  for (const kind of JOB_KINDS) {
    for (const row of await db.query<{ id: number; owner: string }>(sql(kind).resumable)) {
      found.push({ kind, id: Number(row.id) });
    }
  }
  return found;
}
