/**
 * `npm run bench -- scale [--before <worktree>] [--sizes 10000,1000000]`: the list as a team that succeeded has it
 * (issue 30). For each size, a throw-away PostgreSQL database at TEST_POSTGRES_URL (127.0.0.1:5432) with the
 * migrations is filled by one SQL statement (bench/lib/scale-measure.ts fillSql), then served as `npm start` serves
 * it with DATABASE_URL and timed over HTTP: every console page (median and max of 5), the whole download through
 * the console and through `GET /api/waitlist/export` (every response, the largest on the wire, the slowest, the
 * server's peak memory, and every row accounted for), a sign-up, and the CLI's `count` and a dry run of a wave of
 * 1,000, each a whole command. The table, with each budget, goes to docs/performance.md (section "scale").
 *
 * The after code's server asks the two questions the fill answered, and the People page filtered by each answer is
 * timed too, in a section of its own (bench/lib/answer-run.ts). `--answers` runs only that: the fill (1,000,000 unless
 * --sizes says) and those pages; `--keep` keeps its database, and `--database <url>` measures a kept one again.
 *
 * `--before <worktree>` runs the same against another checkout first (the code before the console was made flat:
 * `git worktree add /tmp/before 4aa1bac`, node_modules linked in, built once), each size with that checkout's own
 * migrations. That code does not change, so its figures are kept in the section (a JSON comment) and shown again by
 * a run without `--before`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { type RunningServer, startServer } from "../scripts/lib/server-process";
import { newToken } from "../src/server/crypto/tokens";
import { ordinal } from "../src/server/referrals/status-page";
import { createTestDatabase } from "../tests/support/postgres";
import { askingFilledQuestions } from "./lib/answer-filters";
import { type AnswerRun, answersOnly, timeAnswers, writeAnswersSection } from "./lib/answer-run";
import { median, signIn, BENCH_TOKEN as TOKEN } from "./lib/console-session";
import {
  consoleDownload,
  type DownloadReport,
  EXPECTED_PLACE_SQL,
  fillSql,
  httpDownload,
  KNOWN_PERSON,
  REFERRAL_TOP,
  referralFillSql,
  STATUS_PEOPLE_SQL,
  STATUS_TOKEN_SQL,
  timeCommand,
  treeRssMb,
  unescapeHtml,
} from "./lib/scale-measure";

const EARLY_ACCESS_URL = "https://app.noosphere.test/signup";
/** The sign-up the fill made at every size (10,000 and up), found by its whole address and by a part of it. */
const SOUGHT = KNOWN_PERSON.n;
const WAVE = 1000;
/** Status pages and share-link sign-ups: this many timed requests each, unless STATUS_TIME_MS is spent first. */
const STATUS_SAMPLES = 50;
/** Time a person's status page may take in all (then at least MIN_SAMPLES): a slow line is reported, not waited on. */
const STATUS_TIME_MS = 20_000;
const MIN_SAMPLES = 5;
/** REFERRAL_PLACES of the second server, whose status pages are reported beside the default's (0). */
const PLACES_MOVED = 1000;

const BUDGET = {
  pageMedianMs: 100,
  pageMaxMs: 250,
  /** A page at the largest size, against its own median at the smallest. */
  pageGrowth: 3,
  responseBytes: 20_000_000,
  responseMs: 60_000,
  memoryMb: 100,
  signUpMs: 100,
  /** A status page's median, with REFERRAL_PLACES at its default (0): the issue's requirement. */
  statusMs: 100,
  commandMs: 5000,
};

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const beforeDir = option("--before") ?? process.env["SCALE_BEFORE_TREE"];
const SIZES = (option("--sizes") ?? "10000,1000000").split(",").map(Number);
if (SIZES.some((size) => !Number.isInteger(size) || size < SOUGHT)) {
  console.error(`scale: --sizes takes whole numbers of at least ${SOUGHT}, such as 10000,1000000`);
  process.exit(2);
}
if (beforeDir && !existsSync(join(beforeDir, "dist"))) {
  console.error(`scale: ${beforeDir} has no dist/: run npm run build there once (node_modules linked in)`);
  process.exit(2);
}
const MAIN = process.cwd();

interface Timing {
  median: number;
  max: number;
  n: number;
  /** Every answer was what the step asks for (status, and the content it must show). */
  ok: boolean;
  /** The unmeasured first request (code and plans loaded), when there was one. */
  first?: number;
}

/** A person's status page, timed, and the place it had to show (worked out apart: EXPECTED_PLACE_SQL). */
interface StatusTiming extends Timing {
  place: number;
}

/** What the referrals' fill made, and what their paths took. The before code has none of it. */
interface ReferralRun {
  fillSeconds: number;
  /** Waiting (confirmed) people after the fill. */
  confirmed: number;
  referrers: number;
  counted: number;
  statusLinks: number;
  /** REFERRAL_PLACES ("0", "1000") → who (first in line, …) → their status page. */
  status: Record<string, Record<string, StatusTiming>>;
  /** `POST /api/waitlist` with a share code, a new address each time. */
  shareSignUp: Timing;
}

