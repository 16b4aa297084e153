/**
 * The Updates area's pages (updates.ts decides which a step answers with): compose, with the past updates (each a
 * link to its own page: its progress, what came back, its e-mail) and what came back; words already sent. The preview and its confirmation are update-preview.tsx's. Plain forms: the draft
 * rides in hidden fields between the steps. Every page is in the Updates area of the navigation.
 */
import { counted } from "../../../lib/plural";
import { withTimeout } from "../../http/timeout";
import { createUpdateStore, type Draft, type PastUpdate } from "../../updates";
import { JobBadge, jobPath, StateBadge } from "../jobs/job-parts";
import { type JobProgress, jobProgress } from "../jobs/job-progress";
import type { JobDeps } from "../jobs/jobs";
import { CONSOLE_PATHS, page } from "../pages";
import { peopleParams } from "../people/people-filter";
import type { PersonVisit } from "../person/person";
import { Notice, Section } from "../ui/parts";
import { type RowColumn, RowsTable } from "../ui/table";
import { utcMinute } from "../ui/time";
import { reputationSection } from "./update-reputation";
import type { UpdateSegment } from "./update-segment";

/** How many past updates the compose page lists. */
const PAST = 20;

/** What a person's page is given, and how a confirmed send starts and who starts it. */
export interface UpdateVisit extends PersonVisit {
  /** How a confirmed send starts in the background (jobs.ts). */
  deps: JobDeps;
  logId: string;
  /** "Write to everyone matching": the People filter it goes to (update-segment.ts); none: everyone who said yes. */
  segment?: UpdateSegment | null | undefined;
}

export const MAIL_OFF = "E-mail is off: set SMTP_URL and MAIL_FROM to send updates.";

/** Every page of the area: its place in the navigation. */
export const IN_UPDATES = { area: "updates" } as const;

const people = (n: number) => counted(n, "person", "people");

/** The People filter the update goes to, if any, carried to the next step as its address writes it. */
function SegmentFields({ segment }: { segment?: UpdateSegment | null | undefined }) {
  return Object.entries(segment ? peopleParams(segment.filter) : {}).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
}

/** The draft, carried to the next step, with its filter. */
export function DraftFields(props: {
  draft: { subject: string; body: string };
  segment?: UpdateSegment | null | undefined;
}) {
  return (
    <>
      <input type="hidden" name="subject" value={props.draft.subject} />
      <input type="hidden" name="body" value={props.draft.body} />
      <SegmentFields segment={props.segment} />
    </>
  );
}

/**
 * How many the update reaches: those its filter matches, or everyone who said yes; given its words, less whoever
 * has them already (sent to another filter: nobody is sent them twice).
 */
export const audienceCount = (visit: UpdateVisit, draft?: Draft) => {
  const updates = visit.store.of(createUpdateStore);
  if (draft) return updates.againAudience(draft.subject, draft.body, visit.segment?.audience ?? null);
  return visit.segment ? Promise.resolve(visit.segment.audience.people.length) : updates.audience();
};

/** " matching …": who of those who said yes, in words ("" for everyone). */
export const among = (visit: UpdateVisit) => (visit.segment ? ` ${visit.segment.words}` : "");

/** A past update's state: sent to everyone, cancelled, or under way (as its job stands) with a link to follow it. */
function PastState({ update, job }: { update: PastUpdate; job: JobProgress | undefined }) {
  if (update.finished && update.remaining === 0) return <StateBadge tone="good">Sent</StateBadge>;
  if (update.finished) return <StateBadge tone="muted">Cancelled</StateBadge>;
  return (
    <span>
      {job ? <JobBadge job={job} /> : null} {`${people(update.remaining)} to go.`}{" "}
      <a href={jobPath("update", update.id)} aria-label={`Follow it: ${update.subject}`}>
        Follow it
      </a>
    </span>
  );
}

/** The past updates' columns: when each started, its subject (a link to its page), its counts, its state. */
const pastColumns = (jobs: Map<number, JobProgress>): RowColumn<PastUpdate>[] => [
  { label: "Started", head: "Started (UTC)", when: true, cell: (u) => utcMinute(u.createdAt) },
  { label: "Subject", cell: (u) => <a href={jobPath("update", u.id)}>{u.subject}</a> },
  { label: "Sent", numeric: true, cell: (u) => u.sent },
  { label: "Failed", numeric: true, cell: (u) => u.failed },
  { label: "Unsubscribed since", numeric: true, cell: (u) => u.unsubscribed },
  { label: "State", cell: (u) => <PastState update={u} job={jobs.get(u.id)} /> },
];

function PastTable({ past, jobs }: { past: PastUpdate[]; jobs: Map<number, JobProgress> }) {
  if (past.length === 0) return <p className="note">No update has been sent yet.</p>;
  return <RowsTable rows={past} rowKey={(u) => u.id} columns={pastColumns(jobs)} />;
}

