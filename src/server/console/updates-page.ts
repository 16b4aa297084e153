/**
 * The Updates area's pages (updates.ts decides which a step answers with): compose, with the past updates; the
 * preview, with how many it reaches; the confirmation; a send's progress. Plain HTML; the draft rides in hidden
 * fields between the steps.
 */
import { counted } from "../../lib/plural";
import { escapeHtml as h } from "../http/form-page";
import { newTicket } from "../http/ticket";
import { withTimeout } from "../http/timeout";
import { bodyHtml, createUpdateStore, type Draft, NOBODY_TO_REACH, type PastUpdate, updateEmail } from "../updates";
import { type JobDeps, jobPath } from "./jobs";
import { CONSOLE_PATH, CONSOLE_PATHS, page } from "./pages";
import type { PersonVisit } from "./person";
import { reputationSection } from "./update-reputation";

/** How many past updates the compose page lists. */
const PAST = 20;

/** What a person's page is given, and how a confirmed send starts and who starts it. */
export interface UpdateVisit extends PersonVisit {
  /** How a confirmed send starts in the background (jobs.ts). */
  deps: JobDeps;
  logId: string;
}

const hidden = (draft: { subject: string; body: string }) =>
  `<input type="hidden" name="subject" value="${h(draft.subject)}"><input type="hidden" name="body" value="${h(draft.body)}">`;

