/**
 * The console's Updates area (src/server/updates/ sends them): write a subject and a plain text, preview the e-mail
 * and how many it reaches, send a test to yourself, then send after a confirmation. The confirmed send runs in the
 * background (src/server/jobs/), and the operator lands on its own page (job-page.tsx: its bar, Pause, Resume,
 * Cancel); the list of past updates has their counts. Plain forms, no JavaScript; the draft travels in hidden fields
 * between the steps. Here: which step answers with which page (updates-page.tsx, update-preview.tsx).
 */
import { auditStart } from "../../audit";
import { isId } from "../../http/limits";
import { seeOther } from "../../http/responses";
import { isTicket } from "../../http/ticket";
import { withTimeout } from "../../http/timeout";
import { log } from "../../log";
import {
  type Audience,
  checkDraft,
  createUpdateStore,
  type Draft,
  findSameUpdate,
  NOBODY_TO_REACH,
  sendAgain,
  startUpdate,
} from "../../updates";
import { jobPath, startJob } from "../jobs/jobs";
import { message } from "../pages";
import { confirmPage, previewPage } from "./update-preview";
import { updateSegment } from "./update-segment";
import { testStep } from "./update-test";
import { alreadyPage, audienceCount, composePage, MAIL_OFF, type UpdateVisit } from "./updates-page";

export type { UpdateVisit } from "./updates-page";

/**
 * What a step's form may carry: far past 100 KB of text percent-encoded (each byte of UTF-8 may take 3), so that
 * a body too long, pasted whole, gets the rule's own message with the draft kept rather than a refusal of the
 * request; under the platform's 6 MB for a function's request.
 */
export const UPDATES_MAX_BODY = 4 * 1024 * 1024;

/**
 * Update `id` (just started, or found again by its words: a second press goes on with the same one), started in
 * the background; the operator goes to its page. Audited when the operator starts it; the run's own counts are on
 * its page. A start the platform did not take is not lost: the every-minute scheduler starts it.
 */
async function sendStep(visit: UpdateVisit, id: number): Promise<Response> {
  const updates = visit.store.of(createUpdateStore);
  const row = await withTimeout(updates.get(id, 0), visit.config.dbTimeoutMs);
  const entry = await auditStart(visit.store.db, visit.admin, "update", { update: id, subject: row?.subject ?? null });
  const taken = await startJob(visit, "update", id);
  await entry.end({ update: id, background: taken ? "started" : "left to the scheduler" });
  log("info", "admin.update_started", { admin: visit.logId, update: id });
  return seeOther(`${jobPath("update", id)}&done=started`);
}

/** GET /admin/updates, given a People filter by "Write to everyone matching" (its address) or none. */
export async function updatesHome(visit: UpdateVisit, params = new URLSearchParams()): Promise<Response> {
  const segment = await updateSegment(visit.store, params);
  if (segment === undefined) return message(400, "Updates", NOT_A_FILTER, visit.admin);
  return composePage({ ...visit, segment });
}

const NOT_A_FILTER = "That filter is not valid: choose it again on the People page.";

/** A checked draft's visit: the draft, the filter's audience (null: everyone who said yes), and the form. */
type DraftStep = (visit: UpdateVisit, draft: Draft, audienceOf: Audience | null) => Promise<Response>;

