/**
 * What the console shows of a long job, read from its row and its people's or events' rows (the database is the
 * one record of progress: a page shows what every run has done, whichever process ran it): what it does in words
 * (an update by its subject, a wave and a backlog by their size: never their ids), counts, who started it and
 * when, its state (running, waiting for its next run, paused with the reason, cancelled, done), and the list of
 * jobs still open for the first page.
 */
import { counted } from "../../../lib/plural";
import type { Db } from "../../db/types";
import { JOB_STALE_SECONDS, type JobKind, NO_OWNER } from "../../jobs";

export type JobState = "running" | "waiting" | "stalled" | "paused" | "cancelled" | "done";

export interface JobProgress {
  kind: JobKind;
  id: number;
  /** What it does, for people: "Sending “Spring news”", "Inviting 6 people", "Delivering 3 waiting webhook events". */
  title: string;
  startedBy: string | null;
  startedAt: string;
  /** The last time a run recorded a step. */
  lastStepAt: string | null;
  /** When it finished or was cancelled; null while it is not over. */
  endedAt: string | null;
  state: JobState;
  pausedReason: string | null;
  /** A stalled job's next run has started by then (the scheduler's minute after its lease expired); else null. */
  resumesBy: string | null;
  /** All it has to deal with, and how many are dealt with. */
  total: number;
  done: number;
  /** The names and figures of its counts, in order ("Sent", "Failed", "Waiting to retry", … "Still to go"). */
  counts: Array<[string, number]>;
  left: number;
}

/**
 * The state a row's columns say at `$2` (the page's clock), by one rule for every kind: stalled once its lease has
 * expired (the lease's own staleness rule), which is when the scheduler may start the next run.
 */
const STATE = `CASE WHEN j.cancelled_at IS NOT NULL THEN 'cancelled' WHEN j.finished_at IS NOT NULL THEN 'done'
    WHEN j.paused_reason IS NOT NULL THEN 'paused' WHEN j.owner = '${NO_OWNER}' OR j.owner IS NULL THEN 'waiting'
    WHEN j.heartbeat_at < $2::timestamptz - make_interval(secs => ${JOB_STALE_SECONDS}) THEN 'stalled'
    ELSE 'running' END AS state, COALESCE(j.cancelled_at, j.finished_at) AS ended_at`;

export const JOB_PROGRESS_SQL: Record<JobKind | "open", string> = {
  update: `SELECT j.id, j.subject, j.author AS started_by, j.created_at AS started_at, j.heartbeat_at,
      ${STATE}, j.paused_reason, j.sent, j.failed,
      (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = j.id) AS total,
      (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = j.id AND r.state = 'skipped') AS skipped,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = j.id AND r.state = 'queued' AND r.tries > 0) AS deferred,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = j.id AND r.state IN ('queued', 'attempted')) AS left
    FROM waitlist_update j WHERE j.id = $1`,
  wave: `SELECT j.id, NULL AS subject, j.size, j.author AS started_by, j.started_at, j.heartbeat_at,
      ${STATE}, j.paused_reason, j.invited AS sent, j.refused AS failed, 0 AS skipped, 0 AS deferred,
      (SELECT count(*)::int FROM waitlist w WHERE w.invite_wave_id = j.id AND w.status = 'confirmed') AS left
    FROM waitlist_invite_wave j WHERE j.id = $1`,
  webhooks: `SELECT j.id, NULL AS subject, j.author AS started_by, j.created_at AS started_at,
      j.heartbeat_at, ${STATE}, j.paused_reason, j.total,
      (SELECT count(*)::int FROM waitlist_webhook_event e WHERE e.state = 'delivered' AND e.delivered_at >= j.created_at) AS sent,
      (SELECT count(*)::int FROM waitlist_webhook_event e
        WHERE e.state <> 'delivered' AND e.last_attempt_at >= j.created_at) AS failed,
      0 AS skipped, 0 AS deferred,
      (SELECT count(*)::int FROM waitlist_webhook_event e WHERE e.state = 'pending' AND e.next_attempt_at <= now()) AS left
    FROM waitlist_webhook_drain j WHERE j.id = $1`,
  import: `SELECT j.id, j.file_name AS subject, j.actor AS started_by, j.started_at, j.heartbeat_at,
      ${STATE}, j.paused_reason,
      (SELECT count(*)::int FROM waitlist_import_row r WHERE r.import_id = j.id AND r.outcome = 'added'
        AND r.mailed_at IS NOT NULL) AS sent, 0 AS failed, 0 AS skipped, 0 AS deferred,
      (SELECT count(*)::int FROM waitlist_import_row r WHERE r.import_id = j.id AND r.outcome = 'added'
        AND r.mailed_at IS NULL) AS left
    FROM waitlist_import j WHERE j.id = $1`,

  /** Every job not finished, newest first per kind: the first page's list. */
  open: `SELECT 'update' AS kind, id FROM waitlist_update WHERE finished_at IS NULL
  UNION ALL SELECT 'wave', id FROM waitlist_invite_wave WHERE finished_at IS NULL
  UNION ALL SELECT 'webhooks', id FROM waitlist_webhook_drain WHERE finished_at IS NULL
  UNION ALL SELECT 'import', id FROM waitlist_import WHERE finished_at IS NULL AND rows_done_at IS NOT NULL
  ORDER BY 1, 2 DESC LIMIT 20`,
};

