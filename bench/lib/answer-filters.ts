/**
 * Issue 50 at scale, for bench/scale.ts: the two choice questions the fill answered (scale-measure.ts CHOICES_FILL),
 * asked by the server through tests/support/questions-hook.mjs and a file of its own (the repository's
 * questions.json is left alone), and the People page filtered by each of their answers, and searched by a part of an
 * address, timed over HTTP: median and max of 5 after one unmeasured request, each answer 200 with the heading the
 * list must have (its matches counted apart, by SQL). Then each page once more in a process of its own without HTTP
 * (people-split.ts), its SQL timed apart from the rest and its slowest statement's plan read.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { counted } from "../../src/lib/plural";
import { median } from "./console-session";
import type { PageSplit } from "./people-split";
import { KNOWN_PERSON } from "./scale-measure";

const exec = promisify(execFile);

/** The questions the fill answered, as a team would declare them in questions.json. */
export const FILLED_QUESTIONS = [
  { id: "team-size", label: "How big is your team?", type: "choice", options: ["Just me", "2–10", "11–50", "50+"] },
  {
    id: "role",
    label: "What do you do?",
    type: "choice",
    options: ["Engineer", "Researcher", "Founder", "Student", "Other"],
  },
];

/** What a server (or a process) needs to ask FILLED_QUESTIONS: its environment and its node flags. */
export function askingFilledQuestions(): { env: Record<string, string>; nodeFlags: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "bench-questions-"));
  // Removed as the bench ends: every server and process that reads it ends before.
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "questions.json");
  writeFileSync(file, `${JSON.stringify(FILLED_QUESTIONS)}\n`);
  return { env: { TEST_QUESTIONS_FILE: file }, nodeFlags: ["--import", "./tests/support/questions-hook.mjs"] };
}

export interface AnswerPage {
  label: string;
  /** The address as the console writes it (its canonical order: anything else answers 303). */
  path: string;
  /** The heading or address the page must show. */
  expected: string;
  /** The rows it matches, counted by SQL (null: a search, shown by its address). */
  matches: number | null;
}

const people = (params: Record<string, string>) => `/admin/people?${new URLSearchParams(params).toString()}`;

/** Each answer of each question alone, two questions together, and the searches by a part of an address. */
export async function answerPages(databaseUrl: string): Promise<AnswerPage[]> {
  const filters: Array<Record<string, string>> = [
    ...FILLED_QUESTIONS.flatMap((q) => q.options.map((option) => ({ [q.id]: option }))),
    { "team-size": "50+", role: "Founder" },
  ];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pages: AnswerPage[] = [];
    for (const choices of filters) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM waitlist WHERE choices @> $1::jsonb",
        [JSON.stringify(choices)],
      );
      const n = rows[0]?.n ?? 0;
      const words = Object.entries(choices).map(([id, value]) => `${id} ${value}`);
      const heading =
        n > 1000
          ? "More than 1,000 people match"
          : n === 0
            ? "Nobody matches"
            : `${counted(n, "person", "people")} match`;
      const params = Object.fromEntries(Object.entries(choices).map(([id, value]) => [`answer:${id}`, value]));
      pages.push({ label: `answer ${words.join(" and ")}`, path: people(params), expected: heading, matches: n });
    }
    const part = KNOWN_PERSON.part;
    pages.push(
      {
        label: `search by part of an address (\`?q=${part}\`)`,
        path: people({ q: part }),
        expected: KNOWN_PERSON.email,
        matches: null,
      },
      {
        label: `search by part of an address and an answer (\`?q=${part}\`, team-size 11–50)`,
        path: people({ q: part, "answer:team-size": "11–50" }),
        expected: KNOWN_PERSON.email,
        matches: null,
      },
    );
    return pages;
  } finally {
    await client.end();
  }
}

export interface HttpTiming {
  median: number;
  max: number;
  /** Every answer was 200 (no redirect) with the page's expected words. */
  ok: boolean;
}

/** `page` over HTTP with the session `cookie`: once unmeasured, then 5 times. */
export async function timeOverHttp(base: string, cookie: string, page: AnswerPage): Promise<HttpTiming> {
  const once = async () => {
    const res = await fetch(new URL(page.path, base), { headers: { Cookie: cookie }, redirect: "manual" });
    const text = await res.text();
    return res.status === 200 && text.includes(page.expected);
  };
  let ok = await once();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    ok = (await once()) && ok;
    times.push(performance.now() - started);
  }
  return { median: median(times), max: Math.max(...times), ok };
}

/** The pages run in a process of their own (people-split.ts), asking FILLED_QUESTIONS, on the list at `databaseUrl`. */
export async function splitPages(databaseUrl: string, pages: AnswerPage[]): Promise<Record<string, PageSplit>> {
  const asking = askingFilledQuestions();
  const { stdout } = await exec(
    "node_modules/.bin/node",
    [...asking.nodeFlags, "--import", "tsx", "bench/lib/people-split.ts", ...pages.map((p) => p.path)],
    { env: { ...process.env, ...asking.env, DATABASE_URL: databaseUrl, SMTP_URL: "" }, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Record<string, PageSplit>;
}
