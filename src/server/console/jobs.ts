/**
 * Long jobs in the console (src/server/jobs/ runs them): after the operator's confirmation a send, a wave or a
 * webhook backlog runs in the background, and the operator is sent to its own page here, which shows its bar
 * (<progress>), its counts, rate and estimated finish, who started it and when, and refreshes itself every few
 * seconds while it runs (a <meta> refresh: still no JavaScript; CSP has no say over it), stopping once it is done.
 * Pause, Resume and Cancel are buttons on that page, each audited. The first page lists every job still open with
 * its bar, and the webhook banner (webhooks' health, one rule in src/server/webhooks/index.ts).
 */
import { auditStart } from "../audit";
import type { ServerConfig } from "../config";
import type { RootKey } from "../crypto/secret";
import { escapeHtml as h } from "../http/form-page";
import { seeOther } from "../http/responses";
import {
  cancelJob,
  httpJobStarter,
  isJobKind,
  type JobKind,
  type JobStarter,
  leaseOf,
  pauseJob,
  resumeJob,
  WAITING,
} from "../jobs";
import { log } from "../log";
import type { Store } from "../store/types";
import { webhookHealth } from "../webhooks";
import { adminIdentity } from "./identity";
import { type JobProgress, jobProgress, openJobs } from "./job-progress";
import { CONSOLE_PATHS, message, page } from "./pages";

/** Seconds between a running job's page refreshing itself. */
export const REFRESH_SECONDS = 3;

/** What the console's jobs are given beyond the handler's own: how a job is started (tests run it in-process). */
export interface JobDeps {
  startJob?: (origin: string, root: RootKey) => JobStarter;
}

export interface JobVisit {
  store: Store;
  config: ServerConfig;
  admin: string;
  origin: string;
  fields: Record<string, string>;
  logId: string;
  deps: JobDeps;
}

/** Starts job `id` of `kind` in the background; false when the platform did not take it (the scheduler will). */
export async function startJob(visit: Omit<JobVisit, "fields">, kind: JobKind, id: number): Promise<boolean> {
  const root = (await visit.store.secret()) as RootKey;
  const starter = (visit.deps.startJob ?? ((origin, key) => httpJobStarter(origin, key)))(visit.origin, root);
  return starter(kind, id);
}

/** A job's own page's address. */
export const jobPath = (kind: JobKind, id: number) => `${CONSOLE_PATHS.jobs}?kind=${kind}&id=${id}`;

const number = (n: number) => n.toLocaleString("en");
const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** Who started a job, by the name its row keeps (a keyed hash for an admin, "CLI" for the command line). */
async function starterName(visit: { config: ServerConfig; store: Store }, stored: string | null): Promise<string> {
  if (!stored) return "the command line";
  if (stored === "CLI") return "the command line";
  const identity = await adminIdentity(visit.config, visit.store);
  if (visit.config.adminToken && identity.logId("token") === stored) return "the admin token";
  return visit.config.adminEmails.find((address) => identity.logId(address) === stored) ?? "an admin no longer listed";
}

const STATE_WORDS: Record<JobProgress["state"], string> = {
  running: "Running",
  waiting: "Waiting for its next run (within two minutes)",
  stalled: "Stalled: its run stopped answering; it is started again within a minute",
  paused: "Paused",
  cancelled: "Cancelled: the rest stay unsent",
  done: "Done",
};

/** A job's bar, its label tied to it. */
function bar(job: JobProgress, idPrefix: string): string {
  const id = `${idPrefix}-${job.kind}-${job.id}`;
  const percent = job.total > 0 ? Math.floor((job.done / job.total) * 100) : 100;
  return `<label for="${id}">${h(job.title)}: ${number(job.done)} of ${number(job.total)} (${percent}%)</label>
<progress id="${id}" max="${Math.max(job.total, 1)}" value="${job.total > 0 ? job.done : 1}">${percent}%</progress>`;
}

