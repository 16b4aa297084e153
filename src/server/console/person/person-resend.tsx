/**
 * Sending an invited person's invitation again, on their page: the control says before it is pressed what it does
 * and that it works once; once used, the page says when instead of offering it. Pressed: person-resend-action.tsx.
 */

import { counted } from "../../../lib/plural";
import { MAILBOX_EMAILS_PER_DAY } from "../../../lib/waitlist/consent";
import { CONSOLE_PATHS } from "../paths";
import { utcMinute } from "../ui/time";
import type { PersonFile } from "./person-data";

/** When the team sent their invitation again (null: not yet). */
export const resentAt = (file: Pick<PersonFile, "reminders">) =>
  file.reminders.find((r) => r.kind === "resend")?.sentAt ?? null;

export const alreadySaid = (at: string) =>
  `Their invitation was sent again on ${utcMinute(at)} UTC. It goes again only once: write to them yourself if it still has not arrived.`;

/** The control among the person's actions: offered while they are invited and it has not been used. */
export function ResendButton({ file }: { file: PersonFile }) {
  if (file.row.status !== "invited" || resentAt(file)) return null;
  return (
    <form method="post" action={CONSOLE_PATHS.person} className="inline">
      <input type="hidden" name="id" value={file.row.id} />
      <button type="submit" name="action" value="resend-invitation" className="quiet" aria-describedby="resend-note">
        Resend the invitation
      </button>
    </form>
  );
}

/** Beneath the actions, for an invited person: what the control does, or when it was used. */
export function ResendNote({ file, ttlDays }: { file: PersonFile; ttlDays: number }) {
  if (file.row.status !== "invited") return null;
  const at = resentAt(file);
  return (
    <p className="note" id="resend-note">
      {at
        ? alreadySaid(at)
        : `Resend the invitation: once only, a new e-mail with a new code, good for at least ${counted(ttlDays, "day")}; the code in the first e-mail stops working. It counts toward their mailbox's ${MAILBOX_EMAILS_PER_DAY} e-mails a day.`}
    </p>
  );
}
