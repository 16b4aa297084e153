/**
 * A page per person (GET /admin/person?id=N, from the list or a search): their status as a badge, their answers,
 * where they came from and who brought them, their share code and referrals, what they agreed to (in words: the
 * terms by their date, updates by how they chose), their whole timeline (person-timeline.tsx), their standing with
 * the mail (mail-standing.tsx) and their latest webhook events; and what the team may do for them
 * (person-actions.tsx). Versions and ids are never the words shown: dates, subjects and addresses are.
 */
import type { ReactNode } from "react";
import { counted } from "../../../lib/plural";
import { shareLink } from "../../../lib/waitlist/referral";
import { TEXT_FIELDS } from "../../../lib/waitlist/rules";
import { shownAnswers } from "../../answers";
import { isId } from "../../http/limits";
import { message, page } from "../pages";
import { CONSOLE_PATHS } from "../paths";
import { termsAgreed, updatesChoice } from "./consent-words";
import { MailStanding } from "./mail-standing";
import { RESEND_DONE, ResendControl } from "./person-confirm-resend";
import { type PersonFile, type PersonVisit, readPersonFile } from "./person-data";

export type { PersonVisit };

import { Figures, Ident, Notice, Section, StatusBadge } from "../ui/parts";
import { utcMinute } from "../ui/time";
import { ResendButton, ResendNote } from "./person-resend";
import { Events, personHref, Timeline } from "./person-timeline";

/**
 * What an action that changed something says on the page it redirects to (`?id=N&done=…`): a word in the address,
 * never a sentence, so a reload shows the page again instead of sending the action twice.
 */
const PERSON_DONE = {
  invited: "Invited: their e-mail was accepted by the SMTP server.",
  reinvited: "Their invitation went out again, with a new code: the code in the first e-mail no longer works.",
  lifted: "Lifted: the product's e-mails go to this address again.",
  suppressed: "Suppressed: no e-mail goes to this address until it is lifted.",
} as const;

/**
 * GET /admin/person?id=N, with `done=…` after an action (its notice from PERSON_DONE, or a resend's from RESEND_DONE;
 * any other word: none).
 */
export function personGet(visit: PersonVisit, query: URLSearchParams): Promise<Response> {
  const done = query.get("done") ?? "";
  const id = query.get("id") ?? "";
  if (Object.hasOwn(RESEND_DONE, done)) {
    const resend = RESEND_DONE[done] as (typeof RESEND_DONE)[string];
    return personPage(visit, id, resend.said, resend.failed);
  }
  return personPage(visit, id, Object.hasOwn(PERSON_DONE, done) ? PERSON_DONE[done as keyof typeof PERSON_DONE] : "");
}

export const nobody = (admin: string, status = 404) =>
  message(status, "Not found", "There is nobody with that number: they may have left the list.", admin);

/** The person's page, with `notice` (an error when `failed`) above it. */
export async function personPage(
  visit: PersonVisit,
  idText: string,
  notice: ReactNode = "",
  failed = false,
): Promise<Response> {
  const { store, config, admin } = visit;
  if (!isId(idText)) return message(404, "Not found", "There is nobody with that number.", admin);
  const file = await readPersonFile(store, Number(idText), config.dbTimeoutMs);
  if (!file) return nobody(admin);
  const { row, person } = file;
  return page(
    200,
    person.email,
    <>
      <div className="title-row">
        <h1>
          <Ident text={person.email} />
        </h1>
        <StatusBadge status={row.status} />
      </div>
      <Actions file={file} />
      <ResendNote file={file} ttlDays={config.inviteTtlDays} />
      {notice ? <Notice tone={failed ? "error" : "done"}>{notice}</Notice> : null}
      <div className="person-grid">
        <Section id="who" title="Answers">
          <Pairs
            items={[
              ...TEXT_FIELDS.map((field) => [field.label, person[field.key] ?? <NotGiven />] as const),
              ...shownAnswers(person.answers, row.choices).map(
                (answer) =>
                  [
                    answer.asked ? answer.label : `${answer.label} (no longer asked)`,
                    Array.isArray(answer.value) ? answer.value.join("; ") : answer.value,
                  ] as const,
              ),
            ]}
          />
        </Section>
        <CameFrom file={file} />
        <Referrals file={file} origin={visit.origin} />
        <Consent file={file} />
      </div>
      <Section id="timeline" title="Timeline (UTC)">
        <Timeline file={file} />
      </Section>
      <MailStanding id={row.id} suppression={file.suppression} />
      <Section id="hooks" title="Webhooks">
        <Events events={file.events} />
      </Section>
    </>,
    admin,
    {},
    { area: "people" },
  );
}

