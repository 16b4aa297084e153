/**
 * Past waves (GET /admin/waves), newest first: when each started, what it did in words, how many it invited and
 * how many the mail server refused, its state, a link to its own page (job-page.tsx) and to the People list
 * filtered to it (who it invited). Reached from the overview. Each wave is read as its page reads it
 * (jobProgress), so a wave's state is decided in one place.
 */
import type { Db } from "../../db/types";
import { withTimeout } from "../../http/timeout";
import { JobBadge, jobPath } from "../jobs/job-parts";
import { type JobProgress, jobProgress } from "../jobs/job-progress";
import { page } from "../pages";
import { CONSOLE_PATHS, waveListHref } from "../paths";
import { Section } from "../ui/parts";
import { type RowColumn, RowsTable } from "../ui/table";
import { utcMinute } from "../ui/time";

/** How many waves the page lists: far more than a team sends. */
const LISTED = 50;

const SQL = "SELECT id FROM waitlist_invite_wave ORDER BY started_at DESC, id DESC LIMIT $1";

/** The latest `limit` waves, as their pages read them. */
export async function pastWaves(db: Db, limit = LISTED): Promise<JobProgress[]> {
  const rows = await db.query<{ id: number }>(SQL, [limit]);
  const waves = await Promise.all(rows.map((row) => jobProgress(db, "wave", Number(row.id))));
  return waves.filter((wave): wave is JobProgress => wave !== null);
}

/** A count of the wave's, by its name on its page ("Invited", "Refused by the mail server"). */
const count = (wave: JobProgress, index: number) => wave.counts[index]?.[1] ?? 0;

/** A wave's columns: when it started, its title (a link to its page), its counts, its state, whom it invited. */
const WAVE_COLUMNS: RowColumn<JobProgress>[] = [
  { label: "Started", head: "Started (UTC)", when: true, cell: (wave) => utcMinute(wave.startedAt) },
  { label: "Wave", cell: (wave) => <a href={jobPath("wave", wave.id)}>{wave.title}</a> },
  { label: "Invited", numeric: true, cell: (wave) => count(wave, 0) },
  { label: "Refused", numeric: true, cell: (wave) => count(wave, 1) },
  { label: "State", cell: (wave) => <JobBadge job={wave} /> },
  {
    label: "Who",
    cell: (wave) =>
      count(wave, 0) > 0 ? (
        <a href={waveListHref(wave.id)} aria-label={`Who it invited: ${wave.title}, ${utcMinute(wave.startedAt)}`}>
          Who it invited
        </a>
      ) : (
        <span className="note">Nobody yet</span>
      ),
  },
];

/** GET /admin/waves: every wave, newest first, each with its page and whom it invited. */
export async function wavesPage(visit: { db: Db; dbTimeoutMs: number; admin: string }): Promise<Response> {
  const waves = await withTimeout(pastWaves(visit.db), visit.dbTimeoutMs);
  return page(
    200,
    "Past waves",
    <>
      <h1>Past waves</h1>
      <Section id="waves" title="Waves of invitations, newest first">
        {waves.length === 0 ? (
          <p className="note">No wave has been sent yet. Start one from the overview's “Let people in”.</p>
        ) : (
          <RowsTable rows={waves} rowKey={(wave) => wave.id} columns={WAVE_COLUMNS} />
        )}
      </Section>
      <p>
        <a href={CONSOLE_PATHS.home}>Back to the overview</a>
      </p>
    </>,
    visit.admin,
    {},
    { area: "home" },
  );
}
