/**
 * Watching a wave the console started, for bench/wave-matching.ts, without a request to the server: its row read
 * from the database every second until `finished_at` (each run's owner noted as it changes hands), the machine's
 * load sampled meanwhile, then who the wave invited set against who should have been, and the server's own log of
 * its background runs.
 */
import { loadavg } from "node:os";
import type pg from "pg";
import type { RunningServer } from "../../scripts/lib/server-process";
import type { Db } from "../../src/server/db/types";
import { pauseJob } from "../../src/server/jobs";

const POLL_MS = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface WaveRow {
  finished: Date | null;
  owner: string;
  invited: number;
  refused: number;
  paused: string | null;
  cancelled: boolean;
}

const WAVE_ROW_SQL = `SELECT finished_at AS finished, owner, invited, refused, paused_reason AS paused,
    cancelled_at IS NOT NULL AS cancelled
  FROM waitlist_invite_wave WHERE id = $1`;

export interface Watched {
  row: WaveRow | null;
  /** Owners seen holding the wave, in order (a background run's is `background-wave-…`). */
  owners: string[];
  /** The 1-minute load average, read every second: mean and highest. */
  load: { mean: number; max: number };
  timedOut: boolean;
}

/**
 * The wave's row until it is finished, paused or cancelled, or `timeoutMs` has passed; `progress` is called every
 * minute with the row (for the bench's log).
 */
export async function watchWave(
  watch: pg.Client,
  id: number,
  timeoutMs: number,
  progress: (row: WaveRow) => void,
): Promise<Watched> {
  const deadline = Date.now() + timeoutMs;
  const owners: string[] = [];
  const loads: number[] = [];
  let row: WaveRow | null = null;
  let told = Date.now();
  for (;;) {
    row = (await watch.query<WaveRow>(WAVE_ROW_SQL, [id])).rows[0] ?? null;
    loads.push(loadavg()[0] ?? 0);
    if (row && owners.at(-1) !== row.owner) owners.push(row.owner);
    if (!row || row.finished || row.paused !== null || row.cancelled) break;
    if (Date.now() > deadline) break;
    if (Date.now() - told >= 60_000) {
      told = Date.now();
      progress(row);
    }
    await sleep(POLL_MS);
  }
  const load = { mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) };
  return { row, owners, load, timedOut: !row?.finished && Date.now() > deadline };
}

/** Who should be invited: everyone `choices` matches who is confirmed, in no wave, not suppressed, read by raw SQL. */
export async function invitable(watch: pg.Client, choices: Record<string, string>) {
  const { rows } = await watch.query<{ id: string; email: string }>(
    `SELECT id, email FROM waitlist WHERE choices @> $1::jsonb AND status = 'confirmed' AND invite_wave_id IS NULL
       AND NOT mail_suppressed`,
    [JSON.stringify(choices)],
  );
  return { ids: new Set(rows.map((r) => Number(r.id))), emails: new Set(rows.map((r) => r.email.toLowerCase())) };
}

export interface Outcome {
  /** People the wave invited (`invited_wave_id`) or still holds (`invite_wave_id`), by status. */
  byStatus: Record<string, number>;
  /** People the wave still holds (their invitation not sent). */
  held: number;
  /** Of those expected, not invited by the wave; invited by it, not expected. */
  missing: number;
  extra: number;
  /** People invited since the confirmation by anything but this wave. */
  invitedElsewhere: number;
}

/**
 * The wave's people against `expected`, and anyone invited since `pressedAt` by anything else. A person the wave
 * invited keeps its id in `invited_wave_id` (migration 0019); `invite_wave_id` holds them only while being sent.
 */
export async function waveOutcome(watch: pg.Client, id: number, expected: Set<number>, pressedAt: Date) {
  const { rows } = await watch.query<{ id: string; status: string; held: boolean }>(
    `SELECT id, status, invite_wave_id IS NOT DISTINCT FROM $1 AS held FROM waitlist
     WHERE invited_wave_id = $1 OR invite_wave_id = $1`,
    [id],
  );
  const byStatus: Record<string, number> = {};
  const inWave = new Set<number>();
  for (const row of rows) {
    byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
    if (row.status === "invited" && !row.held) inWave.add(Number(row.id));
  }
  const [elsewhere] = (
    await watch.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM waitlist WHERE invited_at >= $2 AND invited_wave_id IS DISTINCT FROM $1",
      [id, pressedAt],
    )
  ).rows;
  return {
    byStatus,
    held: rows.filter((row) => row.held).length,
    missing: [...expected].filter((each) => !inWave.has(each)).length,
    extra: [...inWave].filter((each) => !expected.has(each)).length,
    invitedElsewhere: Number(elsewhere?.n ?? 0),
  } satisfies Outcome;
}

/** The server's background runs of wave `id` from its JSON log: each run's outcome, and jobs-resume's starts. */
export function runsOf(server: RunningServer, id: number, since: number) {
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        return Date.parse(String(parsed["time"])) >= since ? [parsed] : [];
      } catch {
        return [];
      }
    });
  return {
    outcomes: lines
      .filter((line) => line["event"] === "jobs.run_ended" && line["kind"] === "wave" && Number(line["id"]) === id)
      .map((line) => String(line["outcome"])),
    resumed: lines
      .filter((line) => line["event"] === "jobs.resumed")
      .reduce((sum, line) => sum + Number(line["started"] ?? 0), 0),
    failures: lines.filter((line) => line["level"] === "error").map((line) => String(line["event"])),
  };
}

/**
 * Once the watch is over with wave `id` unfinished: the wave paused as the console's Pause does (by its row), and
 * its run awaited (it stops before its next e-mail and logs its end), so the counts read after are whole. Resolves
 * to whether the run ended within a minute.
 */
export async function pauseWave(watch: pg.Client, server: RunningServer, id: number, since: number) {
  const db: Db = {
    kind: "pg",
    query: async (sql, params) => (await watch.query(sql, params)).rows,
    close: async () => {},
  };
  const ended = runsOf(server, id, since).outcomes.length;
  if (!(await pauseJob(db, "wave", id, "the bench's watch is over"))) return true;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (runsOf(server, id, since).outcomes.length > ended) return true;
    await sleep(POLL_MS);
  }
  return false;
}
