/**
 * The console's Updates area (src/server/updates/ sends them): write a subject and a plain text, preview the e-mail
 * and how many it reaches, send a test to yourself, then send after a confirmation. The confirmed send runs in the
 * background (src/server/jobs/), and the operator lands on its own page (job-page.tsx: its bar, Pause, Resume,
 * Cancel); the list of past updates has their counts. Plain forms, no JavaScript; the draft travels in hidden fields
 * between the steps. Here: which step answers with which page (updates-page.tsx, update-preview.tsx).
 */
import { randomUUID } from "node:crypto";
import { auditStart } from "../audit";
import { isId } from "../http/limits";
import { seeOther } from "../http/responses";
import { isTicket } from "../http/ticket";
import { withTimeout } from "../http/timeout";
import { log } from "../log";
import { isRefusal, reason } from "../mail/outcome";
import {
  checkDraft,
  createUpdateStore,
  type Draft,
  findSameUpdate,
  NOBODY_TO_REACH,
  sendAgain,
  startUpdate,
  TEST_SUBJECT_PREFIX,
  updateEmail,
} from "../updates";
import { jobPath, startJob } from "./jobs";
import { message } from "./pages";
import { confirmPage, previewPage } from "./update-preview";
import { updateSegment } from "./update-segment";
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
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
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

/** POST /admin/updates: a step of writing and sending, named by `action`, for the filter the draft carries. */
export async function updatesAction(given: UpdateVisit): Promise<Response> {
  const segment = await updateSegment(given.store, new URLSearchParams(given.fields));
  if (segment === undefined) return message(400, "Updates", NOT_A_FILTER, given.admin);
  const visit = { ...given, segment };
  const audienceOf = segment?.audience ?? null;
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
    const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
    const same = await withTimeout(findSameUpdate(updates, draft, audienceOf), visit.config.dbTimeoutMs);
    return same ? sameWords(visit, draft, same.id) : previewPage(visit, draft);
  }
  if (!visit.config.mail || !visit.mailer) {
    return composePage(visit, draft, { error: MAIL_OFF }, 400);
  }
  if (action === "test") {
    if (visit.admin === "token") return previewPage(visit, draft);
    const entry = await auditStart(visit.store.db, visit.admin, "update-test", { subject: draft.subject });
    try {
      // A real message to the admin alone; its unsubscribe link names no update, so it stops nothing, and its status
      // link names nobody (it opens the page that says how to get one). Its subject says it is a test
      // (TEST_SUBJECT_PREFIX), so nobody mistakes it in an inbox for the update itself.
      await visit.mailer.send(
        visit.admin,
        updateEmail(
          { ...draft, subject: `${TEST_SUBJECT_PREFIX}${draft.subject}` },
          {
            unsubscribe: `${visit.origin}/waitlist/unsubscribe?token=test`,
            status: `${visit.origin}/waitlist/status?token=test`,
            site: visit.origin,
            // On the site's domain like every update's, but its own each time: each test is a message of its own.
            messageId: `<test-${randomUUID()}@${new URL(visit.origin).hostname}>`,
          },
        ),
      );
    } catch (error) {
      const why = isRefusal(error) ? "refused it" : "could not be used";
      await entry.end({ sent: false });
      return previewPage(visit, draft, { error: `The test was not sent: the SMTP server ${why} (${reason(error)}).` });
    }
    await entry.end({ sent: true });
    log("info", "admin.update_test", { admin: visit.logId });
    return previewPage(visit, draft, { notice: `A test went to ${visit.admin} only.` });
  }
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
  const audience = await withTimeout(audienceCount(visit, draft), visit.config.dbTimeoutMs);
  if (action === "confirm") {
    // Words already started are that update (updates/start.ts): it is shown, not confirmed again.
    const same = await withTimeout(findSameUpdate(updates, draft, audienceOf), visit.config.dbTimeoutMs);
    if (same) return sameWords(visit, draft, same.id);
    if (audience === 0) return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    return confirmPage(visit, draft, audience);
  }
  if (action === "send") {
    const ticket = fields["ticket"] ?? "";
    if (!isTicket(ticket)) return message(400, "Updates", "Send from the preview's confirmation.", visit.admin);
    // The words are the update (updates/start.ts): a second confirmation, a second tab, a resubmitted page find
    // the update the first made, and go on with it; a finished one is shown, and nobody is sent it again.
    const same = await withTimeout(findSameUpdate(updates, draft, audienceOf), visit.config.dbTimeoutMs);
    if (!same && audience === 0)
      return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    const started =
      same ?? (await withTimeout(startUpdate(updates, draft, visit.logId, audienceOf), visit.config.dbTimeoutMs));
    if (!started.created && started.finished) return sameWords(visit, draft, started.id);
    return sendStep(visit, started.id);
  }
  if (action === "again") {
    const after = fields["after"] ?? "";
    if (!isId(after)) return message(400, "Updates", "That update does not exist.", visit.admin);
    const again = await withTimeout(
      sendAgain(updates, draft, visit.logId, Number(after), audienceOf),
      visit.config.dbTimeoutMs,
    );
    if (!again) return sameWords(visit, draft, Number(after));
    return sendStep(visit, again.id);
  }
  return message(400, "Updates", "Use the Updates page's buttons.", visit.admin);
}

/** The page for words already started: that update, finished or not, and the explicit "send it again". */
async function sameWords(visit: UpdateVisit, draft: Draft, id: number): Promise<Response> {
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
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
