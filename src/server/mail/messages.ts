/**
 * The e-mails the site sends one person (confirmation, removal link, invitation, status link, console sign-in), as
 * plain text and HTML that say the same words. The HTML is the site's family of templates (layout.ts: React Email's,
 * rendered at development time): the wordmark, the main action as a button, fine print small and muted, the
 * sign-off linking the site. No tracking: no pixels, no images, no redirects, links straight to the site. Nothing a
 * visitor typed appears in them (not even a name), so nobody can use the form to put words in an e-mail to someone
 * else.
 */

import { CONFIRM_TTL_DAYS, REMOVE_TTL_DAYS } from "../../lib/waitlist/consent";
import { SITE } from "../../site";
import { action, emailDocument, type Html, linked, type MailLink, note, paragraph, signOff } from "./layout";
import type { MailMessage } from "./mailer";

/**
 * One paragraph of the e-mail: its text, and at most one link: `button` (the e-mail's main action, one per
 * e-mail), or `link` on its own line; `small`: fine print, small and muted, its link too. In the text part, a
 * link is its address on the line below the words.
 */
interface Part {
  text: string;
  button?: MailLink;
  link?: MailLink;
  small?: boolean;
}

function block(part: Part): Html {
  if (part.button) return action(part.text, part.button);
  if (part.small) return note(part.text, part.link);
  return part.link ? linked(part.text, part.link) : paragraph(part.text);
}

/** Every e-mail greets the same way, then says its parts, then signs off. */
const GREETING: Part = { text: "Hello," };

function compose(subject: string, body: Part[], site: string): MailMessage {
  const parts = [GREETING, ...body];
  const lines = parts.map((p) => {
    const href = (p.button ?? p.link)?.href;
    return href ? `${p.text}\n${href}` : p.text;
  });
  const text = `${[...lines, signOff(site)].join("\n\n")}\n`;
  return { subject, text, html: emailDocument(subject, parts.map(block), site) };
}

/** What a reminder's subject (and its HTML's title) begins with: the same e-mail, sent once more (reminders/). */
export const REMINDER_PREFIX = "Reminder: ";

/** Sent to a new (pending) address: confirm it, or take it off the list. */
export function confirmationEmail(links: { confirm: string; remove: string; site: string }, prefix = ""): MailMessage {
  return compose(
    `${prefix}Confirm your place on the ${SITE.name} waitlist`,
    [
      {
        text: `Someone, we hope you, asked to join the ${SITE.name} waitlist with this address. Please confirm it:`,
        button: { label: "Confirm my place", href: links.confirm },
      },
      {
        text: `The link works for ${CONFIRM_TTL_DAYS} days. If it wasn't you, ignore this e-mail: an address that is never confirmed is deleted. To take it off the list now (this link works for ${REMOVE_TTL_DAYS} days):`,
        link: { label: "Remove this address", href: links.remove },
        small: true,
      },
    ],
    links.site,
  );
}

/** Sent to a listed address that asked for it on /waitlist/remove. */
export function removalEmail(links: { remove: string; site: string }): MailMessage {
  return compose(
    `Your link to leave the ${SITE.name} waitlist`,
    [
      {
        text: `Someone asked for a link to remove this address from the ${SITE.name} waitlist. To remove it:`,
        button: { label: "Remove this address", href: links.remove },
      },
      {
        text: `The link works for ${REMOVE_TTL_DAYS} days. If you did not ask for it, ignore this e-mail and you stay on the list.`,
        small: true,
      },
    ],
    links.site,
  );
}

/**
 * Sent to a person let in by a wave: their invite link, and the usual way off the list. Only someone who confirmed
 * their address by its link is told so: a person stored while e-mail was off never did (`confirmedByLink` false).
 */
export function invitationEmail(
  links: {
    access: string;
    remove: string;
    /** Their status page, which now shows them invited. */
    status?: string;
    site: string;
    ttlDays: number;
    confirmedByLink: boolean;
  },
  prefix = "",
): MailMessage {
  const why = links.confirmedByLink
    ? `You are receiving this because you joined the ${SITE.name} waitlist and confirmed your address.`
    : `You are receiving this because this address joined the ${SITE.name} waitlist.`;
  return compose(
    `${prefix}${SITE.name}: your early access is ready`,
    [
      {
        text: `Thank you for waiting: your early access to ${SITE.name} is ready. Create your account with this link (it works once, for ${links.ttlDays} days):`,
        button: { label: "Create my account", href: links.access },
      },
      ...(links.status
        ? [
            {
              text: "Your status page shows your invitation too:",
              link: { label: "My waitlist status", href: links.status },
            },
          ]
        : []),
      {
        text: `${why} To take it off the list:`,
        link: { label: "Remove this address", href: links.remove },
        small: true,
      },
    ],
    links.site,
  );
}

/**
 * Sent once a person has confirmed, and again when they ask for it: the private link to their place in line. The
 * link is theirs alone (whoever has it sees their place and share link), so it says so.
 */
export function statusEmail(links: { status: string; remove: string; site: string }): MailMessage {
  return compose(
    `Your place on the ${SITE.name} waitlist`,
    [
      {
        text: `Your address is confirmed on the ${SITE.name} waitlist. Your own page shows your place in line, and the link to share with friends; it works until you leave the list. Keep it to yourself:`,
        button: { label: "My place in line", href: links.status },
      },
      {
        text: "Not for you after all? You can leave the list from that page, or here:",
        link: { label: "Ask for a removal link", href: links.remove },
        small: true,
      },
    ],
    links.site,
  );
}

/** Sent to an address of ADMIN_EMAILS that asked to sign in to the console. */
export function consoleSignInEmail(links: { signIn: string; site: string; minutes: number }): MailMessage {
  return compose(
    `Sign in to the ${SITE.name} console`,
    [
      {
        text: `Someone, we hope you, asked to sign in to the ${SITE.name} waitlist console with this address. The link works once, for ${links.minutes} minutes:`,
        button: { label: "Sign in to the console", href: links.signIn },
      },
      { text: "If it wasn't you, ignore this e-mail: nobody can sign in without it.", small: true },
    ],
    links.site,
  );
}
