/**
 * `npm run bench -- wave-matching [-- --size N --answer question=value]`: issue 50, point 6. A list of a million
 * sign-ups with two choice questions answered (bench/lib/scale-measure.ts fillSql, by SQL, into a throw-away
 * PostgreSQL database at TEST_POSTGRES_URL), served by `npm start`'s server (scripts/serve.ts; mail on, to an SMTP
 * server on 127.0.0.1 that counts each message per recipient; jobs-resume on its every-minute schedule), asking those
 * two questions from a copy of questions.json (tests/support/questions-hook.mjs). The bench is the operator's
 * browser: signed in by the link the console mails to ADMIN_EMAILS, it opens People filtered by one answer (default `role` is Engineer:
 * 100,002 confirmed people), reads "Invite everyone matching (N)", asks, and posts the confirmation once; from then
 * on it sends no request, and only reads the database and the SMTP server's counts until the wave's `finished_at`.
 * The background runs are the product's own (13 of 15 minutes each, then a successor): no hook shortens them.
 * `--max-minutes M` watches M minutes at most, then reports what was done (the wave then paused by its row). To
 * docs/performance.md (section "wave-matching"); exit 1 if anyone got two invitations, the wave missed someone
 * matching or took someone else, or the bench sent a request after the confirmation.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { type RunningServer, startServer } from "../scripts/lib/server-process";
import { invitationEmail } from "../src/server/mail/messages";
import { createMigratedDatabase } from "../tests/support/postgres";
import { codeState } from "./lib/cli";
import { ConsoleBrowser, formFields, visible } from "./lib/console-browser";
import { countingSmtp, otherMail, reachOf } from "./lib/counting-smtp";
import { fillSql } from "./lib/scale-measure";
import { type WaveRun, waveTable } from "./lib/wave-matching-table";
import { invitable, pauseWave, runsOf, watchWave, waveOutcome } from "./lib/wave-watch";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "1000000" },
    answer: { type: "string", default: "role=Engineer" },
    "max-minutes": { type: "string" },
  },
});
/** How long the bench watches at most (default: 10 min and 0.1 s an invitation): a wave not done by then is reported so. */
const MAX_MINUTES = values["max-minutes"] === undefined ? null : Number(values["max-minutes"]);
if (MAX_MINUTES !== null && !(MAX_MINUTES > 0)) {
  console.error(`wave-matching: --max-minutes takes a number of minutes, not "${values["max-minutes"]}"`);
  process.exit(2);
}
const SIZE = Number(values.size);
const [QUESTION = "", VALUE = ""] = values.answer.split("=");
/** The two questions fillSql answers (its CHOICES_FILL), as the copy of questions.json the server reads asks them. */
const QUESTIONS = [
  { id: "team-size", label: "How big is your team?", type: "choice", options: ["Just me", "2–10", "11–50", "50+"] },
  {
    id: "role",
    label: "What do you do?",
    type: "choice",
    options: ["Engineer", "Researcher", "Founder", "Student", "Other"],
  },
];
if (!Number.isSafeInteger(SIZE) || SIZE < 1000) {
  console.error(`wave-matching: --size takes a whole number of at least 1000, not "${values.size}"`);
  process.exit(2);
}
if (!QUESTIONS.some((q) => q.id === QUESTION && q.options.includes(VALUE))) {
  console.error(`wave-matching: --answer takes question=value of the fill's questions, such as role=Engineer`);
  process.exit(2);
}

/** The operator: signs in by the link the console mails to ADMIN_EMAILS (mail is on, so the token is refused). */
const ADMIN = "ops@noosphere.test";
/** The invitation's Subject: what the SMTP server counts as the wave's (the schedules mail others meanwhile). */
const INVITATION = invitationEmail({ access: "", remove: "", site: "", ttlDays: 30, confirmedByLink: true }).subject;
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();
const n = (value: number) => value.toLocaleString("en");