/** The rate so far (per second) and the estimated finish, from the row's times; null while too early to say. */
function pace(job: JobProgress, now: number): { rate: number; finish: string | null } | null {
  const started = Date.parse(job.startedAt);
  const last = job.lastStepAt ? Date.parse(job.lastStepAt) : now;
  const seconds = ((job.state === "running" ? now : last) - started) / 1000;
  if (job.done === 0 || seconds <= 0) return null;
  const rate = job.done / seconds;
  const open = job.state === "running" || job.state === "waiting" || job.state === "stalled";
  const finish = open && job.left > 0 ? new Date(now + (job.left / rate) * 1000).toISOString() : null;
  return { rate, finish };
}

function controls(job: JobProgress): string {
  const form = (action: string, label: string, quiet = true) =>
    `<form method="post" action="${CONSOLE_PATHS.jobs}" class="inline"><input type="hidden" name="kind" value="${job.kind}"><input type="hidden" name="id" value="${job.id}"><input type="hidden" name="action" value="${action}"><button type="submit"${quiet ? ' class="quiet"' : ""}>${label}</button></form>`;
  if (job.state === "done" || job.state === "cancelled") return "";
  const pauseOrResume = job.state === "paused" ? form("resume", "Resume", false) : form("pause", "Pause");
  return `<div class="row">${pauseOrResume}${form("cancel", "Cancel…")}</div>`;
}

/** GET /admin/jobs?kind=…&id=…: a job's own page. */
export async function jobPage(
  visit: Omit<JobVisit, "fields">,
  params: URLSearchParams,
  notice = "",
): Promise<Response> {
  const kind = params.get("kind") ?? "";
  const idText = params.get("id") ?? "";
  if (!isJobKind(kind) || !/^[1-9]\d{0,14}$/.test(idText)) {
    return message(404, "Not found", "There is no such send, wave or backlog.", visit.admin);
  }
  const job = await jobProgress(visit.store.db, kind, Number(idText));
  if (!job) return message(404, "Not found", "There is no such send, wave or backlog.", visit.admin);
  const now = Date.now();
  const speed = pace(job, now);
  const open = job.state !== "done" && job.state !== "cancelled" && job.state !== "paused";
  const facts: Array<[string, string]> = [
    ...job.counts.map(([word, n]): [string, string] => [word[0]?.toUpperCase() + word.slice(1), number(n)]),
    ["Rate", speed ? `${speed.rate >= 10 ? number(Math.round(speed.rate)) : speed.rate.toFixed(1)} a second` : "—"],
    ["Estimated finish", speed?.finish ? when(speed.finish) : job.state === "done" ? "finished" : "—"],
    ["Started by", await starterName(visit, job.startedBy)],
    ["Started at", when(job.startedAt)],
  ];
  const state =
    job.state === "paused"
      ? `Paused: ${job.pausedReason ?? ""}. Nothing more is sent until it is resumed.`
      : STATE_WORDS[job.state];
  const noticeHtml = notice ? `<p class="notice" role="status">${h(notice)}</p>` : "";
  const back =
    kind === "update" ? CONSOLE_PATHS.updates : kind === "webhooks" ? CONSOLE_PATHS.webhooks : CONSOLE_PATHS.home;
  return page(
    200,
    job.title,
    `<h1>${h(kind === "update" ? `Update: ${job.title}` : job.title)}</h1>${noticeHtml}<section aria-labelledby="progress">
<h2 id="progress">Progress</h2><p role="status">${h(state)}</p>
${bar(job, "job")}
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${h(k)}</dt><dd>${h(v)}</dd></div>`).join("")}</dl>
${open ? `<p class="note">This page refreshes itself every ${REFRESH_SECONDS} seconds while it runs. You may leave it: the work goes on without it.</p>` : ""}
${controls(job)}
<p><a href="${back}">Back</a></p></section>`,
    visit.admin,
    {},
    open ? { refreshSeconds: REFRESH_SECONDS } : {},
  );
}

/** What the first page shows above the rest: the webhook banner, and every job still open with its bar. */
export async function attentionSections(store: Store, config: ServerConfig): Promise<string> {
  let banner = "";
  if (config.webhook) {
    const health = await webhookHealth(store);
    if (health.state !== "ok") {
      const heard = health.lastAnswer ? ` Last answer: ${health.lastAnswer}.` : "";
      const what = health.state === "paused" ? "Webhook deliveries are paused" : "Webhook deliveries are failing";
      banner = `<p class="error" role="alert">${h(`${what}: ${health.why}. ${number(health.waiting)} waiting.${heard}`)} <a href="${CONSOLE_PATHS.webhooks}">Open the delivery log</a></p>`;
    }
  }
  const jobs = await openJobs(store.db);
  const list = jobs.length
    ? `<section aria-labelledby="jobs"><h2 id="jobs">Running now</h2><ul>${jobs
        .map(
          (job) =>
            `<li>${bar(job, "open")} <span class="note">${h(STATE_WORDS[job.state].split(":")[0] ?? "")}${job.state === "paused" && job.pausedReason ? `: ${h(job.pausedReason)}` : ""}</span> <a href="${jobPath(job.kind, job.id)}">Its page</a></li>`,
        )
        .join("")}</ul></section>`
    : "";
  return banner + list;
}

/** POST /admin/jobs: Pause, Resume or Cancel a job (Cancel asks first); each audited. */
export async function jobAction(visit: JobVisit): Promise<Response> {
  const { fields, store, admin } = visit;
  const kind = fields["kind"] ?? "";
  const idText = fields["id"] ?? "";
  if (!isJobKind(kind) || !/^[1-9]\d{0,14}$/.test(idText)) {
    return message(400, "Not found", "There is no such send, wave or backlog.", admin);
  }
  const id = Number(idText);
  const action = fields["action"];
  const back = jobPath(kind, id);
  if (action === "pause") {
    const entry = await auditStart(store.db, admin, "job-pause", { kind, id });
    const done = await pauseJob(store.db, kind, id, `paused by ${admin === "token" ? "the admin token" : admin}`);
    await entry.end({ kind, id, done });
    return seeOther(`${back}&done=${done ? "paused" : "nothing"}`);
  }
  if (action === "resume") {
    const entry = await auditStart(store.db, admin, "job-resume", { kind, id });
    const done = await resumeJob(store.db, kind, id);
    await entry.end({ kind, id, done });
    if (done) await startJob(visit, kind, id);
    return seeOther(`${back}&done=${done ? "resumed" : "nothing"}`);
  }
  if (action === "cancel") {
    if (fields["confirm"] !== "yes") {
      const job = await jobProgress(store.db, kind, id);
      if (!job) return message(404, "Not found", "There is no such send, wave or backlog.", admin);
      return page(
        200,
        "Cancel",
        `<h1>Cancel ${h(job.title)}?</h1><section><p>${h(`${number(job.left)} still to go will stay unsent. What has been sent stays sent. This cannot be undone.`)}</p>