/** POST /admin/updates: a step of writing and sending, named by `action`, for the filter the draft carries. */
export async function updatesAction(given: UpdateVisit): Promise<Response> {
  const segment = await updateSegment(given.store, new URLSearchParams(given.fields));
  if (segment === undefined) return message(400, "Updates", NOT_A_FILTER, given.admin);
  const visit = { ...given, segment };
  const { fields } = visit;
  const action = fields["action"] ?? "preview";
  const typed = { subject: fields["subject"] ?? "", body: fields["body"] ?? "" };
  if (action === "edit") return composePage(visit, typed);
  const checked = checkDraft(typed.subject, typed.body);
  if ("problem" in checked) return composePage(visit, typed, { error: `${checked.problem} Nothing was sent.` }, 400);
  const { draft } = checked;
  if (action === "preview") {
    // Words already started are that update (updates/start.ts), here as at the confirmation: its page, not a
    // preview whose audience (those who have not had them) is empty and would say nobody said yes.
    const updates = visit.store.of(createUpdateStore);
    const same = await withTimeout(findSameUpdate(updates, draft, segment?.audience ?? null), visit.config.dbTimeoutMs);
    return same ? sameWords(visit, draft, same.id) : previewPage(visit, draft);
  }
  if (!visit.config.mail || !visit.mailer) return composePage(visit, draft, { error: MAIL_OFF }, 400);
  if (action === "test") return testStep(visit, draft, visit.mailer);
  // Own keys only: "toString" is not a step.
  const step = Object.hasOwn(DRAFT_STEPS, action) ? DRAFT_STEPS[action] : undefined;
  if (!step) return message(400, "Updates", "Use the Updates page's buttons.", visit.admin);
  return step(visit, draft, segment?.audience ?? null);
}

const DRAFT_STEPS: Record<string, DraftStep> = {
  /** The confirmation: how many it reaches; words already started are that update, shown, not confirmed again. */
  async confirm(visit, draft, audienceOf) {
    const updates = visit.store.of(createUpdateStore);
    const audience = await withTimeout(audienceCount(visit, draft), visit.config.dbTimeoutMs);
    const same = await withTimeout(findSameUpdate(updates, draft, audienceOf), visit.config.dbTimeoutMs);
    if (same) return sameWords(visit, draft, same.id);
    if (audience === 0) return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    return confirmPage(visit, draft, audience);
  },
  /**
   * Confirmed. The words are the update (updates/start.ts): a second confirmation, a second tab, a resubmitted page
   * find the update the first made, and go on with it; a finished one is shown, and nobody is sent it again.
   */
  async send(visit, draft, audienceOf) {
    if (!isTicket(visit.fields["ticket"] ?? ""))
      return message(400, "Updates", "Send from the preview's confirmation.", visit.admin);
    const updates = visit.store.of(createUpdateStore);
    const audience = await withTimeout(audienceCount(visit, draft), visit.config.dbTimeoutMs);
    const same = await withTimeout(findSameUpdate(updates, draft, audienceOf), visit.config.dbTimeoutMs);
    if (!same && audience === 0)
      return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    const started =
      same ?? (await withTimeout(startUpdate(updates, draft, visit.logId, audienceOf), visit.config.dbTimeoutMs));
    if (!started.created && started.finished) return sameWords(visit, draft, started.id);
    return sendStep(visit, started.id);
  },
  /** The same words sent again, to whoever has not had them since update `after`. */
  async again(visit, draft, audienceOf) {
    const after = visit.fields["after"] ?? "";
    if (!isId(after)) return message(400, "Updates", "That update does not exist.", visit.admin);
    const updates = visit.store.of(createUpdateStore);
    const again = await withTimeout(
      sendAgain(updates, draft, visit.logId, Number(after), audienceOf),
      visit.config.dbTimeoutMs,
    );
    if (!again) return sameWords(visit, draft, Number(after));
    return sendStep(visit, again.id);
  },
};

/** The page for words already started: that update, finished or not, and the explicit "send it again". */
async function sameWords(visit: UpdateVisit, draft: Draft, id: number): Promise<Response> {
  const updates = visit.store.of(createUpdateStore);
  const [row, same, left] = await withTimeout(
    Promise.all([
      updates.get(id, 0),
      findSameUpdate(updates, draft, visit.segment?.audience ?? null),
      updates.againAudience(draft.subject, draft.body, visit.segment?.audience ?? null),
    ]),
    visit.config.dbTimeoutMs,
  );
  if (!row || !same) return message(404, "Updates", "That update does not exist.", visit.admin);
  return alreadyPage(visit, draft, { ...same, remaining: row.remaining, latest: same.id === id }, left);
}
