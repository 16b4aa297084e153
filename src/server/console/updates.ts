/**
 * The console's Updates area (src/server/updates/ sends them): write a subject and a plain text, preview the e-mail
 * and how many it reaches, send a test to yourself, then send after a confirmation. A send runs in slices like a
 * wave (a function call ends within Netlify's 60 s) and shows its progress with a Continue button; the list of past
 * updates has their counts. Plain forms, no JavaScript; the draft travels in hidden fields between the steps.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { audit } from "../audit";
import { isId } from "../http/limits";
import { isTicket } from "../http/ticket";
import { withTimeout } from "../http/timeout";
import { log } from "../log";
import { isRefusal, reason } from "../mail/outcome";
import { runOwner } from "../run/owner";
import { checkDraft, createUpdateStore, NOBODY_TO_REACH, sendUpdate, updateEmail, updatesKey } from "../updates";
import { message } from "./pages";
import { composePage, confirmPage, previewPage, progressPage, type UpdateVisit } from "./updates-page";

export type { UpdateVisit } from "./updates-page";

/**
 * What a step's form may carry: far past 100 KB of text percent-encoded (each byte of UTF-8 may take 3), so that
 * a body too long, pasted whole, gets the rule's own message with the draft kept rather than a refusal of the
 * request; under the platform's 6 MB for a function's request.
 */
export const UPDATES_MAX_BODY = 4 * 1024 * 1024;

/** One run's share of update `id`, as a page. */
async function sendStep(visit: UpdateVisit, id: number): Promise<Response> {
  if (!visit.mailer)
    return message(400, "Updates", "E-mail is off: set SMTP_URL and MAIL_FROM to send updates.", visit.admin);
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
  const report = await sendUpdate(id, {
    updates,
    mailer: visit.mailer,
    root: await updatesKey(visit.store),
    site: visit.origin,
    owner: runOwner(`console-${randomBytes(4).toString("hex")}`),
    slice: visit.slice,
    ratePerSecond: visit.config.mailRatePerSecond,
  });
  if (!report) {
    return message(
      409,
      "Updates",
      "This update is being sent by another run right now, or is finished. Its progress is on the Updates page.",
      visit.admin,
    );
  }
  await audit(visit.store.db, visit.admin, "update", {
    update: id,
    sent: report.sent,
    failed: report.failed,
    remaining: report.remaining,
  });
  log("info", "admin.update_sent", {
    admin: visit.logId,
    update: id,
    sent: report.sent,
    failed: report.failed,
    remaining: report.remaining,
  });
  return progressPage(visit, id, report);
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
    if (!isTicket(ticket)) return message(400, "Updates", "Send from the preview's confirmation.", visit.admin);
    if (audience === 0) return composePage(visit, draft, { error: `${NOBODY_TO_REACH} Nothing was sent.` }, 400);
    // A second press of one confirmation (its ticket) finds the update the first made, and sends nothing new.
    const made = await withTimeout(
      updates.create(draft.subject, draft.body, visit.logId, ticket),
      visit.config.dbTimeoutMs,
    );
    return sendStep(visit, made.id);
  }
  return message(400, "Updates", "Use the Updates page's buttons.", visit.admin);
}

/** POST /admin/updates/continue: the next step of a paused (or dead) send. */
export async function continueUpdate(visit: UpdateVisit): Promise<Response> {
  const id = visit.fields["id"] ?? "";
  if (!isId(id)) return message(400, "Updates", "That update does not exist.", visit.admin);
  return sendStep(visit, Number(id));
}