function pastTable(past: PastUpdate[]): string {
  if (past.length === 0) return `<p class="note">No update has been sent yet.</p>`;
  const rows = past
    .map((u) => {
      const state =
        u.finished && u.remaining === 0
          ? "Sent"
          : `${u.finished ? "Cancelled" : `${counted(u.remaining, "person", "people")} to go`} <a href="${jobPath("update", u.id)}">Its page</a>`;
      return `<tr><td data-label="Started">${h(u.createdAt.slice(0, 16).replace("T", " "))}</td><td data-label="Subject">${h(u.subject)}</td><td data-label="Sent" class="n">${u.sent}</td><td data-label="Failed" class="n">${u.failed}</td><td data-label="Unsubscribed since" class="n">${u.unsubscribed}</td><td data-label="State">${state}</td></tr>`;
    })
    .join("");
  return `<div class="scroll"><table class="cards"><thead><tr><th scope="col">Started (UTC)</th><th scope="col">Subject</th><th scope="col" class="n">Sent</th><th scope="col" class="n">Failed</th><th scope="col" class="n">Unsubscribed since</th><th scope="col">State</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The Updates page: the form (with what was typed, and what is wrong with it) and the past updates. */
export async function composePage(
  visit: UpdateVisit,
  draft: { subject: string; body: string } = { subject: "", body: "" },
  note: { error?: string; notice?: string } = {},
  status = 200,
): Promise<Response> {
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
  const [audience, past] = await withTimeout(
    Promise.all([updates.audience(), updates.list(PAST)]),
    visit.config.dbTimeoutMs,
  );
  const error = note.error ? `<p class="error" role="alert">${h(note.error)}</p>` : "";
  const notice = note.notice ? `<p class="notice" role="status">${h(note.notice)}</p>` : "";
  const mail = visit.config.mail
    ? ""
    : `<p class="error">E-mail is off: set SMTP_URL and MAIL_FROM to send updates.</p>`;
  return page(
    status,
    "Updates",
    `<h1>Updates</h1>${notice}${mail}
<section aria-labelledby="write"><h2 id="write">Write an update</h2>${error}
<p class="note">To the ${counted(audience, "confirmed person", "confirmed people")} who said yes to updates. Plain text: a blank line starts a paragraph, and links are made clickable. Every update ends with a "Stop these updates" link.</p>
<form method="post" action="${CONSOLE_PATHS.updates}"><input type="hidden" name="action" value="preview">
<p><label for="subject">Subject</label><input id="subject" name="subject" type="text" maxlength="200" required value="${h(draft.subject)}"></p>
<p><label for="body">Text</label><textarea id="body" name="body" required rows="14">${h(draft.body)}</textarea></p>
<div class="row"><button type="submit">Preview</button></div></form></section>
<section aria-labelledby="past"><h2 id="past">Past updates</h2>${pastTable(past)}</section>
${await reputationSection(visit.store, visit.config, past)}
<p><a href="${CONSOLE_PATH}">Back to the console</a></p>`,
    visit.admin,
  );
}

/** The e-mail as a recipient will see it, how many it reaches, and the next steps. */
export async function previewPage(visit: UpdateVisit, draft: Draft, notice = ""): Promise<Response> {
  const updates = createUpdateStore(visit.store.db, visit.store.dataKeys);
  const audience = await withTimeout(updates.audience(), visit.config.dbTimeoutMs);
  const sample = updateEmail(draft, {
    unsubscribe: `${visit.origin}/waitlist/unsubscribe?token=…`,
    status: `${visit.origin}/waitlist/status?token=…`,
    site: visit.origin,
    messageId: "",
  });
  const reach =
    audience === 0
      ? `<p class="error" role="alert">${h(NOBODY_TO_REACH)}</p>`
      : `<p>It will reach <strong>${counted(audience, "person", "people")}</strong>: everyone confirmed who said yes to updates.</p>`;
  const send =
    audience === 0
      ? ""
      : `<button type="submit" name="action" value="confirm">Send to ${counted(audience, "person", "people")}…</button>`;
  const test =
    visit.admin === "token"
      ? ""
      : `<button type="submit" name="action" value="test" class="quiet">Send a test to me</button>`;
  const footer = sample.text.slice(draft.body.length).trim();
  return page(
    200,
    "Preview the update",
    `<h1>Preview the update</h1>${notice ? `<p class="notice" role="status">${h(notice)}</p>` : ""}
<section aria-labelledby="reach"><h2 id="reach">Who gets it</h2>${reach}</section>
<section aria-labelledby="email"><h2 id="email">The e-mail</h2>
<p><strong>Subject:</strong> ${h(draft.subject)}</p>
<div class="mail">${bodyHtml(draft.body, false)}<p class="note">${h(footer).replaceAll("\n", "<br>")}</p></div>
<details><summary>The plain-text part</summary><pre>${h(sample.text)}</pre></details>
<p class="note">Sent with List-Unsubscribe (one click, RFC 8058) and a Message-ID on ${h(new URL(visit.origin).hostname)}; no images, no tracking, links as written.</p></section>
<form method="post" action="${CONSOLE_PATHS.updates}">${hidden(draft)}
<div class="row">${send}${test}<button type="submit" name="action" value="edit" class="quiet">Edit</button></div></form>`,
    visit.admin,
  );
}

export function confirmPage(visit: UpdateVisit, draft: Draft, audience: number): Response {
  return page(
    200,
    "Send the update",
    `<h1>Send the update</h1><section><p>Send “${h(draft.subject)}” to ${counted(audience, "person", "people")} now? This cannot be undone.</p>
<form method="post" action="${CONSOLE_PATHS.updates}">${hidden(draft)}<input type="hidden" name="ticket" value="${newTicket()}">
<div class="row"><button type="submit" name="action" value="send">Send now</button><button type="submit" name="action" value="preview" class="quiet">Back to the preview</button></div></form></section>`,
    visit.admin,
  );
}

/**
 * Words already started (updates/start.ts): that update, never a new one. Finished: when, how many were sent it,
 * and the explicit choice to send the same words to those who have not received them (if anyone is left). Not
 * finished: where it stands, and a link to its own page (it runs in the background).
 */
export function alreadyPage(
  visit: UpdateVisit,
  draft: Draft,
  same: { id: number; finished: boolean; since: Date | null; sent: number; remaining: number; latest: boolean },
  left: number,
): Response {
  const day = same.since ? same.since.toISOString().slice(0, 16).replace("T", " ") : "";
  const state = same.finished
    ? `<p class="notice" role="status">“${h(draft.subject)}” with this text was already sent: started ${h(day)} (UTC), ${counted(same.sent, "person", "people")} sent it. Nobody was sent it again.</p>`
    : `<p class="notice" role="status">“${h(draft.subject)}” with this text is already being sent: started ${h(day)} (UTC), ${counted(same.sent, "person", "people")} sent it so far, ${counted(same.remaining, "person", "people")} to go. Nobody is sent it twice.</p>
<p><a href="${jobPath("update", same.id)}">Its progress</a></p>`;
  const again =
    same.finished && same.latest && left > 0
      ? `<section aria-labelledby="again"><h2 id="again">Send it again</h2><p>${counted(left, "person", "people")} who said yes to updates ${left === 1 ? "has" : "have"} not received these words (their message failed, or they joined since). Sending it again reaches only them.</p>
<form method="post" action="${CONSOLE_PATHS.updates}">${hidden(draft)}<input type="hidden" name="after" value="${same.id}">
<div class="row"><button type="submit" name="action" value="again">Send it again to ${counted(left, "person", "people")}</button></div></form></section>`
      : same.finished && left === 0
        ? `<p class="note">Everyone who said yes to updates has received these words. To write to them again, change the subject or the text.</p>`
        : "";
  return page(
    200,
    "Already sent",
    `<h1>${same.finished ? "Already sent" : "Already being sent"}</h1><section>${state}</section>${again}<p><a href="${CONSOLE_PATHS.updates}">Back to Updates</a></p>`,
    visit.admin,
  );
}
