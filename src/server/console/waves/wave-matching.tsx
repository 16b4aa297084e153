/**
 * "Invite everyone matching" (the People page, any filter combination): a wave of exactly the people the filter
 * matches whom a wave may invite (confirmed, in no wave, not suppressed: matching.ts), however many. Asked once,
 * with the count and the first few by address; the confirming press (its one-time ticket: wave-record.ts) reserves
 * them all and starts the wave in the background, on its own page (jobs.ts), as any wave from the console runs.
 * Needs e-mail on: with mail off a wave is a file the console answers whole, bounded by CONSOLE_WAVE_MAX.
 */
import { randomBytes } from "node:crypto";
import { counted } from "../../../lib/plural";
import { auditStart } from "../../audit";
import type { ServerConfig } from "../../config";
import { seeOther } from "../../http/responses";
import { isTicket, newTicket } from "../../http/ticket";
import { waveOwner } from "../../invitations";
import { waveRecords } from "../../invitations/wave-record";
import { releaseJob } from "../../jobs";
import { log } from "../../log";
import type { Store } from "../../store/types";
import { type JobDeps, jobPath, startJob } from "../jobs/jobs";
import { message, page } from "../pages";
import { CONSOLE_PATHS, consoleHref } from "../paths";
import { createMatching, type Matching } from "../people/matching";
import { type PeopleFilter, peopleParams, readPeopleQuery } from "../people/people-filter";
import { filterWords } from "../people/people-matching";
import { adminIdentity } from "../sign-in/identity";
import { ConfirmForm, Section } from "../ui/parts";

/** How many of them the confirmation names; the rest are counted. */
export const MATCHING_NAMED = 5;

interface MatchingRequest {
  origin: string;
  store: Store;
  config: ServerConfig;
  admin: string;
  fields: Record<string, string>;
  deps: JobDeps;
}

const TITLE = "Invite everyone matching";

/** The People filter the form carries (its hidden fields, as the page's address writes them); null: not one. */
export function formFilter(fields: Record<string, string>): PeopleFilter | null {
  const read = readPeopleQuery(new URLSearchParams(fields));
  return "refused" in read ? null : read.filter;
}

/** POST /admin/invite with everyone=matching: the confirmation, then (confirm=yes, a ticket) the wave. */
export async function inviteMatching(request: MatchingRequest): Promise<Response> {
  const { store, config, admin, fields } = request;
  const filter = formFilter(fields);
  if (!filter) return message(400, TITLE, "That filter is not valid: choose it again on the People page.", admin);
  if (!config.mail) {
    return message(
      400,
      TITLE,
      "E-mail is off: invite everyone matching with npm run waitlist -- invite and the same filter (--answer, --source), or select people on the People page.",
      admin,
    );
  }
  const matching = store.of(createMatching);
  if (fields["confirm"] !== "yes") return askMatching(request, filter, matching);
  const ticket = fields["ticket"];
  if (!isTicket(ticket)) return message(400, TITLE, "That wave does not exist: start from the People page.", admin);
  const ids = await matching.ids(filter, "invite");
  const owner = waveOwner(`console-${randomBytes(4).toString("hex")}`);
  const records = store.of(waveRecords);
  const identity = await adminIdentity(config, store);
  const entry = await auditStart(store.db, admin, "wave", { size: ids.length, filter: filterWords(filter) });
  const claim = await records.claim(ticket, owner, ids.length);
  if (!claim.claimed) {
    await entry.end({ wave: claim.wave, invited: 0, note: "this confirmation's wave was already started" });
    return seeOther(jobPath("wave", claim.wave));
  }
  const reserved = await store.invites.reserveIds(claim.wave, ids);
  await records.startedBy(claim.wave, identity.logId(admin));
  // Held for nobody now: the background run takes it (or, nobody reserved, it ends here).
  await releaseJob(store.db, "wave", claim.wave, owner, reserved === 0);
  log("info", "admin.invite", { admin: identity.logId(admin), wave: claim.wave, reserved });
  const taken = reserved > 0 && (await startJob({ ...request, logId: identity.logId(admin) }, "wave", claim.wave));
  await entry.end({ wave: claim.wave, reserved, background: taken ? "started" : "left to the scheduler" });
  return seeOther(`${jobPath("wave", claim.wave)}&done=started`);
}

/** The question, asked once: how many, and the first of them by name. */
async function askMatching(request: MatchingRequest, filter: PeopleFilter, matching: Matching): Promise<Response> {
  const { admin } = request;
  const ids = await matching.ids(filter, "invite");
  if (ids.length === 0) {
    return message(200, "Nobody to invite", `Nobody ${filterWords(filter)} is confirmed and waiting.`, admin);
  }
  const named = await matching.named(ids.slice(0, MATCHING_NAMED));
  const who = counted(ids.length, "person", "people");
  const more = ids.length - named.length;
  const back = consoleHref(CONSOLE_PATHS.people, peopleParams(filter));
  return page(
    200,
    TITLE,
    <>
      <h1>Invite {who}?</h1>
      <Section id="wave-who" title="Who it invites">
        <p>Everyone {filterWords(filter)} who is confirmed, in no wave and not on the suppression list.</p>
        <ul>
          {named.map((person) => (
            <li key={person.id}>{person.email}</li>
          ))}
        </ul>
        {more > 0 ? <p>And {counted(more, "more person", "more people")}.</p> : null}
        <p className="note">
          Each gets an e-mail with a single-use code. The wave runs by itself once started, on its own page.
        </p>
        <ConfirmForm
          action={CONSOLE_PATHS.invite}
          fields={{ ...peopleParams(filter), everyone: "matching", ticket: newTicket() }}
          label={`Invite ${who}`}
          back={back}
        />
      </Section>
    </>,
    admin,
    {},
    { area: "people" },
  );
}
