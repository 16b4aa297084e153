/**
 * `npm run bench -- visits`: what it measures at each size, and its tables for docs/performance.md (beacons, what was
 * stored and how long the fill took, the console's pages over HTTP, the visits' reads and the count statement alone),
 * with what is over budget or wrong.
 */
import type { BeaconRun } from "./beacons";
import type { PageTiming } from "./console-session";
import { type CountTiming, VISIT_READS } from "./visits-reads";

export interface Size {
  name: string;
  views: number;
  visitors: number;
  days: number;
  signUps: number;
}

export const PAGES: Array<[label: string, path: string, expected: string]> = [
  ["overview, 30 days, funnel of 30 days (`/admin`)", "/admin", "How each source converts"],
  ["overview, funnel of 90 days (`?funnel=90`)", "/admin?funnel=90", "How each source converts"],
  ["overview, funnel of all time (`?funnel=all`)", "/admin?funnel=all", "How each source converts"],
  ["funnel CSV, all time (`/admin/funnel.csv?range=all`)", "/admin/funnel.csv?range=all", "all time,"],
];

export interface Stored {
  rollup_rows: string;
  tally_rows: string;
  tally_bytes: string;
  seen_rows: string;
  views: string;
  visitors: string;
  rollup_bytes: string;
  seen_bytes: string;
  salt_bytes: string;
}

export interface SizeRun {
  size: Size;
  /** Seconds to fill the sign-ups, the rollups and marks, and the tally. */
  fill: { signUps: number; visits: number; tally: number };
  stored: Stored;
  /** The 1-minute load average as the reads and pages began to be timed. */
  loadAtReads: number;
  pages: Record<string, PageTiming>;
  reads: Record<string, number>;
  count: CountTiming;
  beacons?: { flood: BeaconRun; many: BeaconRun; counted: number; tallied: boolean };
}

const n = (value: number | string) => Number(value).toLocaleString("en");
const mb = (bytes: number | string) => `${(Number(bytes) / 1_000_000).toFixed(1)} MB`;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en"));
const s = (seconds: number) => `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;

/** The console's pages, then the reads as SQL alone, each size a column; pages over budget go to `failures`. */
function pageRows(runs: SizeRun[], budgetMs: number, failures: string[]): string[] {
  const pages = PAGES.map(([label]) => {
    const cells = runs.map((run) => {
      const t = run.pages[label];
      if (!t) return "—";
      if (!t.ok) failures.push(`${label} at ${run.size.name}: wrong answer`);
      if (t.median > budgetMs) failures.push(`${label} at ${run.size.name}: median ${ms(t.median)} ms`);
      return `${ms(t.median)} (${ms(t.max)})${t.ok ? "" : " ✗"}`;
    });
    return `| ${label} | ${cells.join(" | ")} |`;
  });
  const reads = VISIT_READS.map(
    ([label]) => `| ${label}, SQL alone | ${runs.map((run) => ms(run.reads[label] ?? 0)).join(" | ")} |`,
  );
  const count = [
    `| count statement alone (an arrival: 2 rollups, 10 or 12 tally rows), one client, ms median of 200 | ${runs
      .map((run) => ms(run.count.median))
      .join(" | ")} |`,
    `| count statements a second, 10 clients at once | ${runs.map((run) => n(run.count.rate.toFixed(0))).join(" | ")} |`,
  ];
  return [...pages, ...reads, ...count];
}

/** The beacons' rows, and whether every view taken was counted and tallied. */
function beaconRows(run: SizeRun, connections: number, failures: string[]): string[] {
  const b = run.beacons;
  if (!b) return [];
  const row = (label: string, r: BeaconRun) =>
    `| ${label} | ${n(r.rate.toFixed(0))} | ${ms(r.p50)} | ${ms(r.p99)} | ${n(r.taken)} | ${n(r.refused)} | ${n(r.other)} |`;
  // autocannon stops counting at its deadline with up to one request per connection still in flight, which the
  // server then counts: so between the 204s seen and those plus one per connection.
  const taken = b.flood.taken + b.many.taken;
  if (b.counted < taken || b.counted > taken + connections) {
    failures.push(`beacons: ${n(taken)} taken, ${n(b.counted)} views counted`);
  }
  if (!b.tallied) failures.push("beacons: the tally is not the rollups' sums");
  return [row("one client address (a flood)", b.flood), row("250 client addresses", b.many)];
}

export function visitsTable(main: SizeRun, large: SizeRun, opts: { budgetMs: number; connections: number }) {
  const failures: string[] = [];
  const runs = [main, large];
  const stored = runs.map(
    ({ size, stored, fill }) =>
      `| ${size.name} over ${size.days} days | ${n(stored.views)} | ${n(stored.visitors)} | ${n(stored.rollup_rows)} | ` +
      `${mb(stored.rollup_bytes)} | ${n(stored.tally_rows)} | ${mb(stored.tally_bytes)} | ${n(stored.seen_rows)} | ` +
      `${mb(stored.seen_bytes)} | ${s(fill.signUps)} + ${s(fill.visits)} + ${s(fill.tally)} |`,
  );
  const table = [
    "| beacons, concurrency 10 | answers/s | p50 ms | p99 ms | 204 (taken) | 429 (edge) | other |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...beaconRows(main, opts.connections, failures),
    "",
    "| filled | views | day-visitors | rollup rows | rollups on disk | tally rows | tally on disk | marks (2 days) | " +
      "marks on disk | fill: sign-ups + visits + tally |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...stored,
    "",
    `| console page, ms median (max) of 5 | ${main.size.name}, ${n(main.size.signUps)} sign-ups (load ` +
      `${main.loadAtReads.toFixed(1)}) | ${large.size.name} (load ${large.loadAtReads.toFixed(1)}) |`,
    "| --- | ---: | ---: |",
    ...pageRows(runs, opts.budgetMs, failures),
  ].join("\n");
  const verdict = failures.length
    ? `Over budget or wrong: ${failures.join("; ")}.`
    : `Every page within ${opts.budgetMs} ms median; every beacon taken was counted and tallied ` +
      `(${n(main.beacons?.counted ?? 0)} views).`;
  return { table, verdict, failures };
}
