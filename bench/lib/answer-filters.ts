/**
 * Issue 50 at scale, for bench/scale.ts: "people whose answer to Q is V" as raw SQL on the filled list (this tree has
 * no People filter by answer yet), each the way the People list reads a filter (its first page of 26 newest, and
 * its matches counted up to 1,001), timed from one client; and the two questions the fill answered, asked by the
 * server for the run, so the download has a column per question.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { median } from "./console-session";
import { ANSWER_FILTERS, ANSWER_SQL } from "./scale-measure";

export interface AnswerTiming {
  pageMs: number;
  countMs: number;
  matches: number;
  /** Whether the plans read the answers' GIN index (waitlist_choices_idx). */
  index: boolean;
}

async function medianMs(client: pg.Client, sql: string, params: unknown[]): Promise<number> {
  await client.query(sql, params);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await client.query(sql, params);
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function timeAnswerFilters(client: pg.Client): Promise<Record<string, AnswerTiming>> {
  const result: Record<string, AnswerTiming> = {};
  for (const [label, choices] of ANSWER_FILTERS) {
    const params = [JSON.stringify(choices)];
    const plans = await Promise.all(
      [ANSWER_SQL.page, ANSWER_SQL.count].map(async (sql) =>
        JSON.stringify((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows),
      ),
    );
    const [row] = (await client.query<{ n: number }>(ANSWER_SQL.count, params)).rows;
    result[label] = {
      pageMs: await medianMs(client, ANSWER_SQL.page, params),
      countMs: await medianMs(client, ANSWER_SQL.count, params),
      matches: row?.n ?? 0,
      index: plans.some((plan) => plan.includes("waitlist_choices_idx")),
    };
  }
  return result;
}

/** The two questions of the fill (CHOICES_FILL), asked by `tree`'s server while `use` runs; the file put back after. */
export async function withFilledQuestions<T>(tree: string, use: () => Promise<T>): Promise<T> {
  const path = join(tree, "src/content/questions.json");
  const kept = readFileSync(path, "utf8");
  const question = (id: string, label: string, options: string[]) => ({ id, label, type: "choice", options });
  writeFileSync(
    path,
    `${JSON.stringify([
      question("team-size", "How big is your team?", ["Just me", "2–10", "11–50", "50+"]),
      question("role", "What do you do?", ["Engineer", "Researcher", "Founder", "Student", "Other"]),
    ])}\n`,
  );
  try {
    return await use();
  } finally {
    writeFileSync(path, kept);
  }
}
