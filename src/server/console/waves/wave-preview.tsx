/**
 * A wave's preview (POST /admin/invite without confirm): how many it would invite and who, before anyone is. It
 * names the first PREVIEW_NAMED in line order, each with when they signed up and where from, and counts the rest,
 * so the team sees whom it lets in, not only a number. The confirming button carries a one-time ticket
 * (wave-record.ts), so a second press finds this wave instead of starting another.
 */
import { longDate } from "../../../lib/date";
import { counted } from "../../../lib/plural";
import { newTicket } from "../../http/ticket";
import type { NamedPerson } from "../../invitations/wave-record";
import { message, page } from "../pages";
import { CONSOLE_PATH, CONSOLE_PATHS } from "../paths";
import { personHref } from "../person/person-timeline";
import { ConfirmForm, Section } from "../ui/parts";
import { CardTable, Head } from "../ui/table";
import { utcMinute } from "../ui/time";

export interface PreviewFacts {
  count: number;
  first: string | null;
  last: string | null;
  interrupted: number;
  movedUp: number;
}

const day = (iso: string | null) => (iso ? longDate(new Date(iso), true).text : "");

/** "between March 1 and March 3, 2026" or "on March 1, 2026": when the people it takes signed up (UTC). */
function signedUp(first: string | null, last: string | null): string {
  const [from, to] = [day(first), day(last)];
  return from === to ? `on ${from}` : `between ${from} and ${to}`;
}

export function invitePreviewPage(
  admin: string,
  preview: PreviewFacts,
  named: readonly NamedPerson[],
  next: number,
  mail: boolean,
  places = 0,
): Response {
  if (preview.count === 0 && preview.interrupted === 0) {
    return message(200, "Nobody to invite", "No confirmed sign-up is waiting.", admin);
  }
  const who = counted(preview.count, "person", "people");
  return page(
    200,
    "Let people in",
    <>
      <h1>{preview.count > 0 ? `Invite ${who}?` : "Complete the unfinished wave?"}</h1>
      {preview.count > 0 ? <WhoItInvites preview={preview} named={named} places={places} /> : null}
      <Section id="wave-how" title="How">
        <p className="note">
          {mail
            ? "Each gets an e-mail with a single-use code. The wave runs by itself once started, on its own page."
            : "E-mail is off: you'll download a CSV of email, name and invite link for your own mail tool."}
        </p>
        {preview.interrupted > 0 ? (
          <p className="note">
            {mail
              ? `An unfinished wave still holds ${counted(preview.interrupted, "person", "people")}: it goes on by itself (or waits, paused, on its page); this wave takes other people.`
              : `An unfinished wave still holds ${counted(preview.interrupted, "person", "people")}; if it has stopped or was paused, this completes it first and invites nobody else.`}
          </p>
        ) : null}
        <ConfirmForm
          action={CONSOLE_PATHS.invite}
          fields={{ next, ticket: newTicket() }}
          label={preview.count > 0 ? `Invite ${who}` : "Complete the wave"}
          back={CONSOLE_PATH}
        />
      </Section>
    </>,
    admin,
    {},
    { area: "home" },
  );
}

/** The next people in line, the first of them by name, and how referrals moved them. */
function WhoItInvites(props: { preview: PreviewFacts; named: readonly NamedPerson[]; places: number }) {
  const { preview, named, places } = props;
  const who = counted(preview.count, "person", "people");
  const more = preview.count - named.length;
  const each = `each counted referral moves its referrer ${counted(places, "place")}`;
  const moved =
    preview.movedUp === 0
      ? ` No one in this wave moved up by referrals (${each}).`
      : ` In line order: ${preview.movedUp} of them moved up by referrals (${each}).`;
  return (
    <Section id="wave-who" title="Who it invites">
      <p>
        The next {who} in line, who signed up {signedUp(preview.first, preview.last)} (UTC).
        {places > 0 ? moved : ""}
      </p>
      <CardTable>
        <caption className="sr-only">{more > 0 ? `The first ${named.length} of them` : "Everyone it invites"}</caption>
        <Head columns={["Person", "Signed up (UTC)", "Source"]} />
        <tbody>
          {named.map((person) => (
            <tr key={person.id}>
              <td data-label="Person">
                <a href={personHref(person.id)}>{person.email}</a>
              </td>
              <td data-label="Signed up">{utcMinute(person.createdAt)}</td>
              <td data-label="Source">{person.source ?? <span className="note">None recorded</span>}</td>
            </tr>
          ))}
        </tbody>
      </CardTable>
      {more > 0 ? <p>And {counted(more, "more person", "more people")}.</p> : null}
    </Section>
  );
}
