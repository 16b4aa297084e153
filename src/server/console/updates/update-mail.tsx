/**
 * An update's e-mail as it will arrive, in the console: the very HTML the mailer sends (updateEmail), served on a
 * page of its own (GET /admin/updates/mail?draft=… for words previewed, ?update=… for one started) and shown in
 * sandboxed frames at a phone's and a computer's width, with its plain-text part a click away.
 *
 * Why a frame of its own page, not the e-mail's markup in the console's: the e-mail's HTML carries the inline styles
 * mail clients need, which the console's CSP refuses (no 'unsafe-inline'); an <iframe srcdoc> would inherit that
 * CSP. Its own page has its own CSP: inline styles allowed, nothing else loads (no script, image, font or form),
 * `sandbox` (an opaque origin: it can reach neither the console nor its cookie), framed by the console only
 * (frame-ancestors 'self'); links open in a new tab, outside the sandbox, as a mail client opens them.
 */

import type { Db } from "../../db/types";
import { isId } from "../../http/limits";
import { withTimeout } from "../../http/timeout";
import { createUpdateStore, type Draft, readDraft, updateEmail } from "../../updates";
import { message } from "../pages";
import { CONSOLE_PATHS, consoleHref } from "../paths";
import { CONSOLE_HEADERS } from "../ui/render";

/** What the frames' page may do: show the e-mail with its styles, and open its links outside the sandbox. */
export const MAIL_FRAME_SANDBOX = "allow-popups allow-popups-to-escape-sandbox";

export const MAIL_FRAME_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  `sandbox ${MAIL_FRAME_SANDBOX}`,
].join("; ");

/** The e-mail of `draft` as a person would get it, with sample links (a preview names nobody). */
export const sampleEmail = (draft: Draft, origin: string) =>
  updateEmail(draft, {
    unsubscribe: `${origin}/waitlist/unsubscribe?token=…`,
    status: `${origin}/waitlist/status?token=…`,
    site: origin,
    messageId: "",
  });

/** Where a draft's (by its key) or a started update's (by its id) e-mail is served. */
export const mailHref = (of: { draft: string } | { update: number }) => consoleHref(CONSOLE_PATHS.updateMail, of);

/** GET /admin/updates/mail: the e-mail's HTML, alone, under its own CSP. */
export async function updateMail(
  visit: { db: Db; dbTimeoutMs: number; admin: string; origin: string },
  params: URLSearchParams,
): Promise<Response> {
  const draftKey = params.get("draft");
  const update = params.get("update") ?? "";
  const find = async (): Promise<Draft | null> => {
    if (draftKey !== null) return readDraft(visit.db, draftKey);
    if (!isId(update)) return null;
    const row = await createUpdateStore(visit.db, null).get(Number(update), 0);
    return row ? { subject: row.subject, body: row.body } : null;
  };
  const draft = await withTimeout(find(), visit.dbTimeoutMs);
  if (!draft) return message(404, "Not found", "There is no such update or preview.", visit.admin);
  return new Response(sampleEmail(draft, visit.origin).html, {
    status: 200,
    headers: {
      ...CONSOLE_HEADERS,
      "Content-Security-Policy": MAIL_FRAME_CSP,
      "X-Frame-Options": "SAMEORIGIN",
    },
  });
}
