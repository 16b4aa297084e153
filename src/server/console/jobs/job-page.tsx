/**
 * A long job's own page (GET /admin/jobs?kind=…&id=…), where the operator lands after confirming a send, a wave
 * or a backlog: what it does (never its id), its state as a badge with a sentence, its bar, its counts, speed and
 * estimated finish, who started it and when, and Pause, Resume and Cancel. While it moves, the page reloads
 * itself every few seconds (a <meta> refresh: still no JavaScript) and stops once it is over. The page belongs to
 * the area that started the job, marked in the navigation. Also Cancel's question, asked once before it acts.
 */

import { counted } from "../../../lib/plural";
import type { ServerConfig } from "../../config";
import { isJobKind, type JobKind } from "../../jobs";
import type { Store } from "../../store/types";
import { CONSOLE_PATHS, message, page } from "../pages";
import { waveListHref } from "../paths";
import { adminIdentity } from "../sign-in/identity";
import type { Area } from "../ui/Layout";
import { ConfirmForm, Figures, Notice, Section } from "../ui/parts";
import { utcMinute } from "../ui/time";
import { updateSentParts } from "../updates/update-sent";
import { isMoving, isOver, JobBar, JobStatus, jobPath, REFRESH_SECONDS } from "./job-parts";
import { type JobProgress, jobProgress } from "./job-progress";

/** Where each kind of job is started from: its page is in that area, and leads back there. */
const HOME: Record<JobKind, { area: Area; href: string; back: string }> = {
  update: { area: "updates", href: CONSOLE_PATHS.updates, back: "Back to Updates" },
  wave: { area: "home", href: CONSOLE_PATHS.home, back: "Back to the overview" },
  webhooks: { area: "webhooks", href: CONSOLE_PATHS.webhooks, back: "Back to the webhook log" },
  import: { area: "people", href: CONSOLE_PATHS.people, back: "Back to People" },
};

export const NO_SUCH_JOB = "There is no such send, wave or delivery of waiting webhook events.";

/** The job a page's or a form's kind and id name, if both are well formed. */
export function jobKey(kind: string, id: string): { kind: JobKind; id: number } | null {
  return isJobKind(kind) && /^[1-9]\d{0,14}$/.test(id) ? { kind, id: Number(id) } : null;
}

const number = (n: number) => n.toLocaleString("en");
const when = (iso: string) => `${utcMinute(iso)} UTC`;

/** Who started a job, by the name its row keeps (a keyed hash for an admin, "CLI" for the command line). */
async function starterName(visit: { config: ServerConfig; store: Store }, stored: string | null): Promise<string> {
  if (!stored || stored === "CLI") return "the command line";
  const identity = await adminIdentity(visit.config, visit.store);
  if (visit.config.adminToken && identity.logId("token") === stored) return "the admin token";
  return visit.config.adminEmails.find((address) => identity.logId(address) === stored) ?? "an admin no longer listed";
}

/**
 * The speed so far (per second) and the estimated finish, from the row's times; null while too early to say. A
 * stalled job goes on once its next run has started (resumesBy), never from a moment already past.
 */
function pace(job: JobProgress, now: number): { rate: number; finish: string | null } | null {
  const started = Date.parse(job.startedAt);
  const last = job.lastStepAt ? Date.parse(job.lastStepAt) : now;
  const seconds = ((job.state === "running" ? now : last) - started) / 1000;
  if (job.done === 0 || seconds <= 0) return null;
  const rate = job.done / seconds;
  const from = job.resumesBy ? Math.max(now, Date.parse(job.resumesBy)) : now;
  const finish = isMoving(job) && job.left > 0 ? new Date(from + (job.left / rate) * 1000).toISOString() : null;
  return { rate, finish };
}

/** A job over says when it ended, in place of an estimate: "Finished" or "Cancelled", and the minute. */
function ended(job: JobProgress): [string, string] | null {
  if (!isOver(job) || !job.endedAt) return null;
  return [job.state === "done" ? "Finished" : "Cancelled", when(job.endedAt)];
}

/** One of the job's buttons: a form of its own, naming the job and the action. */
function JobButton({
  job,
  action,
  quiet,
  children,
}: {
  job: JobProgress;
  action: string;
  quiet?: boolean;
  children: string;
}) {
  return (
    <form method="post" action={CONSOLE_PATHS.jobs} className="inline">
      <input type="hidden" name="kind" value={job.kind} />
      <input type="hidden" name="id" value={job.id} />
      <input type="hidden" name="action" value={action} />
      <button type="submit" className={quiet ? "quiet" : undefined}>
        {children}
      </button>
    </form>
  );
}