interface RunResult {
  tree: "before" | "after";
  size: number;
  date: string;
  /** `git describe --always --dirty` of the tree measured. */
  code: string;
  fillSeconds: number;
  analyzeSeconds: number;
  pages: Record<string, Timing>;
  downloads: { console: DownloadReport; http: DownloadReport };
  signUp: Timing;
  count: Timing;
  dryRun: Timing;
  /** Only for the after code (its schema has referrals). */
  referrals?: ReferralRun;
  /** What went wrong beside the figures (a command's failure), for the reader of the table. */
  notes: string[];
  /** The People page by answer (after code only: the before code asks no questions), answer-run.ts. */
  answers?: Pick<AnswerRun, "uptime" | "pages">;
}

/**
 * Runs `step` once unmeasured (the first request of a path loads its code and plans), then `n` times, timed; with
 * `budgetMs`, stops once the timed runs have taken that long in all (after MIN_SAMPLES), so a slow path is measured
 * fewer times rather than for minutes.
 */
async function timed(n: number, step: () => Promise<boolean>, warmUp = true, budgetMs = Infinity): Promise<Timing> {
  let first: number | undefined;
  let ok = true;
  if (warmUp) {
    const started = performance.now();
    ok = await step();
    first = performance.now() - started;
  }
  const times: number[] = [];
  let spent = 0;
  while (times.length < n && (spent < budgetMs || times.length < MIN_SAMPLES)) {
    const started = performance.now();
    ok = (await step()) && ok;
    times.push(performance.now() - started);
    spent += times.at(-1) ?? 0;
  }
  return {
    median: median(times),
    max: Math.max(...times),
    n: times.length,
    ok,
    ...(first === undefined ? {} : { first }),
  };
}

/**
 * The server from `tree`'s scripts/serve.ts, as bench/*.ts start it. startServer spawns relative to the working
 * directory (synchronously, before its first await), so the directory is switched around that call alone.
 */
function serveFrom(
  tree: string,
  env: Record<string, string>,
  dataDir: string,
  nodeFlags: string[] = [],
): Promise<RunningServer> {
  process.chdir(tree);
  try {
    return startServer(env, dataDir, nodeFlags);
  } finally {
    process.chdir(MAIN);
  }
}

/** Runs `use` with a client of the database at `url`, closed after (the database is dropped only once none is open). */
/**
 * The People page's filters and orders (src/server/console/people/list.ts), each alone and a few together: one page along
 * its index, whether many, few or none match (the fill records no updates choice, no suppression, no wave: those
 * rows show "Nobody matches", which is read along an index too).
 */
