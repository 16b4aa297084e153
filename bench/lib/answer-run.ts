/**
 * The People page by answer at scale (issue 50), for bench/scale.ts: every page of answer-filters.ts timed over HTTP
 * and split in-process, beside the machine's load (`uptime`) before and after; the run on its own
 * (`npm run bench -- scale --answers`: the fill, the server, these pages, nothing else); and its section of
 * docs/performance.md ("scale-answers").
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { writeSection } from "../../scripts/lib/perf-doc";
import { startServer } from "../../scripts/lib/server-process";
import { createTestDatabase } from "../../tests/support/postgres";
import {
  type AnswerPage,
  answerPages,
  askingFilledQuestions,
  type HttpTiming,
  splitPages,
  timeOverHttp,
} from "./answer-filters";
import { BENCH_TOKEN, signIn } from "./console-session";
import type { PageSplit } from "./people-split";
import { fillSql } from "./scale-measure";

export const ANSWER_BUDGET_MS = 100;

export interface AnswerRun {
  size: number;
  date: string;
  code: string;
  /** The fill's seconds and VACUUM ANALYZE's; null: a list filled by an earlier run (`--database`). */
  fill: { seconds: number; analyzeSeconds: number } | null;
  /** `uptime` as the pages' timing started and as it ended. */
  uptime: [string, string];
  pages: Array<AnswerPage & { http: HttpTiming; split: PageSplit | undefined }>;
}

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

/** Every answer page over HTTP at `base` (signed in with `cookie`), then split in-process on `databaseUrl`. */
export async function timeAnswers(
  base: string,
  cookie: string,
  databaseUrl: string,
): Promise<Pick<AnswerRun, "uptime" | "pages">> {
  const pages = await answerPages(databaseUrl);
  const before = uptime();
  const timed = [];
  for (const page of pages) {
    const http = await timeOverHttp(base, cookie, page);
    console.log(
      `  ${page.label}: ${http.median.toFixed(0)} ms median, ${http.max.toFixed(0)} ms max${http.ok ? "" : " ✗"}`,
    );
    timed.push({ ...page, http });
  }
  const after = uptime();
  const split = await splitPages(databaseUrl, pages);
  return { uptime: [before, after], pages: timed.map((page) => ({ ...page, split: split[page.path] })) };
}

export interface AnswersOnly {
  size: number;
  /** Keep the filled database (its URL is printed) for another run with `database`. */
  keep: boolean;
  /** A list an earlier run filled (and kept): measured as it is, not filled again. */
  database: string | undefined;
}

