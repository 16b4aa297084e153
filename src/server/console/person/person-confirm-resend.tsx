/**
 * "Resend the confirmation" on a pending person's page: the control (held back, and saying why, while their address
 * is suppressed), the action (which says what became of the e-mail, never "went out" when it did not), and what the
 * page says after it. The audit entry records the same outcome (audit/words.ts reads it).
 */
import type { ReactNode } from "react";
import { MAILBOX_EMAILS_PER_DAY } from "../../../lib/waitlist/consent";
import { audit, auditStart } from "../../audit";
import { rootKey } from "../../crypto/keys";
import { seeOther } from "../../http/responses";
import { countedMailboxKey } from "../../mail/mailbox";
import type { SendOutcome } from "../../mail/send";
import { sendConfirmation } from "../../mail/send";
import { createSuppressionStore, type Suppression } from "../../suppression";
import type { PersonVisit } from "./person-data";
import { listKeysOfPerson } from "./person-data";
import { personHref } from "./person-timeline";

/** The Mail section's anchor on the person's page, where the suppression, its reason and its evidence are. */
const SUPPRESSION_ANCHOR = "#mail";

const isActive = (suppression: Suppression | null) => suppression !== null && suppression.liftedAt === null;

/** The button, disabled with its reason beside it while no e-mail may go to the address. */
export function ResendControl({ suppression }: { suppression: Suppression | null }) {
  const held = isActive(suppression);
  return (
    <>
      <button
        type="submit"
        name="action"
        value="resend"
        className="quiet"
        disabled={held}
        aria-describedby={held ? "resend-held" : undefined}
      >
        Resend the confirmation
      </button>
      {held ? (
        <span id="resend-held" className="note held">
          Not while the address is suppressed: <a href={SUPPRESSION_ANCHOR}>see the suppression</a>.
        </span>
      ) : null}
    </>
  );
}

/** The word in the page's address after a resend (`done=…`), per outcome. */
const DONE_WORD: Record<SendOutcome, string> = {
  sent: "resent",
  "not-due": "resend-not-due",
  "mailbox-limited": "resend-limited",
  suppressed: "resend-suppressed",
  failed: "resend-failed",
};

/** What the page says after a resend, by the word in its address: only "resent" is a success. */
export const RESEND_DONE: Record<string, { said: ReactNode; failed: boolean }> = {
  resent: { said: "A new confirmation went out.", failed: false },
  "resend-not-due": {
    said: "Not sent: a confirmation went out in the last 10 minutes, and its link still works.",
    failed: true,
  },
  "resend-limited": {
    said: `Not sent: this mailbox has had its ${MAILBOX_EMAILS_PER_DAY} e-mails for today. Try again tomorrow.`,
    failed: true,
  },
  "resend-suppressed": {
    said: (
      <>
        Not sent: this address is suppressed, so no e-mail goes to it until the suppression is lifted.{" "}
        <a href={SUPPRESSION_ANCHOR}>See the suppression</a>.
      </>
    ),
    failed: true,
  },
  "resend-failed": { said: "Not sent: the SMTP server did not take it. Try again in a few minutes.", failed: true },
};

/**
 * Sends a pending person their confirmation again, unless their address is suppressed (then nothing is tried, and
 * the log says so); the page it leads to says what became of it.
 */
export async function resendConfirmation(visit: PersonVisit, id: number, email: string): Promise<Response> {
  const { store, config, admin } = visit;
  const back = (outcome: SendOutcome) => seeOther(`${personHref(id)}&done=${DONE_WORD[outcome]}`);
  const keys = await listKeysOfPerson(store, email);
  if (isActive(await store.of(createSuppressionStore).get(keys))) {
    await audit(store.db, admin, "resend-confirmation", { person: id, outcome: "suppressed" });
    return back("suppressed");
  }
  const entry = await auditStart(store.db, admin, "resend-confirmation", { person: id });
  const root = await rootKey(config, store);
  const to = { email, site: visit.origin, mailboxKey: countedMailboxKey(root, email) };
  const outcome = await sendConfirmation(store.consent, visit.mailer as NonNullable<PersonVisit["mailer"]>, to);
  await entry.end({ person: id, outcome });
  return back(outcome);
}
