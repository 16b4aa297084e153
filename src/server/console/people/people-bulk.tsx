/**
 * Invite selected and Remove selected (POST /admin/people/selected), from the People page's checkboxes. Each asks
 * first, naming how many and listing them ("Invite 3 people?", "Remove 3 people for good?"), then does it the way
 * one person's action does: an invitation by a wave of exactly those people (as "Invite now" on a person's page,
 * e-mail only; someone pending, already invited or already in a wave is named with why they are left out), a removal
 * by the same erasure as Remove. At most one page of the list (PER_PAGE) at a time: what the operator sees is what
 * they choose. Each is audited from its start ("invite-selected", "remove-selected"), never with an address.
 */
import { randomBytes } from "node:crypto";
import type { ReactNode } from "react";
import { counted } from "../../../lib/plural";
import { auditStart } from "../../audit";
import { seeOther } from "../../http/responses";
import { withTimeout } from "../../http/timeout";
import { earlyAccessBase, InviteConfigError, runWave, waveOwner } from "../../invitations";
import { waveRecords } from "../../invitations/wave-record";
import { describeError, log } from "../../log";
import type { Mailer } from "../../mail/mailer";
import { type JobDeps, jobPath, startJob } from "../jobs/jobs";
import { CONSOLE_PATHS, consoleHref } from "../pages";
import type { PersonVisit } from "../person/person";
import { Notice, Section } from "../ui/parts";
import { WAVE_SLICE_MS, type WaveDeps } from "../waves/waves";
import { PER_PAGE } from "./list";
import { listParams } from "./people";
import { BulkConfirmForm, bulkPage, ChosenList, chosenIds, notInvited } from "./people-bulk-parts";
import { type ChosenPerson, peopleData } from "./people-data";
import { peopleQuery } from "./people-filter";

/** What a bulk action is given: what a person's page is, and how jobs start. */
export interface BulkVisit extends PersonVisit {
  /** How the admin is named in the logs (a keyed hash). */
  logId: string;
  deps: JobDeps & WaveDeps;
}

/** Why no invitation can go from here (e-mail off, no EARLY_ACCESS_URL), or null with the product's sign-up page. */
function inviteBlocker(visit: BulkVisit): { problem: string } | { accessUrl: URL } {
  if (!visit.mailer) {
    return {
      problem:
        "E-mail is off on this site, so invitations can't be sent from here. Invite with a wave from the overview instead: it gives you a file of invite links for your own mail tool.",
    };
  }
  try {
    return { accessUrl: earlyAccessBase(visit.config.earlyAccessUrl) };
  } catch (error) {
    if (error instanceof InviteConfigError) return { problem: error.message };
    throw error;
  }
}

/** What every bulk step is given: the chosen people still on the list, and the list's address to go back to. */
interface Chosen {
  people: ChosenPerson[];
  back: string;
  backQuery: string;
  goneNote: ReactNode;
}

/** POST /admin/people/selected: the confirmation of Invite selected or Remove selected, or, confirmed, the action. */
export async function peopleBulk(visit: BulkVisit): Promise<Response> {
  const { fields, admin } = visit;
  const query = peopleQuery(new URLSearchParams(fields["back"] ?? ""));
  const backQuery = new URLSearchParams(query ? listParams(query) : {}).toString();
  const back = consoleHref(CONSOLE_PATHS.people, Object.fromEntries(new URLSearchParams(backQuery)));
  const action = fields["action"];
  if (action !== "invite" && action !== "remove") {
    const said = <Notice tone="error">Use Invite selected or Remove selected.</Notice>;
    return bulkPage(400, "Choose an action", said, admin, back);
  }
  const chosen = await readChosen(visit, back, backQuery);
  if (chosen instanceof Response) return chosen;
  return action === "remove" ? removeSelected(visit, chosen) : inviteSelected(visit, chosen);
}

/** The people ticked, read again from the list; a page saying why when there is nobody to act on. */
async function readChosen(visit: BulkVisit, back: string, backQuery: string): Promise<Chosen | Response> {
  const { fields, admin, store, config } = visit;
  const ids = chosenIds(fields);
  if (ids === null || ids.length === 0) {
    const said =
      ids === null
        ? `Choose at most ${PER_PAGE} people at a time: one page of the list.`
        : "Nobody was selected: tick the box beside each person first.";
    return bulkPage(400, "Select people first", <Notice tone="error">{said}</Notice>, admin, back);
  }
  const people = await withTimeout(store.of(peopleData).people(ids), config.dbTimeoutMs);
  if (people.length === 0) {
    const said = <Notice tone="error">Everyone you chose has left the list.</Notice>;
    return bulkPage(404, "Nobody left to act on", said, admin, back);
  }
  const gone = ids.length - people.length;
  const goneNote =
    gone > 0 ? <p className="note">{counted(gone, "person", "people")} you chose left the list meanwhile.</p> : null;
  return { people, back, backQuery, goneNote };
}