<form method="post" action="${CONSOLE_PATHS.jobs}"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="id" value="${id}"><input type="hidden" name="action" value="cancel"><input type="hidden" name="confirm" value="yes">
<div class="row"><button type="submit" class="danger">Cancel the rest</button><a href="${back}">Keep it going</a></div></form></section>`,
        admin,
      );
    }
    const entry = await auditStart(store.db, admin, "job-cancel", { kind, id });
    const before = await leaseOf(store.db, kind, id);
    const done = await cancelJob(store.db, kind, id);
    // A wave nobody is sending right now lets its people go back to the line at once; a running one does so itself.
    if (done && kind === "wave" && (before?.owner === WAITING || before?.pausedReason)) await store.invites.finish(id);
    await entry.end({ kind, id, done });
    log("info", "admin.job_cancelled", { admin: visit.logId, kind, id, done });
    return seeOther(`${back}&done=${done ? "cancelled" : "nothing"}`);
  }
  return message(400, "Not allowed", "Use the page's buttons.", admin);
}

/** What a job's page says after an action (by a fixed word in its address). */
export const JOB_NOTICES: Record<string, string> = {
  started: "Started: it runs by itself from here, and this page follows it.",
  paused: "Paused: the run stops before its next message.",
  resumed: "Resumed: it goes on from where it stopped.",
  cancelled: "Cancelled: the rest stay unsent.",
  nothing: "Nothing was changed: it had already finished, or was not in that state.",
};