/** The Updates page: the form (with what was typed, and what is wrong with it) and the past updates. */
export async function composePage(
  visit: UpdateVisit,
  draft: { subject: string; body: string } = { subject: "", body: "" },
  note: { error?: string } = {},
  status = 200,
): Promise<Response> {
  const updates = visit.store.of(createUpdateStore);
  const load = async () => {
    const [audience, past] = await Promise.all([audienceCount(visit), updates.list(PAST)]);
    // Only an update not finished has a state beyond its counts: its job's (running, paused…).
    const open = await Promise.all(
      past.filter((u) => !u.finished).map((u) => jobProgress(visit.store.db, "update", u.id)),
    );
    const jobs = new Map(open.flatMap((job) => (job ? [[job.id, job] as const] : [])));
    return { audience, past, jobs, cameBack: await reputationSection(visit.store, visit.config, past) };
  };
  const { audience, past, jobs, cameBack } = await withTimeout(load(), visit.config.dbTimeoutMs);
  return page(
    status,
    "Updates",
    <>
      <h1>Updates</h1>
      {visit.config.mail ? null : <Notice tone="warn">{MAIL_OFF}</Notice>}
      <Section id="write" title="Write an update">
        {note.error ? <Notice tone="error">{note.error}</Notice> : null}
        <p className="note">
          {`To the ${counted(audience, "confirmed person", "confirmed people")}${among(visit)} who said yes to updates. Plain text: a blank line starts a paragraph, and links are made clickable. Every update ends with a "Stop these updates" link.`}
        </p>
        <form method="post" action={CONSOLE_PATHS.updates}>
          <input type="hidden" name="action" value="preview" />
          <SegmentFields segment={visit.segment} />
          <p>
            <label htmlFor="subject">Subject</label>
            <input id="subject" name="subject" type="text" maxLength={200} required defaultValue={draft.subject} />
          </p>
          <p>
            <label htmlFor="body">Text</label>
            <textarea id="body" name="body" required rows={14} defaultValue={draft.body} />
          </p>
          <div className="row">
            <button type="submit">Preview</button>
          </div>
        </form>
      </Section>
      <Section id="past" title="Past updates">
        <PastTable past={past} jobs={jobs} />
      </Section>
      {cameBack}
    </>,
    visit.admin,
    {},
    IN_UPDATES,
  );
}

/** An update found again by its words, as alreadyPage shows it. */
export interface SameUpdate {
  id: number;
  finished: boolean;
  since: Date | null;
  sent: number;
  remaining: number;
  /** Whether it is the latest update with these words (only that one may be sent again). */
  latest: boolean;
}

/**
 * Words already started (updates/start.ts): that update, never a new one. Finished: when, how many were sent it,
 * and the explicit choice to send the same words to those who have not received them (if anyone is left). Not
 * finished: where it stands, and a link to its own page (it runs in the background).
 */
export function alreadyPage(visit: UpdateVisit, draft: Draft, same: SameUpdate, left: number): Response {
  const day = same.since ? utcMinute(same.since.toISOString()) : "";
  const title = same.finished ? "Already sent" : "Already being sent";
  return page(
    200,
    title,
    <>
      <h1>{title}</h1>
      <Section id="same-words" title={`“${draft.subject}”`}>
        {same.finished ? (
          <Notice>{`“${draft.subject}” with this text was already sent: started ${day} (UTC), ${people(same.sent)} sent it. Nobody was sent it again.`}</Notice>
        ) : (
          <>
            <Notice>{`“${draft.subject}” with this text is already being sent: started ${day} (UTC), ${people(same.sent)} sent it so far, ${people(same.remaining)} to go. Nobody is sent it twice.`}</Notice>
            <p>
              <a href={jobPath("update", same.id)}>Follow its progress</a>
            </p>
          </>
        )}
        {same.finished && left === 0 ? (
          <p className="note">
            Everyone who said yes to updates has received these words. To write to them again, change the subject or the
            text.
          </p>
        ) : null}
      </Section>
      {same.finished && same.latest && left > 0 ? (
        <Section id="again" title="Send it again">
          <p>{`${people(left)} who said yes to updates ${left === 1 ? "has" : "have"} not received these words (their message failed, or they joined since). Sending it again reaches only them.`}</p>
          <form method="post" action={CONSOLE_PATHS.updates}>
            <DraftFields draft={draft} segment={visit.segment} />
            <input type="hidden" name="after" value={same.id} />
            <div className="row">
              <button type="submit" name="action" value="again">
                {`Send it again to ${people(left)}`}
              </button>
            </div>
          </form>
        </Section>
      ) : null}
      <p>
        <a href={CONSOLE_PATHS.updates}>Back to Updates</a>
      </p>
    </>,
    visit.admin,
    {},
    IN_UPDATES,
  );
}