async function peopleRows(
  older: (path: string, name?: string) => Promise<string>,
): Promise<Array<[string, string, string]>> {
  const people = (query: string, expected = "@example"): [string, string, string] => [
    `people, \`?${query}\``,
    `/admin/people?${query}`,
    expected,
  ];
  return [
    people("status=confirmed"),
    people("status=pending&sort=oldest"),
    people("source=hn"),
    people("source=+"),
    people("medium=email&sort=oldest"),
    people("campaign=launch"),
    people("referrer=t.co"),
    people("updates=never"),
    people("updates=yes", "Nobody matches"),
    people("suppressed=yes", "Nobody matches"),
    people("suppressed=no"),
    people("wave=1", "Nobody matches"),
    people("sort=oldest"),
    people("sort=referrals"),
    [
      "people, most referrals, “Next” from the first page",
      await older("/admin/people?sort=referrals", "Next"),
      "@example",
    ],
    people("status=confirmed&sort=referrals"),
    people("status=pending&source=hn&sort=referrals"),
    people(`q=${KNOWN_PERSON.part}&status=pending`, KNOWN_PERSON.email),
    ["people, confirmed, “Older” from the first page", await older("/admin/people?status=confirmed"), "@example"],
  ];
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The referrals' fill (bench/lib/scale-measure.ts referralFillSql), timed, and what it made. */
async function fillReferrals(client: pg.Client): Promise<Omit<ReferralRun, "status" | "shareSignUp">> {
  const started = performance.now();
  for (const statement of referralFillSql()) await client.query(statement);
  const fillSeconds = (performance.now() - started) / 1000;
  const { rows } = await client.query<{ confirmed: number; referrers: number; counted: number; links: number }>(
    `SELECT (SELECT count(*) FROM waitlist WHERE status = 'confirmed')::int AS confirmed,
      (SELECT count(*) FROM waitlist WHERE status = 'confirmed' AND referrals > 0)::int AS referrers,
      (SELECT count(*) FROM waitlist_referral WHERE outcome = 'counted')::int AS counted,
      (SELECT count(*) FROM waitlist_token WHERE purpose = 'status')::int AS links`,
  );
  const made = rows[0];
  return {
    fillSeconds,
    confirmed: made?.confirmed ?? 0,
    referrers: made?.referrers ?? 0,
    counted: made?.counted ?? 0,
    statusLinks: made?.links ?? 0,
  };
}

/** A person whose status page the bench opens: picked by STATUS_PEOPLE_SQL, with a status link only it knows. */
interface StatusPerson {
  who: string;
  id: number;
  code: string;
  referrals: number;
  /** The raw token of their link (the database keeps its hash, as src/server/crypto/tokens.ts makes it). */
  token: string;
}

async function statusPeople(client: pg.Client, size: number): Promise<StatusPerson[]> {
  const { rows } = await client.query<{ who: string; id: string; referral_code: string; referrals: number }>(
    STATUS_PEOPLE_SQL,
    [size],
  );
  const people: StatusPerson[] = [];
  for (const row of rows) {
    const { token, hash } = newToken();
    await client.query(STATUS_TOKEN_SQL, [hash, row.id]);
    people.push({ who: row.who, id: Number(row.id), code: row.referral_code, referrals: row.referrals, token });
  }
  return people;
}

async function measure(treeName: RunResult["tree"], tree: string, size: number): Promise<RunResult> {
  // The before code's pages take seconds at a million: 3 samples say as much there.
  const samples = treeName === "before" && size >= 1_000_000 ? 3 : 5;
  const code = execFileSync("git", ["describe", "--always", "--dirty"], { cwd: tree, encoding: "utf8" }).trim();
  console.log(`\n${treeName} (${code}), ${size.toLocaleString("en")} sign-ups`);
  const database = await createTestDatabase(`bench_scale_${treeName}_${size}`);
  const dataDir = mkdtempSync(join(tmpdir(), "bench-scale-"));
  let server: RunningServer | undefined;
  try {
    // The tree's own migrations: the before code ran on the schema of its day (no tallies, no trigram index).
    execFileSync("node_modules/.bin/node", ["--import", "tsx", "scripts/migrate.ts"], {
      cwd: tree,
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: "pipe",
    });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    let fillSeconds = 0;
    let analyzeSeconds = 0;
    // The referrals and status links, on the after code's schema only (the before code's has no such tables).
    let referralFill: Omit<ReferralRun, "status" | "shareSignUp"> | undefined;
    let people: StatusPerson[] = [];
    try {
      let started = performance.now();
      await client.query(fillSql(size, treeName === "after"));
      fillSeconds = (performance.now() - started) / 1000;
      if (treeName === "after") referralFill = await fillReferrals(client);
      started = performance.now();
      // Every table, as autovacuum would have by the time a list is this long: the tallies beside waitlist.
      await client.query("VACUUM ANALYZE");
      analyzeSeconds = (performance.now() - started) / 1000;
      if (referralFill) people = await statusPeople(client, size);
    } finally {
      await client.end();
    }
    console.log(`  filled in ${fillSeconds.toFixed(1)} s, VACUUM ANALYZE ${analyzeSeconds.toFixed(1)} s`);
    if (referralFill) {
      console.log(
        `  referrals filled in ${referralFill.fillSeconds.toFixed(1)} s: ${referralFill.referrers.toLocaleString("en")} ` +
          `referrers, ${referralFill.counted.toLocaleString("en")} counted referrals, ` +
          `${referralFill.statusLinks.toLocaleString("en")} status links`,
      );
    }

    const env = { DATABASE_URL: database.url, WAITLIST_ADMIN_TOKEN: TOKEN, EARLY_ACCESS_URL, SMTP_URL: "" };
    // The after code asks the two questions the fill answered (read as it starts): a column each in the downloads,
    // and a filter each on the People page.
    const asking = askingFilledQuestions();
    server = await (treeName === "after"
      ? serveFrom(tree, { ...env, ...asking.env }, join(dataDir, "data"), asking.nodeFlags)
      : serveFrom(tree, env, join(dataDir, "data")));
    const base = server.url;
    const cookie = await signIn(base);
    const get = async (path: string) => {
      const res = await fetch(new URL(path, base), { headers: { Cookie: cookie } });
      return { status: res.status, text: await res.text() };
    };
    /** The Older link's target on the page at `path`: a cursor (before=…) in the new code, page=N in the old. */
    const older = async (path: string, name = "Older") => {
      const href = new RegExp(`<a href="([^"]*)"[^>]*>${name}</a>`).exec((await get(path)).text)?.[1];
      if (!href) throw new Error(`no ${name} link on ${path}`);
      return unescapeHtml(href);
    };
    const notes: string[] = [];
    /** Whether the page at `path` answered 200 with `expected` in it; what it answered instead goes to the notes. */
    const shows = (label: string, path: string, expected: string) => async () => {
      const page = await get(path);
      if (page.status === 200 && page.text.includes(expected)) return true;
      const title = /<h1[^>]*>([^<]*)</.exec(page.text)?.[1] ?? "";
      const note = `${label} answered ${page.status}${title ? ` (“${title}”)` : ""} without ${expected}`;
      if (!notes.includes(note)) notes.push(note);
      return false;
    };
    const wholeAddress = KNOWN_PERSON.email;
    // The list: on the dashboard in the before code, on the People page now (the same rows, the same labels).
    const list = treeName === "before" ? "/admin" : "/admin/people";
    // The overview has no list since issue 42 (the People page has it): its funnel's heading says it answered.
    const overview = treeName === "after" ? "How each source converts" : "@example";
    const PAGES: Array<[string, string, string]> = [
      // The overview (the before code's dashboard, with its list): what needs attention, totals, the chart, the
      // funnel by source in each range, and the funnel's CSV, all read from tallies (migration 0018).
      ["dashboard, 30 days (`/admin`)", "/admin", overview],
      ["dashboard, 90 days (`?range=90`)", "/admin?range=90", overview],
      ...(treeName === "after"
        ? ([
            ["overview, funnel of 90 days (`?funnel=90`)", "/admin?funnel=90", overview],
            ["overview, funnel of all time (`?funnel=all`)", "/admin?funnel=all", overview],
            ["funnel CSV, 30 days (`/admin/funnel.csv?range=30`)", "/admin/funnel.csv?range=30", "last 30 days,"],
            ["funnel CSV, all time (`/admin/funnel.csv?range=all`)", "/admin/funnel.csv?range=all", "all time,"],
          ] as Array<[string, string, string]>)
        : []),
      [
        `search by a whole address (\`?q=${wholeAddress}\`)`,
        `${list}?q=${encodeURIComponent(wholeAddress)}`,
        wholeAddress,
      ],
      [`search by part of an address (\`?q=${KNOWN_PERSON.part}\`)`, `${list}?q=${KNOWN_PERSON.part}`, wholeAddress],
      ["“Older” from the first page", await older(list), "@example"],
      ["“Older” from page 399", await older(`${list}?page=399`), "@example"],
      ["page 400 by number (`?page=400`)", `${list}?page=400`, "@example"],
      ...(treeName === "after" ? await peopleRows(older) : []),
      // A person's page (their timeline, referrals, webhooks: all by their id) and the audit log (a page of 50,
      // its names read by id).
      ["a person's page (`/admin/person?id=…`)", `/admin/person?id=${SOUGHT}`, KNOWN_PERSON.email],
      ["the audit log (`/admin/audit`)", "/admin/audit", "Audit log"],
    ];
    const pages: Record<string, Timing> = {};
    for (const [label, path, expected] of PAGES) {
      const timing = await timed(samples, shows(label, path, expected));
      pages[label] = timing;
      console.log(`  ${label}: ${ms(timing.median)} ms median, ${ms(timing.max)} ms max`);
    }
    // The People page by each answer, before any sign-up below (answer-run.ts).
    const answers = treeName === "after" ? await timeAnswers(base, cookie, database.url) : undefined;

    // The downloads before any sign-up below, so every row they should carry is one the fill made.
    // Both measured from the server's idle before the first: Node keeps what a download grew its heap to, so the
    // second is charged for what the first left resident (an over-statement, never an under-).
    const idleMb = treeRssMb(server.pid);
    const consoleReport = await consoleDownload(base, server.pid, idleMb, cookie);
    console.log(`  console download: ${describeDownload(consoleReport, size)}`);
    const httpReport = await httpDownload(base, server.pid, idleMb, TOKEN);
    console.log(`  HTTP export: ${describeDownload(httpReport, size)}`);

    /**
     * Each person's status page on the server at `at`, the place it shows checked against EXPECTED_PLACE_SQL
     * (worked out now: a sign-up since moves no one below, but the line's length is not checked).
     */
    const statusPages = async (at: string, places: number) => {
      const { rows } = await withClient(database.url, (c) =>
        c.query<{ id: string; place: string }>(EXPECTED_PLACE_SQL, [places, people.map((p) => p.id)]),
      );
      const timings: Record<string, StatusTiming> = {};
      for (const person of people) {
        const place = Number(rows.find((row) => Number(row.id) === person.id)?.place ?? 0);
        const expected = `id="status-place">${ordinal(place)} of `;
        const timing = await timed(
          STATUS_SAMPLES,
          async () => {
            const res = await fetch(`${at}/waitlist/status?token=${person.token}`);
            const text = await res.text();
            if (res.status === 200 && text.includes(expected)) return true;
            const shown = /id="status-place">([^<]*)</.exec(text)?.[1];
            const note =
              `status page of the ${person.who} with REFERRAL_PLACES=${places} answered ${res.status}` +
              `${shown ? ` showing “${shown}”` : ""}, not ${ordinal(place)}`;
            if (!notes.includes(note)) notes.push(note);
            return false;
          },
          true,
          STATUS_TIME_MS,
        );
        timings[person.who] = { ...timing, place };
        console.log(
          `  status page, ${person.who} (${ordinal(place)}), REFERRAL_PLACES=${places}: ` +
            `${ms(timing.median)} ms median, ${ms(timing.max)} ms max of ${timing.n}, first ${ms(timing.first ?? 0)} ms`,
        );
      }
      return timings;
    };
    const status: ReferralRun["status"] = {};
    if (referralFill) status["0"] = await statusPages(base, 0);

    let n = 0;
    const signUp = await timed(samples, async () => {
      const res = await fetch(`${base}/api/waitlist`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: new URL(base).origin },
        body: JSON.stringify({
          name: "Scale Bench",
          email: `scale-${n++}@bench.example`,
          why: "bench",
          termsAccepted: true,
        }),
      });
      await res.arrayBuffer();
      return res.status === 201;
    });
    console.log(`  sign-up: ${ms(signUp.median)} ms median, ${ms(signUp.max)} ms max`);

    // Sign-ups through the share link of the person in the middle of the line, each a new address (startServer
    // sets RATE_LIMIT_MAX=100000 and NETLIFY_RATE_LIMIT=off, so no allowance or proof of work is in the way). Mail is
    // off, so each is stored confirmed with its referral 'pending': one row per request, checked after.
    let shareSignUp: Timing | undefined;
    const referrer = people.find((person) => person.who === "middle of the line");
    if (referralFill && referrer) {
      let shared = 0;
      shareSignUp = await timed(
        STATUS_SAMPLES,
        async () => {
          const res = await fetch(`${base}/api/waitlist`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Origin: new URL(base).origin },
            body: JSON.stringify({
              name: "Share Bench",
              email: `share-${shared++}@bench.example`,
              why: "bench",
              termsAccepted: true,
              referral: referrer.code,
            }),
          });
          const text = await res.text();
          if (res.status === 201) return true;
          const note = `a sign-up through a share link answered ${res.status}: ${text.slice(0, 120)}`;
          if (!notes.includes(note)) notes.push(note);
          return false;
        },
        true,
        STATUS_TIME_MS,
      );
      // Each sign-up's referral row (the fill gave this person none), by its outcome: 'pending' for every one (the
      // addresses are neither the referrer's mailbox nor a throwaway domain's).
      const { rows } = await withClient(database.url, (c) =>
        c.query<{ outcome: string; n: number }>(
          "SELECT outcome, count(*)::int AS n FROM waitlist_referral WHERE referrer_id = $1 GROUP BY 1 ORDER BY 1",
          [referrer.id],
        ),
      );
      const pending = rows.find((row) => row.outcome === "pending")?.n ?? 0;
      const outcomes = rows.map((row) => `${row.n} ${row.outcome}`).join(", ") || "none";
      if (pending !== shared) {
        shareSignUp.ok = false;
        notes.push(`${shared} sign-ups through a share link recorded these referrals: ${outcomes}`);
      }
      console.log(
        `  sign-up through a share link: ${ms(shareSignUp.median)} ms median, ${ms(shareSignUp.max)} ms max of ` +
          `${shareSignUp.n}, first ${ms(shareSignUp.first ?? 0)} ms; referrals recorded of ${shared}: ${outcomes}`,
      );
    }
    await server.stop();
    server = undefined;

    // The same status pages from a server whose referrals move people (REFERRAL_PLACES > 0): every status page
    // then also reads the moved people who could stand ahead (store/line.ts lineWindow). The same budget.
    if (referralFill) {
      server = await serveFrom(tree, { ...env, REFERRAL_PLACES: String(PLACES_MOVED) }, join(dataDir, "moved"));
      status[String(PLACES_MOVED)] = await statusPages(server.url, PLACES_MOVED);
      await server.stop();
      server = undefined;
    }

    // Each command a fresh process, as typed: start-up is part of what a person waits for, so no warm-up.
    const commandEnv = { ...process.env, DATABASE_URL: database.url, EARLY_ACCESS_URL };
    const command =
      (...words: string[]) =>
      async () => {
        const run = await timeCommand("npm", ["run", "waitlist", "--", ...words], tree, commandEnv);
        const said = words[0] === "count" ? /confirmed/i : new RegExp(`would invite ${WAVE}\\b`);
        if (run.code === 0 && said.test(run.stdout)) return true;
        // Said once per run and kind of failure: the first lines of what it wrote to stderr, past npm's own.
        const why = run.stderr
          .split("\n")
          .filter((line) => line.trim() && !line.startsWith("npm warn"))
          .slice(0, 2)
          .join(" ");
        const note = `\`npm run waitlist -- ${words.join(" ")}\` exited ${run.code}${why ? `: ${why}` : ""}`;
        if (!notes.includes(note)) notes.push(note);
        return false;
      };
    const count = await timed(samples, command("count"), false);
    console.log(`  npm run waitlist -- count: ${ms(count.median)} ms median`);
    const dryRun = await timed(samples, command("invite", "--next", String(WAVE)), false);
    console.log(`  npm run waitlist -- invite --next ${WAVE}: ${ms(dryRun.median)} ms median`);

    return {
      tree: treeName,
      size,
      date: new Date().toISOString().slice(0, 10),
      code,
      fillSeconds,
      analyzeSeconds,
      pages,
      downloads: { console: consoleReport, http: httpReport },
      signUp,
      count,
      dryRun,
      ...(referralFill && shareSignUp ? { referrals: { ...referralFill, status, shareSignUp } } : {}),
      notes,
      ...(answers ? { answers } : {}),
    };
  } finally {
    await server?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en"));
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const sizeName = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);

