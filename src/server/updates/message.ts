/**
 * An update as an e-mail: the team's plain text as written, and an HTML part made from it in the site's templates
 * (mail/layout.ts: paragraphs, line breaks, links made clickable; nothing else, no images, no tracking, links left
 * as written), the product's name from src/site.ts, a link to the reader's own status page (referrals/
 * status-token.ts), and what RFC 8058 asks of a message to a list: a List-Unsubscribe URL of the site that works by
 * one POST, List-Unsubscribe-Post, a visible "Stop these updates" link, and a Message-ID on the site's domain.
 *
 * Each recipient's unsubscribe token and Message-ID are derived from the update and the person under the database's
 * own secret (`updatesKey`, src/server/crypto/keys.ts: never SERVER_SECRET, which a process may or may not have,
 * so a link made by the CLI works on the site), never stored: a message sent again is the same message, with the same Message-ID.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { SITE } from "../../site";
import { derivedHmacKey, type RootKey } from "../crypto/secret";
import { escapeHtml } from "../http/form-page";
import { emailDocument, fill, note, rule, signOff, smallLinks } from "../mail/layout";
import type { MailMessage } from "../mail/mailer";

/** The key of every update's tokens and Message-IDs: the database's secret (crypto/keys.ts says why). */
export { updatesKey } from "../crypto/keys";

import { UPDATES_PATHS } from "./consent";
import type { Draft } from "./rules";

const ID_BYTES = 8;
const MAC_BYTES = 16;

const mac = (root: RootKey, purpose: string, update: number, person: number) =>
  createHmac("sha256", derivedHmacKey(root, purpose)).update(`${update}.${person}`).digest();

/** Person `person`'s unsubscribe token for update `update`: their ids and a MAC (43 characters, base64url). */
export function unsubscribeToken(root: RootKey, update: number, person: number): string {
  const ids = Buffer.alloc(ID_BYTES * 2);
  ids.writeBigUInt64BE(BigInt(update), 0);
  ids.writeBigUInt64BE(BigInt(person), ID_BYTES);
  return Buffer.concat([ids, mac(root, "unsubscribe", update, person).subarray(0, MAC_BYTES)]).toString("base64url");
}

/** The update and person a token names, when its MAC is the server's; null for anything else. */
export function readUnsubscribeToken(root: RootKey, token: string): { update: number; person: number } | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== ID_BYTES * 2 + MAC_BYTES) return null;
  const update = Number(bytes.readBigUInt64BE(0));
  const person = Number(bytes.readBigUInt64BE(ID_BYTES));
  const expected = mac(root, "unsubscribe", update, person).subarray(0, MAC_BYTES);
  return timingSafeEqual(expected, bytes.subarray(ID_BYTES * 2)) ? { update, person } : null;
}

/** The message's id on the site's domain, the same each time this person is sent this update. */
export const messageId = (root: RootKey, site: string, update: number, person: number) =>
  `<${mac(root, "message-id", update, person).subarray(0, 18).toString("base64url")}@${new URL(site).hostname}>`;

/** A link in an update's text, as written. */
export const LINK = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'"]/g;

/** Escaped text with its http(s) links made clickable, as written (no redirect, nothing added). */
const linked = (text: string) => {
  let html = "";
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    html += escapeHtml(text.slice(at, match.index));
    html += fill("bodyLink", { href: match[0], label: match[0] }).html;
    at = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(at));
};

/**
 * The body's paragraphs (blank lines) with their line breaks, as HTML in the e-mails' templates, with the inline
 * styles mail clients need (the console shows the same HTML in frames: console/updates/update-mail.tsx).
 */
export const bodyHtml = (body: string) =>
  body
    .split(/\n{2,}/)
    .map((paragraph) => {
      const lines = paragraph.split("\n").map(linked).join("<br>");
      return fill("bodyParagraph", { content: { html: lines } }).html;
    })
    .join("\n");

export const why = `You are receiving this because you asked for updates when you joined the ${SITE.name} waitlist.`;

/** What a test update's subject begins with ("Send a test to me", the console's). */
export const TEST_SUBJECT_PREFIX = "[Test] ";

/** The words of an update's two links: the HTML's link, the text part's "Your place in line: <address>". */
const STATUS_LABEL = "Your place in line";
const STOP_LABEL = "Stop these updates";

/**
 * The e-mail of `draft` for one recipient: `unsubscribe` stops their updates, `status` is their own status page
 * (statusPageLink; a sample in the console's preview and test).
 */
export function updateEmail(
  draft: Draft,
  links: { unsubscribe: string; status: string; site: string; messageId: string },
): MailMessage {
  const text = `${draft.body}\n\n--\n${why}\n${STATUS_LABEL}: ${links.status}\n${STOP_LABEL}: ${links.unsubscribe}\n\n${signOff(links.site)}\n`;
  const html = emailDocument(
    draft.subject,
    [
      { html: bodyHtml(draft.body) },
      rule(),
      note(why),
      smallLinks([
        { label: STATUS_LABEL, href: links.status },
        { label: STOP_LABEL, href: links.unsubscribe, quiet: true },
      ]),
    ],
    links.site,
  );
  return {
    subject: draft.subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${links.unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    messageId: links.messageId,
  };
}

/** The unsubscribe URL of a token. */
export const unsubscribeLink = (site: string, token: string) => `${site}${UPDATES_PATHS.unsubscribe}?token=${token}`;