/** Fills a list (or takes `database`), serves it asking the filled questions, and times the answer pages. */
export async function answersOnly({ size, keep, database }: AnswersOnly): Promise<AnswerRun> {
  const code = execFileSync("git", ["describe", "--always", "--dirty"], { encoding: "utf8" }).trim();
  const made = database ? null : await createTestDatabase(`bench_scale_answers_${size}`);
  const url = database ?? made?.url ?? "";
  const dataDir = mkdtempSync(join(tmpdir(), "bench-answers-"));
  let fill: AnswerRun["fill"] = null;
  try {
    if (made) {
      execFileSync("node_modules/.bin/node", ["--import", "tsx", "scripts/migrate.ts"], {
        env: { ...process.env, DATABASE_URL: url },
        stdio: "pipe",
      });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        let started = performance.now();
        await client.query(fillSql(size, true));
        const seconds = (performance.now() - started) / 1000;
        started = performance.now();
        await client.query("VACUUM ANALYZE");
        fill = { seconds, analyzeSeconds: (performance.now() - started) / 1000 };
      } finally {
        await client.end();
      }
      console.log(`  filled ${size.toLocaleString("en")} in ${fill.seconds.toFixed(0)} s (${url})`);
    }
    const asking = askingFilledQuestions();
    const env = { ...asking.env, DATABASE_URL: url, WAITLIST_ADMIN_TOKEN: BENCH_TOKEN, SMTP_URL: "" };
    const server = await startServer(env, join(dataDir, "data"), asking.nodeFlags);
    try {
      const timed = await timeAnswers(server.url, await signIn(server.url), url);
      return { size, date: new Date().toISOString().slice(0, 10), code, fill, ...timed };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (made && !keep) await made.drop();
    if (made && keep) console.log(`  kept: --database ${url}`);
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en"));

/** The section's table row of one page, and what misses the budget (empty: nothing). */
function row(page: AnswerRun["pages"][number]): { line: string; faults: string[] } {
  const { http, split } = page;
  const faults = [
    ...(http.ok ? [] : ["wrong answer"]),
    ...(http.median > ANSWER_BUDGET_MS ? [`median ${ms(http.median)} ms`] : []),
  ];
  const matches = page.matches === null ? "search" : page.matches.toLocaleString("en");
  const inProcess = split ? `${ms(split.pageMs)} · ${ms(split.sqlMs)} (${split.statements})` : "—";
  const slowest = split
    ? `\`${split.slowest.sql}…\` ${ms(split.slowest.ms)} · ${ms(split.slowest.executionMs)}${split.slowest.indexes.length ? ` · ${split.slowest.indexes.join(", ")}` : " · no index"}`
    : "—";
  const verdict = faults.length ? `✗ ${faults.join("; ")}` : "✓";
  return {
    line: `| ${page.label} | ${matches} | ${ms(http.median)} (${ms(http.max)})${http.ok ? "" : " ✗"} | ${inProcess} | ${slowest} | ${verdict} |`,
    faults: faults.map((fault) => `${page.label}: ${fault}`),
  };
}

/** Writes the run's section of docs/performance.md; answers what misses the budget. */
export function writeAnswersSection(run: AnswerRun, command: string): string[] {
  const rows = run.pages.map(row);
  const failures = rows.flatMap((r) => r.faults);
  const fill = run.fill
    ? `filled in ${run.fill.seconds.toFixed(0)} s (+ ${run.fill.analyzeSeconds.toFixed(0)} s VACUUM ANALYZE)`
    : "filled by an earlier run of the same command (`--keep`, then `--database`)";
  const body = [
    `## People by answer at scale (\`${command}\`)`,
    "",
    `${run.size.toLocaleString("en")} sign-ups filled by the scale section's SQL (bench/lib/scale-measure.ts \`fillSql\`), ${fill}, with`,
    "two choice questions answered: `team-size` (Just me 30%, 2–10 40%, 11–50 28%, 50+ 2%) and `role` (a fifth each),",
    "which the server asks (tests/support/questions-hook.mjs, a questions file of the bench's own). Served as `npm start`",
    "serves it with `DATABASE_URL` (PostgreSQL 15 on 127.0.0.1:5432), the console signed in, on the project machine's 2",
    `shared cores; measured on ${run.date} (code ${run.code}). \`uptime\` as the timing began: \`${run.uptime[0]}\`; as it`,
    `ended: \`${run.uptime[1]}\`.`,
    "",
    "HTTP: the People page, ms, median (max) of 5 after one unmeasured request, each answer 200 with the heading its",
    "matches give (counted apart by SQL). In-process: the console's own handler without HTTP (bench/lib/people-split.ts),",
    "ms, median of 5 of the whole · of its SQL (statements), the rest being the page's own work; run after the HTTP",
    "timing, in a fresh process on the same shared cores, so it tells how a page's time splits, not the page's time.",
    "The slowest statement: its first words, its ms in the page · EXPLAIN ANALYZE's execution ms (its per-row timing",
    `included) · the indexes its plan reads. Budget: HTTP median ≤ ${ANSWER_BUDGET_MS} ms.`,
    "",
    "| page | matches | HTTP | in-process: whole · SQL | slowest statement | budget |",
    "| --- | ---: | ---: | ---: | --- | --- |",
    ...rows.map((r) => r.line),
    "",
    failures.length ? `Over budget: ${failures.join("; ")}.` : "Every page is within its budget.",
  ].join("\n");
  console.log(`\n${body}`);
  writeSection("scale-answers", body);
  return failures;
}
