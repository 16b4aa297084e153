/**
 * The console's Updates area (src/server/updates/ sends them): write a subject and a plain text, preview the e-mail
 * and how many it reaches, send a test to yourself, then send after a confirmation. The confirmed send runs in the
 * background (src/server/jobs/), and the operator lands on its own page (jobs.ts: its bar, Pause, Resume, Cancel);
 * the list of past updates has their counts. Plain forms, no JavaScript; the draft travels in hidden fields between
 * the steps.
 */
import { randomUUID } from "node:crypto";
import { audit } from "../audit";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { log } from "../log";
import { isRefusal, reason } from "../mail/outcome";
import { checkDraft, createUpdateStore, NOBODY_TO_REACH, updateEmail } from "../updates";
import { jobPath, startJob } from "./jobs";
import { message } from "./pages";
import { composePage, confirmPage, previewPage, type UpdateVisit } from "./updates-page";

export type { UpdateVisit } from "./updates-page";

/**
 * What a step's form may carry: far past 100 KB of text percent-encoded (each byte of UTF-8 may take 3), so that
 * a body too long, pasted whole, gets the rule's own message with the draft kept rather than a refusal of the
 * request; under the platform's 6 MB for a function's request.
 */
export const UPDATES_MAX_BODY = 4 * 1024 * 1024;
const TICKET = /^[A-Za-z0-9_-]{22}$/;

/**
 * Update `id`, just made (or found again by its ticket: a second press), started in the background; the operator
 * goes to its page. A start the platform did not take is not lost: the every-minute scheduler starts it.
 */
async function startSend(visit: UpdateVisit, id: number, created: boolean): Promise<Response> {
  if (created) {
    await audit(visit.store.db, visit.admin, "update", { update: id, started: true });
    log("info", "admin.update_started", { admin: visit.logId, update: id });
  }
  await startJob(visit, "update", id);
  return seeOther(`${jobPath("update", id)}&done=started`);
}

export function updatesHome(visit: UpdateVisit): Promise<Response> {
  return composePage(visit);
}

/** POST /admin/updates: a step of writing and sending, named by `action`. */
export async function updatesAction(visit: UpdateVisit): Promise<Response> {
  const { fields } = visit;
  const action = fields["action"] ?? "preview";
  const typed = { subject: fields["subject"] ?? "", body: fields["body"] ?? "" };
  if (action === "edit") return composePage(visit, typed);
  const checked = checkDraft(typed.subject, typed.body);
  if ("problem" in checked) return composePage(visit, typed, { error: `${checked.problem} Nothing was sent.` }, 400);
  const { draft } = checked;
  if (action === "preview") return previewPage(visit, draft);
  if (!visit.config.mail || !visit.mailer) {
    return composePage(visit, draft, { error: "E-mail is off: set SMTP_URL and MAIL_FROM to send updates." }, 400);
  }
  if (action === "test") {
    if (visit.admin === "token") return previewPage(visit, draft);
    try {
      // A real message to the admin alone; its unsubscribe link names no update, so it stops nothing.
      await visit.mailer.send(
        visit.admin,
        updateEmail(draft, {
          unsubscribe: `${visit.origin}/waitlist/unsubscribe?token=test`,
          site: visit.origin,
          // On the site's domain like every update's, but its own each time: each test is a message of its own.
          messageId: `<test-${randomUUID()}@${new URL(visit.origin).hostname}>`,
        }),
      );
    } catch (error) {
      const why = isRefusal(error) ? "refused it" : "could not be used";
      return previewPage(visit, draft, `The test was not sent: the SMTP server ${why} (${reason(error)}).`);
    }
    log("info", "admin.update_test", { admin: visit.logId });
    return previewPage(visit, draft, `A test went to ${visit.admin} only.`);
  }
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
  const audience = await withTimeout(updates.audience(), visit.config.dbTimeoutMs);
  if (action === "confirm") {
    if (audience === 0) return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    return confirmPage(visit, draft, audience);
  }
  if (action === "send") {
    const ticket = fields["ticket"] ?? "";
    if (!TICKET.test(ticket)) return message(400, "Updates", "Send from the preview's confirmation.", visit.admin);
    if (audience === 0) return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    // A second press of one confirmation (its ticket) finds the update the first made, and sends nothing new.
    const made = await withTimeout(
      updates.create(draft.subject, draft.body, visit.logId, ticket),
      visit.config.dbTimeoutMs,
    );
    return startSend(visit, made.id, made.created);
  }
  return message(400, "Updates", "Use the Updates page's buttons.", visit.admin);
}