const NotGiven = () => <span className="note">Not given</span>;

const SOURCE_LABELS = {
  source: "Source",
  medium: "Medium",
  campaign: "Campaign",
  referrer: "Referring site",
  page: "Landing page",
} as const;

/** Why a share link's referral counted or not (waitlist_referral.outcome), as the team reads it. */
const OUTCOMES: Record<string, string> = {
  pending: "it counts for them once this person confirms",
  counted: "it counted for them",
  self: "it did not count: it was their own link",
  disposable: "it did not count: a throwaway address",
  duplicate: "it did not count: this mailbox was on the list or counted already",
  "over-limit": "it did not count: they had reached the day's limit of referrals",
  "referrer-left": "it did not count: they had left the list",
};

function CameFrom({ file }: { file: PersonFile }) {
  const { row, referredBy } = file;
  const entries = Object.entries(SOURCE_LABELS) as Array<[keyof typeof SOURCE_LABELS, string]>;
  return (
    <Section id="from" title="Where they came from">
      <Pairs items={entries.map(([key, label]) => [label, row.sources[key] ?? <NotGiven />] as const)} />
      {row.referral ? (
        <p>
          {referredBy ? (
            <>
              Came by the share link of{" "}
              <a href={personHref(referredBy.id)}>
                <Ident text={referredBy.email} />
              </a>
              :{" "}
            </>
          ) : (
            "Came by the share link of someone who has since left the list: "
          )}
          {OUTCOMES[row.referral.outcome] ?? row.referral.outcome}.
        </p>
      ) : null}
    </Section>
  );
}

function Referrals({ file, origin }: { file: PersonFile; origin: string }) {
  const { row, revokedTotal } = file;
  return (
    <Section id="share" title="Their share link">
      <Pairs
        items={[
          ["Share code", <Ident key="code" code text={row.referralCode} />],
          ["Share link", <Ident key="link" code text={shareLink(origin, row.referralCode)} />],
          [
            "Referrals",
            revokedTotal > 0
              ? `${counted(row.referrals, "counts", "count")} now; ${counted(revokedTotal, "was", "were")} taken back`
              : counted(row.referrals, "counted", "counted"),
          ],
        ]}
      />
    </Section>
  );
}

function Consent({ file }: { file: PersonFile }) {
  const { row } = file;
  const choice = updatesChoice(row.updatesConsent, row.updatesConsentWords);
  const since = row.updatesConsentAt ? ` since ${utcMinute(row.updatesConsentAt)} UTC` : "";
  return (
    <Section id="consent" title="Consent">
      <Pairs
        items={[
          ["Terms agreed at sign-up", termsAgreed(row.termsVersion)],
          ["Address", row.confirmedAt ? `Confirmed ${utcMinute(row.confirmedAt)} UTC` : "Not confirmed yet"],
          [
            "Updates",
            <>
              {choice.answer === null ? choice.how : `${choice.answer}${since}${choice.how ? `, ${choice.how}` : ""}`}
              {choice.words ? <blockquote>{choice.words}</blockquote> : null}
            </>,
          ],
        ]}
      />
    </Section>
  );
}

/** What the team may do for them, under their name: each a form of its own, the ones that change much asking first. */
function Actions({ file }: { file: PersonFile }) {
  const { row, person } = file;
  return (
    <fieldset className="person-actions">
      <legend className="sr-only">Actions</legend>
      {row.status === "pending" || row.status === "confirmed" ? (
        <form method="post" action={CONSOLE_PATHS.person} className="inline">
          <input type="hidden" name="id" value={row.id} />
          {row.status === "pending" ? (
            <ResendControl suppression={file.suppression} />
          ) : (
            <button type="submit" name="action" value="invite">
              Invite now…
            </button>
          )}
        </form>
      ) : null}
      <ResendButton file={file} />
      <form method="post" action={CONSOLE_PATHS.remove} className="inline">
        <input type="hidden" name="email" value={person.email} />
        <button type="submit" className="danger">
          Remove…
        </button>
      </form>
    </fieldset>
  );
}

/** Facts of one person as label and value, one pair a line (two columns wide enough, stacked on a phone). */
function Pairs({ items }: { items: ReadonlyArray<readonly [ReactNode, ReactNode]> }) {
  return <Figures items={items} className="pairs" />;
}