function describeDownload(d: DownloadReport, size: number): string {
  return (
    `${d.responses} response(s), largest ${mb(d.largestBytes)}, slowest ${seconds(d.slowestMs)}, ` +
    `all ${seconds(d.totalMs)}, ${d.rows.toLocaleString("en")} of ${size.toLocaleString("en")} rows, +${d.peakMb.toFixed(0)} MB`
  );
}

/** What a download misses of its budget (empty: nothing). */
function downloadFaults(d: DownloadReport, size: number): string[] {
  const faults: string[] = [];
  if (d.statuses.some((status) => status !== 200)) faults.push(`answered ${[...new Set(d.statuses)].join(", ")}`);
  if (d.rows !== size) faults.push(`${d.rows.toLocaleString("en")} rows of ${size.toLocaleString("en")}`);
  if (d.largestBytes > BUDGET.responseBytes) faults.push(`a response of ${mb(d.largestBytes)}`);
  if (d.slowestMs > BUDGET.responseMs) faults.push(`a response took ${seconds(d.slowestMs)}`);
  if (d.peakMb > BUDGET.memoryMb) faults.push(`+${d.peakMb.toFixed(0)} MB`);
  return faults;
}

// ── the People page by answer alone (issue 50): the fill and these pages, nothing else ──
if (args.includes("--answers")) {
  const failures: string[] = [];
  for (const size of option("--sizes") ? SIZES : [1_000_000]) {
    const run = await answersOnly({ size, keep: args.includes("--keep"), database: option("--database") });
    failures.push(...writeAnswersSection(run, "npm run bench -- scale --answers"));
  }
  process.exit(failures.length > 0 ? 1 : 0);
}

