/**
 * Every e-mail the site sends, made by the server's own code with sample links: what scripts/email-pictures.ts
 * draws into docs/emails/, and what tests/unit/email-templates.test.ts reads (text and HTML saying the same words).
 */
import type { MailMessage } from "../../src/server/mail/mailer";
import {
  confirmationEmail,
  consoleSignInEmail,
  invitationEmail,
  removalEmail,
  statusEmail,
} from "../../src/server/mail/messages";
import { updateEmail } from "../../src/server/updates/message";
import { SITE } from "../../src/site";

const site = SITE.url;
/** A token's shape (43 characters), not a working one. */
const token = (seed: string) => seed.repeat(43).slice(0, 43);

export interface EmailSample {
  /** The file name of its pictures (docs/emails/<name>-<width>.png). */
  name: string;
  /** What it is, for docs/emails/README.md. */
  about: string;
  message: MailMessage;
}

export const EMAIL_SAMPLES: EmailSample[] = [
  {
    name: "confirmation",
    about: "to a new sign-up: confirm the address (a reminder is the same e-mail, its subject saying so)",
    message: confirmationEmail({
      confirm: `${site}/waitlist/confirm?token=${token("Cf3")}`,
      remove: `${site}/waitlist/leave?token=${token("Rm7")}`,
      site,
    }),
  },
  {
    name: "removal",
    about: "to an address that asked for a way off the list (/waitlist/remove)",
    message: removalEmail({ remove: `${site}/waitlist/leave?token=${token("Rm7")}`, site }),
  },
  {
    name: "status",
    about: "once confirmed, and when asked for again (/waitlist/link): the private link to one's place in line",
    message: statusEmail({
      status: `${site}/waitlist/status?token=${token("St5")}`,
      remove: `${site}/waitlist/remove`,
      site,
    }),
  },
  {
    name: "invitation",
    about: "to a person a wave lets in: the early access link (its reminder is the same, its subject saying so)",
    message: invitationEmail({
      access: `https://app.noosphere.app/signup?invite=${token("Iv9").slice(0, 27)}`,
      remove: `${site}/waitlist/leave?token=${token("Rm7")}`,
      status: `${site}/waitlist/status?token=${token("St5")}`,
      site,
      ttlDays: 30,
      confirmedByLink: true,
    }),
  },
  {
    name: "console-sign-in",
    about: "to an address of ADMIN_EMAILS: the console's sign-in link",
    message: consoleSignInEmail({ signIn: `${site}/admin/sign-in/confirm?token=${token("Sg2")}`, site, minutes: 15 }),
  },
  {
    name: "update",
    about: "an update to the list, written in the console: the team's text, the reader's status page, a way to stop",
    message: updateEmail(
      {
        subject: "What we built in March",
        body: `Hello from the team!\n\nThe graph view is ready: ${site}/product.\nMore people get in by May.\n\nThank you for waiting with us.`,
      },
      {
        unsubscribe: `${site}/waitlist/unsubscribe?token=${token("Us4")}`,
        status: `${site}/waitlist/status?token=${token("Dv8")}`,
        site,
        messageId: `<sample@${new URL(site).hostname}>`,
      },
    ),
  },
];
