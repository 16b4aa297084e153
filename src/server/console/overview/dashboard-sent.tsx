/**
 * The overview's way back to sent work: the latest updates and waves, each a link to its own page (job-page.tsx:
 * its progress and counts; an update's also what came back and its e-mail), with its state, and the way to all of
 * them (the Updates page's past updates, the past waves' page). Each read as its page reads it (jobProgress).
 */
import type { Db } from "../../db/types";
import { JobBadge, jobPath } from "../jobs/job-parts";
import { type JobProgress, jobProgress } from "../jobs/job-progress";
import { CONSOLE_PATHS } from "../paths";
import { Section } from "../ui/parts";
import { utcMinute } from "../ui/time";
import { pastWaves } from "../waves/waves-page";

/** How many of each the overview names. */
const LATEST = 3;

export interface SentWork {
  updates: JobProgress[];
  waves: JobProgress[];
}

const LATEST_UPDATES = "SELECT id FROM waitlist_update ORDER BY created_at DESC, id DESC LIMIT $1";

export async function loadSentWork(db: Db): Promise<SentWork> {
  const rows = await db.query<{ id: number }>(LATEST_UPDATES, [LATEST]);
  const [updates, waves] = await Promise.all([
    Promise.all(rows.map((row) => jobProgress(db, "update", Number(row.id)))),
    pastWaves(db, LATEST),
  ]);
  return { updates: updates.filter((u): u is JobProgress => u !== null), waves };
}

function Latest({ jobs, none }: { jobs: JobProgress[]; none: string }) {
  if (jobs.length === 0) return <p className="note">{none}</p>;
  return (
    <ul className="jobs">
      {jobs.map((job) => (
        <li key={job.id}>
          <a href={jobPath(job.kind, job.id)}>{job.title}</a> <JobBadge job={job} />{" "}
          <span className="note">{`started ${utcMinute(job.startedAt)} UTC`}</span>
        </li>
      ))}
    </ul>
  );
}

export function SentLately({ updates, waves }: SentWork) {
  return (
    <Section id="sent-lately" title="Sent lately">
      <h3>Updates</h3>
      <Latest jobs={updates} none="No update has been sent yet." />
      <p>
        <a href={`${CONSOLE_PATHS.updates}#past`}>All past updates</a>
      </p>
      <h3>Waves</h3>
      <Latest jobs={waves} none="No wave has been sent yet." />
      <p>
        <a href={CONSOLE_PATHS.waves}>All past waves</a>
      </p>
    </Section>
  );
}
