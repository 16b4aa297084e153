/**
 * What the team does from a person's page (POST /admin/person): resend the confirmation (person-confirm-resend.tsx),
 * lift or stop their mail (mail-standing.tsx), invite them now, and send an invited person's invitation again
 * (person-resend-action.tsx). Inviting asks once first, as a wave and Remove do: the first press
 * shows what will happen (an e-mail now, out of the line ahead of the people before them), and only the page's
 * "Invite now" with confirm=yes sends. Everything that has an effect is audited before it (audit/index.ts).
 */
import { randomBytes } from "node:crypto";
import { counted } from "../../../lib/plural";
import { auditStart } from "../../audit";
import { isId } from "../../http/limits";
import { seeOther } from "../../http/responses";
import { withTimeout } from "../../http/timeout";
import { runWave, waveOwner } from "../../invitations";
import { describeError, log } from "../../log";
import { message, page } from "../pages";
import { CONSOLE_PATHS } from "../paths";
import { ConfirmForm, Section } from "../ui/parts";
import { mailStandingAction } from "./mail-standing";
import { nobody, type PersonVisit, personPage } from "./person";
import { resendConfirmation } from "./person-confirm-resend";
import { readPerson } from "./person-data";
import { earlyAccessOrPage, resendAction } from "./person-resend-action";
import { personHref } from "./person-timeline";

const SUFFIX: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };
const ordinals = new Intl.PluralRules("en", { type: "ordinal" });
/** 2nd, 3rd, 11th, 1,002nd. */
const ordinal = (n: number) => `${n.toLocaleString("en")}${SUFFIX[ordinals.select(n)]}`;

/** POST /admin/person: resend the confirmation, invite now (asked first), resend the invitation, lift or stop their mail. */
export async function personAction(visit: PersonVisit): Promise<Response> {
  const { store, config, admin, fields } = visit;
  const idText = fields["id"] ?? "";
  if (!isId(idText)) return message(400, "Not found", "There is nobody with that number.", admin);
  const id = Number(idText);
  const found = await withTimeout(readPerson(store, id), config.dbTimeoutMs);
  if (!found) return nobody(admin);
  const { email } = found.person;
  const action = fields["action"];
  if (action === "lift" || action === "suppress") return mailStandingAction(store, admin, id, email, action);
  if (action === "resend-invitation") return resendAction(visit, id);
  if (action === "resend") {
    if (!visit.mailer || found.row.status !== "pending") {
      return personPage(
        visit,
        idText,
        "Only a pending address, with e-mail on, can be sent its confirmation again.",
        true,
      );
    }
    return resendConfirmation(visit, id, email);
  }
  if (action === "invite") {
    if (!visit.mailer)
      return personPage(visit, idText, "Invite from a wave on the Overview while e-mail is off.", true);
    const accessUrl = earlyAccessOrPage(visit, idText);
    if (accessUrl instanceof Promise) return accessUrl;
    if (found.row.status !== "confirmed") {
      return personPage(visit, idText, "Only someone confirmed and waiting can be invited.", true);
    }
    if (fields["confirm"] !== "yes") return inviteConfirmPage(visit, id, email, config.inviteTtlDays);
    return inviteNow(visit, id, accessUrl);
  }
  return seeOther(personHref(id));
}

/** The question before inviting one person: who, where they stand in line, what they get. Changes nothing. */
async function inviteConfirmPage(visit: PersonVisit, id: number, email: string, ttlDays: number) {
  const place = await withTimeout(visit.store.line(visit.config.referralPlaces).placeOf(id), visit.config.dbTimeoutMs);
  const line = place
    ? place.place === 1
      ? `They are first in line, of ${counted(place.waiting, "person", "people")} waiting.`
      : `They are ${ordinal(place.place)} in line, of ${counted(place.waiting, "person", "people")} waiting: they go ahead of the ${counted(place.place - 1, "person", "people")} before them.`
    : null;
  return page(
    200,
    "Invite now",
    <>
      <h1>Invite {email} now?</h1>
      <Section id="invite-what" title="What happens">
        {line ? <p>{line}</p> : null}
        <p>
          They get an e-mail now with a single-use link to the product, good for {counted(ttlDays, "day")}, and leave
          the line.
        </p>
        <ConfirmForm
          action={CONSOLE_PATHS.person}
          fields={{ id, action: "invite" }}
          label="Invite now"
          back={personHref(id)}
        />
      </Section>
    </>,
    visit.admin,
    {},
    { area: "people" },
  );
}

/** The invitation itself: a wave of one, by e-mail, audited before it starts. */
async function inviteNow(visit: PersonVisit, id: number, accessUrl: URL): Promise<Response> {
  const { store, config, admin } = visit;
  const entry = await auditStart(store.db, admin, "wave", { size: 1, person: id });
  const report = await runWave({
    store,
    next: 1,
    people: [id],
    delivery: { kind: "mail", mailer: visit.mailer as NonNullable<PersonVisit["mailer"]> },
    accessUrl,
    siteUrl: visit.origin,
    ttlDays: config.inviteTtlDays,
    owner: waveOwner(`console-${randomBytes(4).toString("hex")}`),
  }).catch((error: unknown) => {
    log("error", "admin.invite_person_failed", describeError(error));
    return null;
  });
  await entry.end({ size: 1, person: id, invited: report?.invited ?? 0 });
  if (report?.invited === 1) return seeOther(`${personHref(id)}&done=invited`);
  const said = report?.resumed
    ? "An unfinished wave was completed first; press Invite now again."
    : "Not invited: the SMTP server refused or could not be reached, or they are no longer waiting.";
  return personPage(visit, String(id), said, true);
}