/** Remove selected: asked first, then each erased as Remove does one. */
async function removeSelected(visit: BulkVisit, { people, back, backQuery, goneNote }: Chosen): Promise<Response> {
  const { fields, admin, store, config } = visit;
  if (fields["confirm"] !== "yes") {
    const title = `Remove ${counted(people.length, "person", "people")} for good?`;
    const body = (
      <Section id="remove-who" title="This cannot be undone">
        <p>This deletes their addresses, everything they sent and their links, as an erasure request asks.</p>
        {goneNote}
        <ChosenList people={people} />
        <BulkConfirmForm action="remove" people={people} back={backQuery} title={title} danger />
      </Section>
    );
    return bulkPage(200, title, body, admin, back);
  }
  // No removed person's address is kept, not even here: their number of people only.
  const entry = await auditStart(store.db, admin, "remove-selected", { selected: people.length });
  let removed = 0;
  for (const person of people) if (await withTimeout(store.erase(person.email), config.dbTimeoutMs)) removed++;
  log("info", "admin.remove_selected", { admin: visit.logId, removed });
  await entry.end({ selected: people.length, removed });
  return seeOther(
    consoleHref(CONSOLE_PATHS.people, { ...Object.fromEntries(new URLSearchParams(backQuery)), removed: entry.id }),
  );
}

/** Invite selected: who can be invited and who not (and why), asked first, then a wave of exactly them. */
async function inviteSelected(visit: BulkVisit, { people, back, backQuery, goneNote }: Chosen): Promise<Response> {
  const { fields, admin } = visit;
  const blocker = inviteBlocker(visit);
  const ready = people.filter((p) => notInvited(p) === null);
  const left = people.filter((p) => notInvited(p) !== null);
  const leftOut =
    left.length > 0 ? (
      <Section id="invite-not" title={`Not invited: ${counted(left.length, "person", "people")}`}>
        <ChosenList people={left} why={notInvited} />
      </Section>
    ) : null;
  if ("problem" in blocker || ready.length === 0) {
    const why = "problem" in blocker ? <Notice tone="error">{blocker.problem}</Notice> : null;
    const body = (
      <>
        {why}
        {leftOut ?? <ChosenList people={ready} />}
      </>
    );
    return bulkPage("problem" in blocker ? 400 : 200, "Nobody here can be invited", body, admin, back);
  }
  if (fields["confirm"] === "yes") return inviteReady(visit, ready, people.length, blocker.accessUrl);
  const title = `Invite ${counted(ready.length, "person", "people")}?`;
  const body = (
    <>
      <Section id="invite-who" title="They get their invitation now">
        <p>
          Each gets an e-mail with a single-use code to join, as a wave sends it. Anyone whose mail server refuses it
          stays confirmed.
        </p>
        {goneNote}
        <ChosenList people={ready} />
        <BulkConfirmForm action="invite" people={ready} back={backQuery} title={title} />
      </Section>
      {leftOut}
    </>
  );
  return bulkPage(200, title, body, admin, back);
}

/**
 * Invites `ready` (confirmed, in no wave) by a wave of exactly them, as "Invite now" does for one, within the wave
 * slice: what is left then goes on in the background, on the wave's own page. Otherwise the list filtered to the
 * wave says what it did (from the wave's row).
 */
async function inviteReady(visit: BulkVisit, ready: ChosenPerson[], selected: number, accessUrl: URL) {
  const { store, config, admin, deps } = visit;
  const ids = ready.map((p) => p.id);
  const owner = waveOwner(`console-${randomBytes(4).toString("hex")}`);
  const entry = await auditStart(store.db, admin, "invite-selected", { selected, invitable: ready.length });
  const wave = await store.invites.startWave(owner, ready.length);
  await store.of(waveRecords).startedBy(wave, visit.logId);
  const report = await runWave({
    store,
    next: ready.length,
    people: ids,
    wave,
    owner,
    delivery: { kind: "mail", mailer: visit.mailer as Mailer },
    accessUrl,
    siteUrl: visit.origin,
    ttlDays: config.inviteTtlDays,
    slice: deps.waveSlice ?? { ms: WAVE_SLICE_MS },
  }).catch((error: unknown) => {
    log("error", "admin.invite_selected_failed", describeError(error));
    return null;
  });
  const done = {
    selected,
    invitable: ready.length,
    wave,
    invited: report?.invited ?? 0,
    refused: report?.refused ?? 0,
  };
  if (report?.paused) {
    const taken = await startJob({ ...visit, logId: visit.logId }, "wave", wave);
    await entry.end({ ...done, background: taken ? "started" : "left to the scheduler" });
    return seeOther(`${jobPath("wave", wave)}&done=started`);
  }
  await entry.end(done);
  log("info", "admin.invite_selected", { admin: visit.logId, wave, invited: done.invited });
  // A wave that failed half-way is completed by the next run: its page says how far it got.
  if (!report) return seeOther(jobPath("wave", wave));
  return seeOther(consoleHref(CONSOLE_PATHS.people, { wave, done: "invited" }));
}