// ── the runs ──
const SECTION = "scale";
const DOC = "docs/performance.md";
const KEPT = /<!-- scale-before (\[.*?\]) -->/s;
const kept = (): RunResult[] => {
  const found = existsSync(DOC) ? KEPT.exec(readFileSync(DOC, "utf8")) : null;
  return found?.[1] ? (JSON.parse(found[1]) as RunResult[]) : [];
};

const started = performance.now();
const runs: RunResult[] = [];
if (beforeDir) for (const size of SIZES) runs.push(await measure("before", resolve(beforeDir), size));
for (const size of SIZES) runs.push(await measure("after", MAIN, size));
const before = beforeDir ? runs.filter((run) => run.tree === "before") : kept();
const after = runs.filter((run) => run.tree === "after");
const minutes = (performance.now() - started) / 60_000;

// ── the table ──
const columns = [...before, ...after];
const head = (run: RunResult) => `${run.tree}, ${sizeName(run.size)}`;
const smallest = after.find((run) => run.size === Math.min(...SIZES));
const largest = after.find((run) => run.size === Math.max(...SIZES));
const failures: string[] = [];

const pageRows = Object.keys(after[0]?.pages ?? {}).map((label) => {
  const cells = columns.map((run) => {
    const t = run.pages[label];
    return t ? `${ms(t.median)} (${ms(t.max)})${t.ok ? "" : " ✗"}` : "—";
  });
  const faults: string[] = [];
  for (const run of after) {
    const t = run.pages[label];
    if (!t) continue;
    if (!t.ok) faults.push(`${sizeName(run.size)}: wrong answer`);
    if (t.median > BUDGET.pageMedianMs) faults.push(`${sizeName(run.size)} median ${ms(t.median)} ms`);
    if (t.max > BUDGET.pageMaxMs) faults.push(`${sizeName(run.size)} max ${ms(t.max)} ms`);
  }
  const small = smallest?.pages[label];
  const large = largest?.pages[label];
  const growth = small && large && largest !== smallest ? large.median / small.median : null;
  if (growth !== null && growth > BUDGET.pageGrowth)
    faults.push(`${growth.toFixed(1)}× its time at ${sizeName(smallest?.size ?? 0)}`);
  failures.push(...faults.map((fault) => `${label}: ${fault}`));
  return `| ${label} | ${cells.join(" | ")} | ${growth === null ? "—" : `${growth.toFixed(1)}×`} | ${faults.length ? `✗ ${faults.join("; ")}` : "✓"} |`;
});

