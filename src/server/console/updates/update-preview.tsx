/**
 * The update's preview (the Updates area's second step) and the question after it: how many it reaches, the
 * e-mail as it will arrive (the mailer's own HTML, in frames at a phone's and a computer's width: mail-frames.tsx,
 * its plain-text part a click away), then a test to yourself first, Send (which asks once more: confirmPage), or
 * Edit. The draft is kept for the frames' page (updates/drafts.ts), by its words.
 */
import { counted } from "../../../lib/plural";
import { newTicket } from "../../http/ticket";
import { withTimeout } from "../../http/timeout";
import { type Draft, NOBODY_TO_REACH, saveDraft } from "../../updates";
import { CONSOLE_PATHS, page } from "../pages";
import { Notice, Section } from "../ui/parts";
import { MailFrames } from "./mail-frames";
import { mailHref } from "./update-mail";
import { among, audienceCount, DraftFields, IN_UPDATES, type UpdateVisit } from "./updates-page";

/**
 * The e-mail as a recipient will see it, how many it reaches, and the next steps; `said`: what a test just did
 * (sent, or why not).
 */
export async function previewPage(
  visit: UpdateVisit,
  draft: Draft,
  said: { notice?: string; error?: string } = {},
): Promise<Response> {
  const [audience, key] = await withTimeout(
    Promise.all([audienceCount(visit, draft), saveDraft(visit.store.db, draft)]),
    visit.config.dbTimeoutMs,
  );
  const reach = counted(audience, "person", "people");
  return page(
    200,
    "Preview the update",
    <>
      <h1>Preview the update</h1>
      {said.notice ? <Notice>{said.notice}</Notice> : null}
      {said.error ? <Notice tone="error">{said.error}</Notice> : null}
      <Section id="reach" title="Who gets it">
        {audience === 0 ? (
          <Notice tone="error">{NOBODY_TO_REACH}</Notice>
        ) : (
          <p>
            It will reach <strong>{reach}</strong>: everyone confirmed{among(visit)} who said yes to updates.
          </p>
        )}
      </Section>
      <Section id="email" title="The e-mail">
        <MailFrames src={mailHref({ draft: key })} draft={draft} origin={visit.origin} />
        <p className="note">
          {`Sent with a one-click unsubscribe (List-Unsubscribe, RFC 8058) and a Message-ID on ${new URL(visit.origin).hostname}; no images, no tracking, links as written.`}
        </p>
      </Section>
      <form method="post" action={CONSOLE_PATHS.updates}>
        <DraftFields draft={draft} segment={visit.segment} />
        <div className="row">
          {visit.admin === "token" ? null : (
            <button type="submit" name="action" value="test" className="quiet">
              Send a test to me
            </button>
          )}
          {audience === 0 ? null : (
            <button type="submit" name="action" value="confirm">
              {`Send to ${reach}…`}
            </button>
          )}
          <button type="submit" name="action" value="edit" className="quiet">
            Edit
          </button>
        </div>
      </form>
    </>,
    visit.admin,
    {},
    IN_UPDATES,
  );
}

/** The last question before sending: the subject, how many, and that it cannot be undone. */
export function confirmPage(visit: UpdateVisit, draft: Draft, audience: number): Response {
  return page(
    200,
    "Send the update",
    <>
      <h1>Send the update</h1>
      <Section id="send-what" title="This cannot be undone">
        <p>{`Send “${draft.subject}” to ${counted(audience, "person", "people")}${among(visit)} now? This cannot be undone.`}</p>
        <form method="post" action={CONSOLE_PATHS.updates}>
          <DraftFields draft={draft} segment={visit.segment} />
          <input type="hidden" name="ticket" value={newTicket()} />
          <div className="row">
            <button type="submit" name="action" value="send">
              Send now
            </button>
            <button type="submit" name="action" value="preview" className="quiet">
              Back to the preview
            </button>
          </div>
        </form>
      </Section>
    </>,
    visit.admin,
    {},
    IN_UPDATES,
  );
}
