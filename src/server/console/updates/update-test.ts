/** Send a test: the update's e-mail to the admin alone, its subject marked, audited. */
import { randomUUID } from "node:crypto";
import { auditStart } from "../../audit";
import { log } from "../../log";
import type { Mailer } from "../../mail/mailer";
import { isRefusal, reason } from "../../mail/outcome";
import { type Draft, TEST_SUBJECT_PREFIX, updateEmail } from "../../updates";
import { previewPage } from "./update-preview";
import type { UpdateVisit } from "./updates-page";

export async function testStep(visit: UpdateVisit, draft: Draft, mailer: Mailer): Promise<Response> {
  // Signed in by the token, there is no admin address to send to: the preview again.
  if (visit.admin === "token") return previewPage(visit, draft);
  const entry = await auditStart(visit.store.db, visit.admin, "update-test", { subject: draft.subject });
  try {
    // A real message to the admin alone; its unsubscribe link names no update, so it stops nothing, and its status
    // link names nobody (it opens the page that says how to get one). Its subject says it is a test
    // (TEST_SUBJECT_PREFIX), so nobody mistakes it in an inbox for the update itself.
    await mailer.send(
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