const measureRows = (
  [
    ["a sign-up (`POST /api/waitlist`)", (run: RunResult) => run.signUp, BUDGET.signUpMs],
    ["`npm run waitlist -- count`, the whole command", (run: RunResult) => run.count, BUDGET.commandMs],
    [
      `\`npm run waitlist -- invite --next ${WAVE}\` (dry run), the whole command`,
      (run: RunResult) => run.dryRun,
      BUDGET.commandMs,
    ],
  ] as const
).map(([label, of, budget]) => {
  const faults = after.flatMap((run) => {
    const t = of(run);
    return [
      ...(t.ok ? [] : [`${sizeName(run.size)}: wrong answer`]),
      ...(t.median > budget ? [`${sizeName(run.size)} median ${ms(t.median)} ms`] : []),
    ];
  });
  failures.push(...faults.map((fault) => `${label}: ${fault}`));
  const cells = columns.map((run) => `${ms(of(run).median)} (${ms(of(run).max)})${of(run).ok ? "" : " ✗"}`);
  return `| ${label} | ${cells.join(" | ")} | ≤ ${ms(budget)} ms: ${faults.length ? `✗ ${faults.join("; ")}` : "✓"} |`;
});

// Referrals and status pages: the after code's runs only (the before code has no such pages).
const referralRuns = after.filter((run) => run.referrals);
const people = Object.keys(referralRuns[0]?.referrals?.status["0"] ?? {});
const referralRows = ["0", String(PLACES_MOVED)].flatMap((places) =>
  people.map((who) => {
    const label = `status page, ${who} (\`REFERRAL_PLACES=${places}\`)`;
    const faults: string[] = [];
    const cells = referralRuns.map((run) => {
      const t = run.referrals?.status[places]?.[who];
      if (!t) return "—";
      if (!t.ok) faults.push(`${sizeName(run.size)}: wrong answer`);
      if (t.median > BUDGET.statusMs) faults.push(`${sizeName(run.size)} median ${ms(t.median)} ms`);
      return `${ms(t.median)} (${ms(t.max)}) · ${t.n} · ${ordinal(t.place)}${t.ok ? "" : " ✗"}`;
    });
    failures.push(...faults.map((fault) => `${label}: ${fault}`));
    const verdict = faults.length ? `✗ ${faults.join("; ")}` : "✓";
    return `| ${label} | ${cells.join(" | ")} | ≤ ${BUDGET.statusMs} ms: ${verdict} |`;
  }),
);
{
  const label = "a sign-up through a share link (`POST /api/waitlist` with `referral`)";
  const faults: string[] = [];
  const cells = referralRuns.map((run) => {
    const t = run.referrals?.shareSignUp;
    if (!t) return "—";
    if (!t.ok) faults.push(`${sizeName(run.size)}: wrong answer`);
    if (t.median > BUDGET.signUpMs) faults.push(`${sizeName(run.size)} median ${ms(t.median)} ms`);
    return `${ms(t.median)} (${ms(t.max)}) · ${t.n} · first ${ms(t.first ?? 0)}${t.ok ? "" : " ✗"}`;
  });
  failures.push(...faults.map((fault) => `${label}: ${fault}`));
  referralRows.push(
    `| ${label} | ${cells.join(" | ")} | ≤ ${BUDGET.signUpMs} ms: ${faults.length ? `✗ ${faults.join("; ")}` : "✓"} |`,
  );
}
const referralFills = referralRuns
  .map((run) => {
    const r = run.referrals;
    if (!r) return "";
    return (
      `${sizeName(run.size)}: ${r.referrers.toLocaleString("en")} referrers (${((100 * r.referrers) / r.confirmed).toFixed(1)}% ` +
      `of the confirmed), ${r.counted.toLocaleString("en")} counted referrals, ${r.statusLinks.toLocaleString("en")} ` +
      `status links, in ${r.fillSeconds.toFixed(1)} s`
    );
  })
  .join("; ");