type Row = {
  id: number;
  subject: string | null;
  started_by: string | null;
  started_at: unknown;
  heartbeat_at: unknown;
  ended_at: unknown;
  state: JobState;
  paused_reason: string | null;
  sent: number;
  failed: number;
  skipped: number;
  deferred: number;
  left: number;
  total?: number;
  /** A wave's size as asked for. */
  size?: number;
};

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());
const MINUTE_MS = 60_000;

/**
 * When a stalled job's next run has started at the latest: the scheduler (every minute) starts it at the first whole
 * minute after its lease expired (or after `now`, should that minute be past), within seconds; so by the minute after.
 */
export function resumesBy(lastBeat: string | null, now: number): string {
  const expired = (lastBeat ? Date.parse(lastBeat) : now) + JOB_STALE_SECONDS * 1000;
  const tick = Math.ceil(Math.max(expired, now) / MINUTE_MS) * MINUTE_MS;
  return new Date(tick + MINUTE_MS).toISOString();
}

/**
 * What a job does, for people: "Sending “Spring news”" while it may still move, "Sent “Spring news”" once it has
 * finished (a finished page never says it is still sending; a finished wave counts whom it invited); a cancelled
 * one keeps what it set out to do (a wave, the size asked for), and says it was cancelled.
 */
function jobTitle(
  kind: JobKind,
  state: JobState,
  n: { total: number; sent: number; size: number },
  subject: string,
): string {
  const done = state === "done";
  const people = (count: number) => counted(count, "person", "people");
  const wave = done ? `Invited ${people(n.sent)}` : `Inviting ${people(state === "cancelled" ? n.size : n.total)}`;
  const title = {
    update: `${done ? "Sent" : "Sending"} “${subject}”`,
    wave,
    import: `${done ? "Asked" : "Asking"} ${counted(n.total, "imported person", "imported people")} from “${subject}” to confirm`,
    webhooks: `${done ? "Delivered" : "Delivering"} ${counted(n.total, "waiting webhook event")}`,
  }[kind];
  return state === "cancelled" ? `${title} (cancelled)` : title;
}

export async function jobProgress(db: Db, kind: JobKind, id: number, now = Date.now()): Promise<JobProgress | null> {
  const [row] = await db.query<Row>(JOB_PROGRESS_SQL[kind], [id, new Date(now).toISOString()]);
  if (!row) return null;
  const [sent, failed, skipped, deferred, left] = [row.sent, row.failed, row.skipped, row.deferred, row.left].map(
    Number,
  ) as [number, number, number, number, number];
  const words: Record<JobKind, [string, string, string]> = {
    update: ["Sent", "Failed", "Still to send"],
    wave: ["Invited", "Refused by the mail server", "Still to invite"],
    webhooks: ["Delivered", "Not acknowledged", "Still to deliver"],
    import: ["Asked to confirm", "Failed", "Still to ask"],
  };
  // An update's total is its recipients; a wave's, whom it invited, refused and still holds; a backlog's, what
  // was waiting when it was pressed, or more if more came since.
  const done = sent + failed + skipped;
  const total = Math.max(Number(row.total ?? 0), done + left);
  const counts: Array<[string, number]> = [
    [words[kind][0], sent],
    [words[kind][1], failed],
  ];
  if (kind === "update") counts.push(["Waiting to retry", deferred], ["Skipped: stopped updates or left", skipped]);
  counts.push([words[kind][2], left]);
  const title = jobTitle(kind, row.state, { total, sent, size: Number(row.size ?? total) }, row.subject ?? "");
  return {
    kind,
    id: Number(row.id),
    title,
    startedBy: row.started_by,
    startedAt: iso(row.started_at) ?? "",
    lastStepAt: iso(row.heartbeat_at),
    endedAt: iso(row.ended_at),
    state: row.state,
    pausedReason: row.paused_reason,
    resumesBy: row.state === "stalled" ? resumesBy(iso(row.heartbeat_at), now) : null,
    total,
    done: kind === "webhooks" ? Math.max(0, total - left) : done,
    counts,
    left,
  };
}

export async function openJobs(db: Db, now = Date.now()): Promise<JobProgress[]> {
  const rows = await db.query<{ kind: JobKind; id: number }>(JOB_PROGRESS_SQL.open);
  const found = await Promise.all(rows.map((row) => jobProgress(db, row.kind, Number(row.id), now)));
  return found.filter((job): job is JobProgress => job !== null);
}
