/**
 * The update's preview (the Updates area's second step) and the question after it: how many it reaches, the
 * e-mail as a recipient will see it (its paragraphs, line breaks and links made clickable by the e-mail's own
 * rule, BODY_LINK; its footer; the plain-text part), then Send (which asks once more: confirmPage), a test to
 * yourself, or Edit. Built from elements like every console page: the e-mail's HTML part carries inline styles the
 * console's CSP refuses, so the preview lays out the same text here.
 */
import { Fragment, type ReactNode } from "react";
import { counted } from "../../lib/plural";
import { newTicket } from "../http/ticket";
import { withTimeout } from "../http/timeout";
import { BODY_LINK, type Draft, NOBODY_TO_REACH, updateEmail } from "../updates";
import { CONSOLE_PATHS, page } from "./pages";
import { Notice, Section } from "./ui/parts";
import { among, audienceCount, DraftFields, IN_UPDATES, type UpdateVisit } from "./updates-page";

/** One line of text with its links clickable, as written (no redirect, nothing added). */
function Linked({ line }: { line: string }) {
  const pieces: ReactNode[] = [];
  let at = 0;
  for (const match of line.matchAll(new RegExp(BODY_LINK))) {
    pieces.push(line.slice(at, match.index));
    pieces.push(
      <a key={match.index} href={match[0]}>
        {match[0]}
      </a>,
    );
    at = match.index + match[0].length;
  }
  pieces.push(line.slice(at));
  return <>{pieces}</>;
}

/** Lines with line breaks between them; `links`: made clickable, as the body's are (the footer's are not). */
function Lines({ text, links = true }: { text: string; links?: boolean }) {
  return (
    <>
      {text.split("\n").map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, rendered once on the server
        <Fragment key={i}>
          {i > 0 ? <br /> : null}
          {links ? <Linked line={line} /> : line}
        </Fragment>
      ))}
    </>
  );
}

/** The body as the e-mail's HTML part lays it out: a paragraph per blank line (bodyHtml in updates/message.ts). */
function MailBody({ body }: { body: string }) {
  return (
    <>
      {body.split(/\n{2,}/).map((paragraph, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one text, rendered once on the server
        <p key={i}>
          <Lines text={paragraph} />
        </p>
      ))}
    </>
  );
}

/**
 * The e-mail as a recipient will see it, how many it reaches, and the next steps; `said`: what a test just did
 * (sent, or why not).
 */
export async function previewPage(
  visit: UpdateVisit,
  draft: Draft,
  said: { notice?: string; error?: string } = {},
): Promise<Response> {
  const audience = await withTimeout(audienceCount(visit, draft), visit.config.dbTimeoutMs);
  const sample = updateEmail(draft, {
    unsubscribe: `${visit.origin}/waitlist/unsubscribe?token=…`,
    status: `${visit.origin}/waitlist/status?token=…`,
    site: visit.origin,
    messageId: "",
  });
  const footer = sample.text.slice(draft.body.length).trim();
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
        <p>
          <strong>Subject:</strong> {draft.subject}
        </p>
        <div className="mail">
          <MailBody body={draft.body} />
          <p className="note">
            <Lines text={footer} links={false} />
          </p>
        </div>
        <details>
          <summary>The plain-text part</summary>
          <pre>{sample.text}</pre>
        </details>
        <p className="note">
          {`Sent with a one-click unsubscribe (List-Unsubscribe, RFC 8058) and a Message-ID on ${new URL(visit.origin).hostname}; no images, no tracking, links as written.`}
        </p>
      </Section>
      <form method="post" action={CONSOLE_PATHS.updates}>
        <DraftFields draft={draft} segment={visit.segment} />
        <div className="row">
          {audience === 0 ? null : (
            <button type="submit" name="action" value="confirm">
              {`Send to ${reach}…`}
            </button>
          )}
          {visit.admin === "token" ? null : (
            <button type="submit" name="action" value="test" className="quiet">
              Send a test to me
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
