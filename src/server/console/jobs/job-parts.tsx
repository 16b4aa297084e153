/**
 * The parts every long job is shown with, on its own page (job-page.tsx) and in the first page's list
 * (attention.tsx): its address, its state as a badge with a sentence for a newcomer, and its bar. One place, so a
 * job reads the same wherever it appears. Also the badge for any state that is not a person's (a webhook event, a
 * past update): a tone of its own, the word always there.
 */
import type { ReactNode } from "react";
import { cn } from "../../../lib/cn";
import type { JobKind } from "../../jobs";
import { CONSOLE_PATHS, consoleHref } from "../paths";
import { utcMinute } from "../ui/time";
import type { JobProgress, JobState } from "./job-progress";

/** Seconds between a running job's page refreshing itself. */
export const REFRESH_SECONDS = 3;

/** A job's own page's address. */
export const jobPath = (kind: JobKind, id: number) => consoleHref(CONSOLE_PATHS.jobs, { kind, id });

/**
 * How a state looks: "live" (something is moving now), "good" (finished well), "warn" (stopped, needs a look),
 * "bad" (failing), "muted" (nothing to do).
 */
export type Tone = "live" | "good" | "warn" | "bad" | "muted";

/** A short state as a pill of its tone: the word carries the meaning, the colour only adds to it. */
export function StateBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={cn("badge", `tone-${tone}`)}>{children}</span>;
}

/** Each job state's badge and tone, and what it means for someone who has never seen one. */
const STATES: Record<JobState, { label: string; tone: Tone; says: string }> = {
  running: { label: "Running", tone: "live", says: "" },
  waiting: { label: "Waiting", tone: "muted", says: "Its next run starts within two minutes." },
  stalled: { label: "Stalled", tone: "warn", says: "" },
  paused: { label: "Paused", tone: "warn", says: "Nothing more goes out until it is resumed." },
  cancelled: { label: "Cancelled", tone: "muted", says: "The rest stay unsent." },
  done: { label: "Finished", tone: "good", says: "" },
};

/** Whether a job still moves by itself (its page refreshes, its figures change). */
export const isMoving = (job: JobProgress) =>
  job.state === "running" || job.state === "waiting" || job.state === "stalled";

/** Whether a job is over (nothing to pause, resume or cancel). */
export const isOver = (job: JobProgress) => job.state === "done" || job.state === "cancelled";

export function JobBadge({ job }: { job: JobProgress }) {
  const state = STATES[job.state];
  return <StateBadge tone={state.tone}>{state.label}</StateBadge>;
}

/** The state in a sentence after its badge; a pause says why (its reason as recorded, a full sentence). */
export function JobStatus({ job }: { job: JobProgress }) {
  if (job.state === "stalled") {
    // Its lease expired with no run alive: when the scheduler's next run will have taken over, not "Running".
    const last = job.lastStepAt ? ` at ${utcMinute(job.lastStepAt)} UTC` : "";
    return (
      <p role="status" className="job-state">
        <JobBadge job={job} />
        {`, resumes by ${utcMinute(job.resumesBy ?? "")} UTC: its last run stopped answering${last}.`}
      </p>
    );
  }
  const reason = job.state === "paused" ? sentence(job.pausedReason) : "";
  // A job over says when: "Finished at 2026-06-15 12:00 UTC."
  const at = isOver(job) && job.endedAt ? `at ${utcMinute(job.endedAt)} UTC.` : "";
  const says = [at, STATES[job.state].says, reason].filter(Boolean).join(" ");
  return (
    <p role="status" className="job-state">
      <JobBadge job={job} />
      {says ? ` ${says}` : null}
    </p>
  );
}

/** A recorded reason as a sentence: a capital first, a full stop last ("paused by ops@…" → "Paused by ops@…."). */
function sentence(text: string | null): string {
  const trimmed = (text ?? "").trim();
  if (!trimmed) return "";
  const capital = `${trimmed[0]?.toUpperCase()}${trimmed.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** How far it is, in words and figures: "2 of 6 (33%)". */
export function progressWords(job: JobProgress): string {
  return `${job.done.toLocaleString("en")} of ${job.total.toLocaleString("en")} (${percent(job)}%)`;
}

const percent = (job: JobProgress) => (job.total > 0 ? Math.floor((job.done / job.total) * 100) : 100);

/** A job's bar, named by its label: what it does, and how far it is. */
export function JobBar({ job, idPrefix }: { job: JobProgress; idPrefix: string }) {
  const id = `${idPrefix}-${job.kind}-${job.id}`;
  return (
    <>
      <label htmlFor={id} className="bar-label">
        {`${job.title}: ${progressWords(job)}`}
      </label>
      <progress id={id} max={Math.max(job.total, 1)} value={job.total > 0 ? job.done : 1}>
        {percent(job)}%
      </progress>
    </>
  );
}