const downloadRows = columns.flatMap((run) =>
  (["console", "http"] as const).map((path) => {
    const d = run.downloads[path];
    const faults = downloadFaults(d, run.size);
    if (run.tree === "after")
      failures.push(...faults.map((fault) => `${path} download at ${sizeName(run.size)}: ${fault}`));
    const what = path === "console" ? "console, “Download the list” (CSV)" : "`GET /api/waitlist/export` (CSV)";
    // The console's form answers a page of parts (timed apart) or, in the before code, the file itself.
    const plural = d.responses === 1 ? "" : "s";
    const how =
      path === "http"
        ? String(d.responses)
        : d.kind === "parts"
          ? `${d.responses} part${plural} + the page (${ms(d.pageMs)} ms)`
          : "1, the file itself";
    return `| ${what} | ${head(run)} | ${how} | ${mb(d.largestBytes)}${d.largestDecodedBytes > d.largestBytes ? ` (${mb(d.largestDecodedBytes)} decoded)` : ""} | ${seconds(d.slowestMs)} | ${seconds(d.totalMs)} | ${d.rows.toLocaleString("en")} | +${d.peakMb.toFixed(0)} MB | ${faults.length ? `✗ ${faults.join("; ")}` : "✓"} |`;
  }),
);

const today = new Date().toISOString().slice(0, 10);
const fills = columns
  .map((run) => `${head(run)} ${run.fillSeconds.toFixed(1)} s (+ ${run.analyzeSeconds.toFixed(1)} s VACUUM ANALYZE)`)
  .join(", ");
const beforeNote = before.length
  ? `“Before” is ${before[0]?.code} (the console before issue 30), measured on ${before[0]?.date} with its own migrations ` +
    "by `--before <a worktree of it>` and kept here since that code does not change; “after” is this tree " +
    `(${after[0]?.code}). `
  : "";