// ── What the bench opens, closed in reverse order at the end, also on failure or a signal ──
const closers: Array<() => Promise<unknown> | unknown> = [];
let closing: Promise<void> | null = null;
const closeAll = () => {
  closing ??= (async () => {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        console.error(`wave-matching: closing failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return closing;
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void closeAll().finally(() => process.exit(130)));
}

/** The list, filled by one statement, then VACUUM ANALYZE as autovacuum would have by the time it is this long. */
async function fill(watch: pg.Client) {
  let started = performance.now();
  await watch.query(fillSql(SIZE));
  const fillSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await watch.query("VACUUM ANALYZE");
  return { fillSeconds, analyzeSeconds: (performance.now() - started) / 1000 };
}

/** `npm start`'s server on the list, mail on to `smtpUrl`, the questions from the copy in `folder`. */
function serve(url: string, smtpUrl: string, folder: string): Promise<RunningServer> {
  const questions = join(folder, "questions.json");
  writeFileSync(questions, `${JSON.stringify(QUESTIONS)}\n`);
  return startServer(
    {
      DATABASE_URL: url,
      // Nothing of the calling shell's decides where the list is, what seals it or which site it is.
      DATABASE_DRIVER: "",
      NETLIFY_DB_URL: "",
      DATA_KEY: "",
      DATA_KEY_PREVIOUS: "",
      SITE_URL: "",
      SERVER_SECRET: "",
      RATE_LIMIT_SECRET: "",
      WEBHOOK_URL: "",
      WAITLIST_ADMIN_TOKEN: "",
      ADMIN_EMAILS: ADMIN,
      SMTP_URL: smtpUrl,
      MAIL_FROM: "Noosphere <hello@noosphere.test>",
      MAIL_RATE_PER_SECOND: "unlimited",
      EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
      // As `npm start` runs it: jobs-resume every minute, which starts again a run that died.
      NETLIFY_SCHEDULES: "on",
      TEST_QUESTIONS_FILE: questions,
    },
    join(folder, "data"),
    ["--import", "./tests/support/questions-hook.mjs"],
  );
}

/** People filtered by the answer, "Invite everyone matching (N)", the question, and its confirmation posted once. */
async function confirmWave(browser: ConsoleBrowser) {
  const path = `/admin/people?${new URLSearchParams({ [`answer:${QUESTION}`]: VALUE })}`;
  const people = await browser.send(path);
  const button = /Invite everyone matching \(([^)]*)\)/.exec(visible(people.body))?.[1];
  const fields = formFields(people.body, "Invite everyone matching");
  if (people.status !== 200 || !button || !fields) {
    throw new Error(`People ${path} answered ${people.status} with no "Invite everyone matching"`);
  }
  const asked = await browser.send("/admin/invite", fields);
  const count = /<h1[^>]*>Invite ([\d,]+) (?:person|people)\?<\/h1>/.exec(visible(asked.body))?.[1];
  const confirm = formFields(asked.body, 'name="ticket"');
  if (asked.status !== 200 || !count || confirm?.["confirm"] !== "yes") {
    throw new Error(`the question answered ${asked.status}: ${asked.body.slice(0, 300)}`);
  }
  const pressedAt = new Date();
  const pressed = await browser.send("/admin/invite", confirm);
  const requestsAt = browser.requests;
  const job = new URL(pressed.location || "/", "http://x").searchParams;
  const id = Number(job.get("id"));
  if (pressed.status !== 303 || job.get("kind") !== "wave" || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`the confirmation answered ${pressed.status} ${pressed.location}: ${pressed.body.slice(0, 300)}`);
  }
  return {
    button,
    asked: Number(count.replaceAll(",", "")),
    peopleMs: people.ms,
    askedMs: asked.ms,
    pressMs: pressed.ms,
    pressedAt,
    requestsAt,
    id,
  };
}

async function run(): Promise<WaveRun> {
  const code = codeState();
  const before = uptime();
  const database = await createMigratedDatabase("bench_wave_matching");
  closers.push(() => database.drop());
  const watch = new pg.Client({ connectionString: database.url });
  await watch.connect();
  closers.push(() => watch.end());
  console.log(`filling ${n(SIZE)} sign-ups by SQL…`);
  const filled = await fill(watch);
  const expected = await invitable(watch, { [QUESTION]: VALUE });
  console.log(`filled in ${filled.fillSeconds.toFixed(1)} s; ${n(expected.ids.size)} to invite; ${uptime()}`);
  const smtp = await countingSmtp(ADMIN);
  closers.push(() => smtp.close());
  const folder = mkdtempSync(join(tmpdir(), "bench-wave-matching-"));
  closers.push(() => rmSync(folder, { recursive: true, force: true }));
  const server = await serve(database.url, smtp.url, folder);
  started = server;
  // Its graceful stop waits for work in flight; a run stuck past half a minute is ended.
  const stop = async () => {
    const kill = setTimeout(() => process.kill(server.pid, "SIGKILL"), 30_000);
    await server.stop();
    clearTimeout(kill);
  };
  closers.push(stop);
  const browser = new ConsoleBrowser(server.url);
  await browser.signIn(ADMIN, smtp.signInLinks);
  const asked = await confirmWave(browser);
  const atPress = uptime();
  console.log(`wave ${asked.id} of ${n(asked.asked)} started; watching the database (${atPress})`);
  // Generous by default: the rate moves with the shared machine's load.
  const timeoutMs = MAX_MINUTES === null ? 600_000 + asked.asked * 100 : MAX_MINUTES * 60_000;
  const watched = await watchWave(watch, asked.id, timeoutMs, (row) => {
    const reach = reachOf(smtp, INVITATION);
    console.log(
      `  ${n(row.invited)} invited, ${n(reach.messages)} accepted, ${reach.perSecond.toFixed(0)}/s; ${uptime()}`,
    );
  });
  const watchedMs = Date.now() - asked.pressedAt.getTime();
  // The measurement is over: a wave still sending is paused (its row, as the console's Pause) and the server stopped,
  // so the counts below are whole.
  if (!watched.row?.finished) await pauseWave(watch, server, asked.id, asked.pressedAt.getTime() - 1000);
  await stop();
  const invited = smtp.bySubject.get(INVITATION)?.perRecipient ?? new Map<string, number>();
  return {
    code,
    uptime: { before, atPress, after: uptime() },
    size: SIZE,
    answer: { question: QUESTION, value: VALUE },
    filled,
    expected: expected.ids.size,
    asked,
    requestsAfter: browser.requests - asked.requestsAt,
    watched,
    watchedMs,
    maxMinutes: MAX_MINUTES,
    reach: reachOf(smtp, INVITATION),
    strangers: [...invited.keys()].filter((to) => !expected.emails.has(to)).length,
    unreached: [...expected.emails].filter((to) => !invited.has(to)).length,
    otherMail: otherMail(smtp, INVITATION),
    outcome: await waveOutcome(watch, asked.id, expected.ids, asked.pressedAt),
    runs: runsOf(server, asked.id, asked.pressedAt.getTime() - 1000),
  };
}

let result: WaveRun | null = null;
/** The server, once started: its error lines are shown when the bench fails. */
let started: RunningServer | null = null;
try {
  result = await run();
} catch (error) {
  const errors = ((started as RunningServer | null)?.output() ?? "")
    .split("\n")
    .filter((line) => line.includes('"level":"error"'));
  console.error("wave-matching: the bench failed before its table:", error, errors.slice(-10).join("\n"));
  process.exitCode = 1;
} finally {
  await closeAll();
}
if (result) {
  const { body, ok } = waveTable(result);
  console.log(body);
  writeSection("wave-matching", body);
  if (!ok) process.exitCode = 1;
}
