/**
 * A person's life on the list as one timeline, oldest first, from their records: signed up, confirmed, reminded,
 * each referral of theirs that counted and each taken back, their updates choice, the updates they were sent,
 * invited, joined, their mailbox stopped and let again. It says what their webhooks said (webhooks/events.ts),
 * from the records themselves, so it is whole whether webhooks were on or not: a referral counted is a
 * waitlist.referred, one taken back a waitlist.referral_revoked, a "no" to updates a waitlist.unsubscribed.
 * Beside it, the latest of those webhook events themselves, in the same words, with their delivery.
 */
import type { ReactNode } from "react";
import { counted } from "../../../lib/plural";
import type { EventRow } from "../../webhooks";
import { StateBadge, type Tone } from "../jobs/job-parts";
import { CONSOLE_PATHS } from "../paths";
import { Ident } from "../ui/parts";
import { CardTable, Head } from "../ui/table";
import { utcMinute } from "../ui/time";
import { updatesStep } from "./consent-words";
import { REASONS } from "./mail-standing";
import type { PersonFile } from "./person-data";

/** One step: when (ISO), and what happened, in words (with links to the people it names). */
export interface Step {
  at: string;
  what: ReactNode;
}

export const personHref = (id: number) => `${CONSOLE_PATHS.person}?id=${id}`;

const UPDATE_STATES: Record<string, (subject: string) => string> = {
  sent: (s) => `Sent the update “${s}”`,
  attempted: (s) => `Sent the update “${s}” (the SMTP server's answer was lost)`,
  failed: (s) => `The update “${s}” could not be sent: the SMTP server refused it`,
  skipped: (s) => `Left out of the update “${s}”: they had stopped updates or left first`,
};

/** An e-mail sent again (mail_reminder's kinds): by the scheduled reminders, or by the team (`resend`). */
const REMINDED: Record<string, string> = {
  confirm: "Reminded to confirm their address",
  invite: "Reminded of their invitation",
  resend: "Sent their invitation again (by the team)",
};

/** The steps, oldest first (steps at the same minute keep the order of a life: signed up before confirmed). */
export function timelineOf(file: PersonFile): Step[] {
  const { row } = file;
  const steps: Array<Step | null> = [
    { at: row.createdAt, what: "Signed up" },
    row.confirmedAt ? { at: row.confirmedAt, what: "Confirmed their address" } : null,
    ...file.reminders.map((r) => ({
      at: r.sentAt,
      what: REMINDED[r.kind] ?? "Reminded of their invitation",
    })),
    ...file.counted.map((c) => ({
      at: c.countedAt,
      what: (
        <>
          A referral of theirs counted:{" "}
          <a href={personHref(c.id)}>
            <Ident text={c.email} />
          </a>{" "}
          confirmed
        </>
      ),
    })),
    ...file.revoked.flatMap((r) => [
      r.countedAt ? { at: r.countedAt, what: "A referral of theirs counted (that person has since left)" } : null,
      { at: r.revokedAt, what: "A referral of theirs was taken back: the person they brought left the list" },
    ]),
    row.updatesConsent !== null && row.updatesConsentAt
      ? { at: row.updatesConsentAt, what: updatesStep(row.updatesConsent, row.updatesConsentWords) }
      : null,
    ...file.updates.map((u) =>
      u.doneAt ? { at: u.doneAt, what: (UPDATE_STATES[u.state] ?? UPDATE_STATES["sent"])?.(u.subject) } : null,
    ),
    row.invitedAt ? { at: row.invitedAt, what: "Invited" } : null,
    row.joinedAt ? { at: row.joinedAt, what: "Joined the product" } : null,
    file.suppression
      ? { at: file.suppression.suppressedAt, what: `Mail to them stopped: ${REASONS[file.suppression.reason]}` }
      : null,
    file.suppression?.liftedAt
      ? {
          at: file.suppression.liftedAt,
          what: `Mail to them allowed again, lifted by ${file.suppression.liftedBy ?? "the team"}`,
        }
      : null,
  ];
  return steps
    .filter((s): s is Step => s !== null && s.at !== "")
    .map((step, order) => ({ step, order }))
    .sort((a, b) => a.step.at.localeCompare(b.step.at) || a.order - b.order)
    .map(({ step }) => step);
}

/** The timeline as the page shows it, with a word on referrals past those listed. */
export function Timeline({ file }: { file: PersonFile }) {
  const steps = timelineOf(file);
  const listed = file.counted.length;
  const more = Math.max(0, file.row.referrals - listed) + Math.max(0, file.revokedTotal - file.revoked.length);
  return (
    <>
      <ol className="timeline">
        {steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, rendered once on the server
          <li key={i}>
            <time dateTime={step.at}>{utcMinute(step.at)}</time> {step.what}
          </li>
        ))}
      </ol>
      {more > 0 ? (
        <p className="note">
          {`Only their latest referrals are listed: ${counted(more, "earlier one is", "earlier ones are")} not.`}
        </p>
      ) : null}
    </>
  );
}

/** A webhook event's type in words (webhooks/events.ts names them), the type itself beside it for the receivers. */
const EVENT_WORDS: Record<string, string> = {
  "waitlist.signed_up": "Signed up",
  "waitlist.confirmed": "Confirmed",
  "waitlist.invited": "Invited",
  "waitlist.joined": "Joined",
  "waitlist.unsubscribed": "Stopped updates",
  "waitlist.referred": "A referral counted",
  "waitlist.referral_revoked": "A referral taken back",
  "waitlist.removed": "Removed",
  "waitlist.suppressed": "Mail stopped",
};
const DELIVERY = {
  pending: ["Waiting", "muted"],
  delivered: ["Delivered", "good"],
  failed: ["Failed", "bad"],
} as const satisfies Record<EventRow["state"], readonly [string, Tone]>;

export function Events({ events }: { events: EventRow[] }) {
  if (events.length === 0) return <p className="note">No webhook events for this person.</p>;
  return (
    <CardTable>
      <Head columns={["Event", "At (UTC)", "Delivery"]} />
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td data-label="Event">
              {/* One box: on a phone the cell is a row of its label and this, not of each part. */}
              <div>
                {EVENT_WORDS[e.type] ?? e.type} <Ident code className="note" text={e.type} />
              </div>
            </td>
            <td data-label="At">{utcMinute(e.occurredAt)}</td>
            <td data-label="Delivery">
              <StateBadge tone={DELIVERY[e.state][1]}>{DELIVERY[e.state][0]}</StateBadge>{" "}
              {counted(e.attempts, "attempt")}
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}