const body = [
  "## At scale (`npm run bench -- scale`)",
  "",
  `The list filled by SQL in a throw-away PostgreSQL 15 database on 127.0.0.1:5432 (one \`INSERT … SELECT … FROM`,
  "generate_series`: every status, 180 days of dates, sources, media, campaigns, referring hosts, the three answers",
  "and the message, names; then `VACUUM ANALYZE`), served by `npm start`'s server with `DATABASE_URL` and the console",
  `signed in with \`WAITLIST_ADMIN_TOKEN\` (mail off), on the 2 shared cores of the project machine; measured on ${today}`,
  `(the whole run: ${minutes.toFixed(1)} min). ${beforeNote}Fills: ${fills}.`,
  "",
  "Console pages over HTTP, ms, median (max) of 5 after one unmeasured request of each (3 for the before code at a",
  `million, whose pages take seconds). Budget: median ≤ ${BUDGET.pageMedianMs} ms, never above ${BUDGET.pageMaxMs} ms, and at the largest size`,
  `within ${BUDGET.pageGrowth}× the page's own time at the smallest (checked on the after code).`,
  "",
  `| page | ${columns.map(head).join(" | ")} | after, ${sizeName(largest?.size ?? 0)} ÷ ${sizeName(smallest?.size ?? 0)} | budget |`,
  `| --- | ${columns.map(() => "---:").join(" | ")} | ---: | --- |`,
  ...pageRows,
  "",
  "A sign-up, median (max) of the same number after one unmeasured; the CLI's commands as typed, each a new process",
  "(`npm run` and tsx's start-up included), ms:",
  "",
  `| | ${columns.map(head).join(" | ")} | budget |`,
  `| --- | ${columns.map(() => "---:").join(" | ")} | --- |`,
  ...measureRows,
  "",
  "The People page by each answer the fill gave: its own section below (`scale-answers`).",
  "",
  ...(referralRuns.length
    ? [
        "### Status pages and share links (after code)",
        "",
        "Beside the fill above, by SQL before `VACUUM ANALYZE` (bench/lib/scale-measure.ts `referralFillSql`): the",
        `confirmed rows whose id ends in 07 have 1–3 counted referrals (those ending in 0007: ${REFERRAL_TOP}), each a`,
        "counted `waitlist_referral` row of a later person who confirmed; every person who",
        "confirmed has a status link (its hash, as the confirmation stores it). Then four people get a status link of",
        "`src/server/crypto/tokens.ts`'s `newToken()`, whose token the bench keeps: the first, the middle and the last waiting",
        `person in sign-up order without referrals, and the top referrer nearest the middle. ${referralFills}.`,
        "",
        "`GET /waitlist/status?token=…` of each, after one unmeasured request, then up to",
        `${STATUS_SAMPLES} timed (fewer once ${STATUS_TIME_MS / 1000} s are spent, at least ${MIN_SAMPLES}), before the sign-ups; every answer must`,
        "be 200 and show the place the whole line numbered by window functions gives (not store/line.ts's arithmetic).",
        `With \`REFERRAL_PLACES=0\` (the default), then from a second server with \`REFERRAL_PLACES=${PLACES_MOVED}\`. A sign-up through`,
        "the middle person's share code, a new address each time, timed the same way (mail off, so each is stored",
        "confirmed with its referral pending; every one's referral row checked). The people are those of the list as",
        "filled (the sign-ups come after them). Cells: ms median (max) · requests timed · the place shown, or the",
        "first, unmeasured request's ms (a process's first request opens its database pool).",
        "",
        `| | ${referralRuns.map(head).join(" | ")} | budget |`,
        `| --- | ${referralRuns.map(() => "---:").join(" | ")} | --- |`,
        ...referralRows,
        "",
      ]
    : []),
  "The whole list downloaded as a browser or a script does it (`Accept-Encoding: gzip, deflate, br, zstd`): the",
  'console\'s form, then every part its page links to; the HTTP export, then every `Link: rel="next"` until none.',
  `Sizes are bodies as sent (compressed when the server compresses). Budget per response ≤ ${BUDGET.responseBytes / 1_000_000} MB on the wire`,
  `and ≤ ${BUDGET.responseMs / 1000} s; the server's resident memory (its process tree's VmRSS every 50 ms) ≤ +${BUDGET.memoryMb} MB over what it held`,
  "before; every row filled received once. The before code answered each download with one response.",
  "",
  "| download | code, sign-ups | responses | largest on the wire | slowest | all of it | rows received | server memory | budget |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ...downloadRows,
  "",
  failures.length ? `Over budget: ${failures.join("; ")}.` : "Every figure of the after code is within its budget.",
  ...columns.flatMap((run) => run.notes.map((note) => `\n${head(run)}: ${note}.`)),
  "",
  `<!-- scale-before ${JSON.stringify(before)} -->`,
].join("\n");

console.log(`\n${body.replace(/\n<!-- scale-before .*-->$/s, "")}`);
writeSection(SECTION, body);
// The People page by answer at the largest size: a section of its own, as `--answers` writes it alone.
if (largest?.answers) {
  const fill = { seconds: largest.fillSeconds, analyzeSeconds: largest.analyzeSeconds };
  const run = { size: largest.size, date: largest.date, code: largest.code, fill, ...largest.answers };
  failures.push(...writeAnswersSection(run, "npm run bench -- scale"));
}
if (failures.length > 0) process.exitCode = 1;