function Controls({ job }: { job: JobProgress }) {
  if (isOver(job)) return null;
  return (
    <div className="row">
      {job.state === "paused" ? (
        <JobButton job={job} action="resume">
          Resume
        </JobButton>
      ) : (
        <JobButton job={job} action="pause" quiet>
          Pause
        </JobButton>
      )}
      <JobButton job={job} action="cancel" quiet>
        Cancel…
      </JobButton>
    </div>
  );
}

/** GET /admin/jobs?kind=…&id=…: a job's own page, with what the last action did (`notice`). */
export async function jobPage(
  visit: { store: Store; config: ServerConfig; admin: string; origin: string; now?: () => number },
  params: URLSearchParams,
  notice = "",
): Promise<Response> {
  const now = (visit.now ?? Date.now)();
  const key = jobKey(params.get("kind") ?? "", params.get("id") ?? "");
  const job = key ? await jobProgress(visit.store.db, key.kind, key.id, now) : null;
  if (!job) return message(404, "Not found", NO_SUCH_JOB, visit.admin);
  const speed = pace(job, now);
  const moving = isMoving(job);
  const rate = speed ? `${speed.rate >= 10 ? number(Math.round(speed.rate)) : speed.rate.toFixed(1)} a second` : "—";
  const facts: Array<[string, string]> = [
    ...job.counts.map(([name, n]): [string, string] => [name, number(n)]),
    ["Speed", rate],
    ended(job) ?? ["Estimated finish", speed?.finish ? when(speed.finish) : "—"],
    ["Started by", await starterName(visit, job.startedBy)],
    ["Started", when(job.startedAt)],
  ];
  const home = HOME[job.kind];
  // An update's page is where it is read again: what came back, and the e-mail itself.
  const sent = job.kind === "update" ? await updateSentParts(visit, job.id) : null;
  return page(
    200,
    job.title,
    <>
      <h1>{job.title}</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <Section id="progress" title="Progress">
        <JobStatus job={job} />
        <JobBar job={job} idPrefix="job" />
        <div className="job-facts">
          <Figures items={facts} />
        </div>
        {moving ? (
          <p className="note">
            This page refreshes itself every {REFRESH_SECONDS} seconds while it runs. You may leave it: the work goes on
            without it.
          </p>
        ) : null}
        <Controls job={job} />
      </Section>
      {sent}
      <p className="row">
        {job.kind === "wave" && job.state === "done" ? (
          <a className="button quiet" href={waveListHref(job.id)}>
            See who it invited
          </a>
        ) : null}
        {job.kind === "wave" ? <a href={CONSOLE_PATHS.waves}>All waves</a> : null}
        <a href={home.href}>{home.back}</a>
      </p>
    </>,
    visit.admin,
    {},
    moving ? { area: home.area, refreshSeconds: REFRESH_SECONDS } : { area: home.area },
  );
}

/** What cancelling leaves behind, for each kind, in words a newcomer can weigh. */
function whatStays(job: JobProgress): string {
  const go = job.left === 1 ? "goes" : "go";
  if (job.kind === "update")
    return `${counted(job.left, "person", "people")} still waiting for it will not get it. Those already sent it keep it.`;
  if (job.kind === "wave")
    return `${counted(job.left, "person", "people")} not invited yet ${go} back to their place in line. Those invited stay invited.`;
  return `${counted(job.left, "waiting event")} ${go} back to their usual schedule of tries. Those delivered stay delivered.`;
}

/** Cancel's question: what stays unsent, and the one button that cancels. */
export function cancelPage(admin: string, job: JobProgress): Response {
  const title = `Cancel ${job.title[0]?.toLowerCase()}${job.title.slice(1)}?`;
  return page(
    200,
    title,
    <>
      <h1>{title}</h1>
      <Section id="cancel-what" title="This cannot be undone">
        <p>{whatStays(job)}</p>
        <ConfirmForm
          action={CONSOLE_PATHS.jobs}
          fields={{ kind: job.kind, id: job.id, action: "cancel" }}
          label="Cancel the rest"
          danger
          back={jobPath(job.kind, job.id)}
          backLabel="Keep it going"
        />
      </Section>
    </>,
    admin,
    {},
    { area: HOME[job.kind].area },
  );
}
