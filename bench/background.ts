/**
 * `npm run bench -- background [-- --people N --wave N --events N --outage-seconds S]`: issue #40's "long work runs
 * by itself", measured on `npm start`'s own server (scripts/serve.ts, without the build: scripts/lib/server-process.ts
 * starts it as the tests and benches do), which runs the Netlify functions as Netlify does: the background function
 * (netlify/functions/jobs-background.ts) answers 202 at once and its work goes on detached, and the scheduled
 * functions run on their cron (NETLIFY_SCHEDULES on: jobs-resume and webhooks-deliver every minute). Against a
 * throw-away PostgreSQL database at TEST_POSTGRES_URL (default 127.0.0.1:5432), an SMTP server on 127.0.0.1 that
 * accepts every message and counts them per recipient (restartable on its port, for the outage), and a webhook
 * receiver on 127.0.0.1 that verifies each request as Standard Webhooks says and counts what it acknowledged per
 * webhook-id; MAIL_RATE_PER_SECOND=unlimited. The bench is the operator's browser: it signs in by the link the
 * console e-mails to ADMIN_EMAILS, posts the console's own forms (with their tickets), and after each confirming
 * click sends no request at all (as a tab closed right after the click; it does not follow the 303 to the job's
 * page, which would refresh itself): from there it only reads the database and the SMTP server's counts. In order:
 * 1. webhooks: N events (default 10,000) the database writes itself (N sign-ups by one SQL INSERT, whose trigger,
 *    migration 0013, writes one event each), their attempts moved back in the same transaction to where a 10-minute
 *    outage of the receiver (500 to each try) would have left them on the retry schedule; the receiver back, then
 *    the Webhooks page's "Deliver everything waiting now": the time until the last is delivered, and that no
 *    webhook-id was acknowledged twice;
 * 2. an update to N people (default 10,000) from the console's Updates page (preview's confirmation, "Send now"):
 *    the messages a second as the SMTP server saw them, beside `npm run waitlist -- update --subject … --body-file …
 *    --yes` (bench/lib/cli.ts) sending a second update (other words, so to everyone again) in the same run, and
 *    whether the console's rate is within 10 % of the CLI's;
 * 3. a third update from the console, with the SMTP server stopped halfway (its listener closed and its connections
 *    cut) for S seconds (default 120) and started again on the same port: the send completes by itself (the run
 *    that met the outage lets go; jobs-resume starts it again once its lease has waited a minute) and nobody
 *    received two;
 * 4. a wave of W (default 5,000) from the console's "Let people in": time to complete and invitations a second.
 * Every recipient is counted at the SMTP server; exit 1 if anyone got a message twice, a webhook-id was
 * acknowledged twice, a part did not complete within its (generous) time, or the bench sent a request after a
 * confirmation. To docs/performance.md.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { simpleParser } from "mailparser";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";
import { writeSection } from "../scripts/lib/perf-doc";
import { type RunningServer, SERVER_NODE_FLAGS, startServer } from "../scripts/lib/server-process";
import { SESSION_COOKIE } from "../src/server/console/sign-in/sign-in";
import { IN_DOUBT } from "../src/server/updates/send";
import { RETRY_SECONDS } from "../src/server/webhooks/store";
import { type CliRun, cliEnv, codeState, runCli } from "./lib/cli";
import { type BenchDatabase, postgresDatabase } from "./lib/databases";
import { updateBody } from "./lib/update-body";

const { values } = parseArgs({
  options: {
    people: { type: "string", default: "10000" },
    wave: { type: "string", default: "5000" },
    events: { type: "string", default: "10000" },
    "outage-seconds": { type: "string", default: "120" },
  },
});
const whole = (name: string, text: string, least: number) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < least) {
    console.error(`background: --${name} takes a whole number of at least ${least}, not "${text}"`);
    process.exit(2);
  }
  return value;
};
const PEOPLE = whole("people", values.people, 2);
const WAVE = whole("wave", values.wave, 1);
const EVENTS = whole("events", values.events, 1);
const OUTAGE_SECONDS = whole("outage-seconds", values["outage-seconds"], 1);
if (WAVE > PEOPLE) {
  console.error(`background: --wave (${WAVE}) cannot be more than --people (${PEOPLE})`);
  process.exit(2);
}
/** The receiver's outage the events' attempt times are moved back by (seconds), and the newest event's age. */
const RECEIVER_OUTAGE_SECONDS = 600;
const NEWEST_EVENT_SECONDS = 10;

const ADMIN = "ops@noosphere.test";
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
/** How often the bench reads the database while it watches (ms). */
const POLL_MS = 250;

/** Three updates of the same length, each with its own words (so each goes to everyone). */
const SUBJECTS = ["What we built: part one", "What we built: part two", "What we built: part six"] as const;
const bodyOf = (subject: string) => updateBody(`${subject}.`);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const n = (value: number) => value.toLocaleString("en");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perSecond = (count: number, ms: number) => (count > 1 && ms > 0 ? Math.round((count - 1) / (ms / 1000)) : 0);

// ── What the bench opens, closed in reverse order at the end, also on failure or a signal ──

const closers: Array<{ what: string; close: () => Promise<unknown> | unknown }> = [];
let closing: Promise<void> | null = null;
function closeAll(): Promise<void> {
  closing ??= (async () => {
    for (const { what, close } of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        console.error(`background: closing ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return closing;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`background: ${signal}, closing what the bench opened`);
    void closeAll().finally(() => process.exit(130));
  });
}

// ── The SMTP server: counts each accepted message per phase, per recipient and subject; can be stopped and restarted ──

interface Bucket {
  messages: number;
  perRecipient: Map<string, number>;
  subjects: Map<string, number>;
  /** performance.now() of the first and the last message accepted. */
  first: number;
  last: number;
}
const newBucket = (): Bucket => ({ messages: 0, perRecipient: new Map(), subjects: new Map(), first: 0, last: 0 });

interface Mailbox {
  url: string;
  /** The part running now: each accepted message is counted in its bucket. */
  phase: string;
  bucket(phase: string): Bucket;
  /** The console's sign-in links mailed to ADMIN, in order. */
  signInLinks: string[];
  /** Called after each message is counted (and answered). */
  onCounted: ((phase: string, bucket: Bucket) => void) | null;
  /** Stops listening and cuts every connection, as a server that went away. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

async function countingSmtp(): Promise<Mailbox> {
  const buckets = new Map<string, Bucket>();
  const sockets = new Set<Socket>();
  let server: SMTPServer | null = null;
  let port = 0;
  let closed = false;
  const box: Omit<Mailbox, "url" | "down" | "up" | "close"> = {
    phase: "setup",
    bucket(phase) {
      const bucket = buckets.get(phase) ?? newBucket();
      buckets.set(phase, bucket);
      return bucket;
    },
    signInLinks: [],
    onCounted: null,
  };
  const make = () =>
    new SMTPServer({
      authOptional: true,
      // No reverse DNS of 127.0.0.1 per connection: offline, each lookup waits for its timeout.
      disableReverseLookup: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, done) {
        const to = session.envelope.rcptTo.map(({ address }) => address.toLowerCase());
        if (to.includes(ADMIN)) {
          simpleParser(stream).then((mail) => {
            const link = /https?:\/\/[^\s<>"]+\/admin\/sign-in\/confirm\?token=[^\s<>"]+/.exec(mail.text ?? "")?.[0];
            if (link) box.signInLinks.push(link);
            done();
          }, done);
          return;
        }
        // Only the header is read (its Subject); the rest of the message is let through unread.
        let head = "";
        let headRead = false;
        stream.on("data", (chunk: Buffer) => {
          if (headRead) return;
          head += chunk.toString("latin1");
          const end = head.search(/\r?\n\r?\n/);
          if (end >= 0) head = head.slice(0, end);
          headRead = end >= 0 || head.length > 65_536;
        });
        stream.on("end", () => {
          const now = performance.now();
          const subject =
            /^subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im
              .exec(head)?.[1]
              ?.replace(/\r?\n[ \t]+/g, " ")
              .trim() ?? "";
          const phase = box.phase;
          const bucket = box.bucket(phase);
          bucket.first ||= now;
          bucket.last = now;
          bucket.messages++;
          bucket.subjects.set(subject, (bucket.subjects.get(subject) ?? 0) + 1);
          for (const address of to) bucket.perRecipient.set(address, (bucket.perRecipient.get(address) ?? 0) + 1);
          done();
          box.onCounted?.(phase, bucket);
        });
      },
    });
  const up = async () => {
    // An outage's restart after the bench closed everything (it failed meanwhile) listens no more.
    if (closed) return;
    const next = make();
    // A connection cut by the outage ends in an error on the server's side: expected, and not the bench's failure.
    next.on("error", () => {});
    next.server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      next.server.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        next.server.off("error", reject);
        resolve();
      });
    });
    port = (next.server.address() as AddressInfo).port;
    server = next;
  };
  const down = async () => {
    const current = server;
    server = null;
    if (!current) return;
    const closed = new Promise<void>((resolve) => current.server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await up();
  const close = () => {
    closed = true;
    return down();
  };
  return Object.assign(box, { url: `smtp://127.0.0.1:${port}`, up, down, close });
}

// ── The webhook receiver: 500 while down; up, it verifies each request and acknowledges it with a 200 ──

interface Receiver {
  url: string;
  down: boolean;
  /** Requests answered 500 while down. */
  refusedWhileDown: number;
  /** Requests whose signature did not verify (400). */
  bad: number;
  /** Requests acknowledged (200), per webhook-id, over the whole run. */
  acknowledged: Map<string, number>;
  /** The part running now, and its acknowledgements' count and first and last time (performance.now()). */
  phase: string;
  phases: Map<string, { count: number; first: number; last: number }>;
  close(): Promise<void>;
}

async function webhookReceiver(): Promise<Receiver> {
  const verifier = new Webhook(SECRET);
  const state = {
    down: false,
    refusedWhileDown: 0,
    bad: 0,
    acknowledged: new Map<string, number>(),
    phase: "setup",
    phases: new Map<string, { count: number; first: number; last: number }>(),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (state.down) {
        state.refusedWhileDown++;
        response.writeHead(500, { "Content-Type": "text/plain" }).end("Internal Server Error");
        return;
      }
      const header = (name: string) => String(request.headers[name] ?? "");
      try {
        verifier.verify(Buffer.concat(chunks).toString("utf8"), {
          "webhook-id": header("webhook-id"),
          "webhook-timestamp": header("webhook-timestamp"),
          "webhook-signature": header("webhook-signature"),
        });
      } catch {
        state.bad++;
        response.writeHead(400).end("bad signature");
        return;
      }
      const id = header("webhook-id");
      state.acknowledged.set(id, (state.acknowledged.get(id) ?? 0) + 1);
      const now = performance.now();
      const phase = state.phases.get(state.phase) ?? { count: 0, first: now, last: now };
      phase.count++;
      phase.last = now;
      state.phases.set(state.phase, phase);
      response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

// ── The operator's browser: the console's pages and forms, with its session cookie; every request counted ──

interface Answer {
  status: number;
  location: string;
  body: string;
  ms: number;
}

class Browser {
  /** Every request the browser made. */
  requests = 0;
  private cookie = "";
  constructor(readonly base: string) {}
  get signedIn() {
    return this.cookie !== "";
  }
  /** A GET, or with `fields` a form's POST (with the Origin a browser sends); redirects are not followed. */
  async send(path: string, fields?: Record<string, string>): Promise<Answer> {
    this.requests++;
    const headers: Record<string, string> = {};
    if (this.cookie) headers["Cookie"] = this.cookie;
    const init: RequestInit = { redirect: "manual", headers };
    if (fields) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      headers["Origin"] = new URL(this.base).origin;
      init.method = "POST";
      init.body = new URLSearchParams(fields).toString();
    }
    const started = performance.now();
    const response = await fetch(new URL(path, this.base), init);
    const body = await response.text();
    const set = response.headers.get("set-cookie");
    if (set?.startsWith(`${SESSION_COOKIE}=`)) this.cookie = set.split(";")[0] ?? "";
    return {
      status: response.status,
      location: response.headers.get("location") ?? "",
      body,
      ms: performance.now() - started,
    };
  }
}

const ticketOf = (html: string, what: string) => {
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1];
  if (!ticket) throw new Error(`${what}: the page has no ticket`);
  return ticket;
};
/** The job a confirmation's 303 leads to (`/admin/jobs?kind=…&id=…&done=started`). */
const jobOf = (answer: Answer, kind: string, what: string) => {
  const url = new URL(answer.location || "/", "http://x");
  const id = Number(url.searchParams.get("id"));
  if (answer.status !== 303 || url.searchParams.get("kind") !== kind || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`${what}: answered ${answer.status} ${answer.location}: ${answer.body.slice(0, 300)}`);
  }
  return id;
};

// ── Watching: the database, every POLL_MS, until a condition holds or the time is up ──

async function until<T>(timeoutMs: number, check: () => Promise<T | null> | T | null): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) return null;
    await sleep(POLL_MS);
  }
}

interface Load {
  mean: number;
  max: number;
}
/** The machine's 1-minute load average, read every second until the returned function is called. */
function sampleLoad(): () => Load {
  const loads = [loadavg()[0] ?? 0];
  const timer = setInterval(() => loads.push(loadavg()[0] ?? 0), 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    return { mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) };
  };
}

interface LogLine {
  time: string;
  event: string;
  [field: string]: unknown;
}
/** The server's JSON log lines (src/server/log.ts) from `since` (ms since 1970) on. */
const logSince = (server: RunningServer, since: number): LogLine[] =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as LogLine;
        return Date.parse(parsed.time) >= since ? [parsed] : [];
      } catch {
        return [];
      }
    });

/** Who an update or a wave reached at the SMTP server: messages, distinct recipients, those mailed twice or more. */
function reach(bucket: Bucket, expected: (address: string) => boolean) {
  const counts = [...bucket.perRecipient.entries()];
  return {
    messages: bucket.messages,
    recipients: counts.length,
    twice: counts.filter(([, count]) => count > 1).length,
    strangers: counts.filter(([address]) => !expected(address)).length,
    subjects: [...bucket.subjects.keys()],
    ms: bucket.last - bucket.first,
  };
}
type Reach = ReturnType<typeof reach>;
const isPerson = (address: string) => /^person\d+@example\.com$/.test(address);

interface Context {
  database: BenchDatabase;
  watch: pg.Client;
  server: RunningServer;
  smtp: Mailbox;
  receiver: Receiver;
  browser: Browser;
  folder: string;
}

// ── Signing in: the e-mailed link, as an admin in ADMIN_EMAILS does ──

async function signIn({ smtp, browser }: Context) {
  smtp.phase = "sign-in";
  const before = smtp.signInLinks.length;
  await browser.send("/admin");
  const asked = await browser.send("/admin/sign-in", { email: ADMIN });
  if (asked.status !== 303) throw new Error(`sign-in answered ${asked.status}: ${asked.body.slice(0, 300)}`);
  const link = await until(60_000, () => smtp.signInLinks[before] ?? null);
  if (!link) throw new Error("no sign-in link reached the SMTP server within 60 s");
  const page = await browser.send(link);
  if (page.status !== 200) throw new Error(`the sign-in link's page answered ${page.status}`);
  const confirmed = await browser.send(link, {});
  if (confirmed.status !== 303 || !browser.signedIn) throw new Error(`signing in answered ${confirmed.status}`);
}

// ── 1. A webhook backlog after the receiver's outage, drained by "Deliver everything waiting now" ──

interface BacklogResult {
  complete: boolean;
  timeoutMs: number;
  attempts: Record<string, number>;
  refusedWhileDown: number;
  pressMs: number;
  requestsAfter: number;
  drainedMs: number;
  drainFinishedMs: number | null;
  receiver: { count: number; ms: number };
  states: Record<string, number>;
  backlogAcknowledged: number;
  acknowledgedTwice: number;
  bad: number;
  load: Load;
}

async function backlog(ctx: Context): Promise<BacklogResult> {
  const { database, receiver, browser, watch } = ctx;
  receiver.down = true;
  receiver.phase = "outage";
  // When each try would have been made (seconds after the event): at once, then after each wait of the schedule.
  const tries = [
    0,
    RETRY_SECONDS[0],
    RETRY_SECONDS[0] + RETRY_SECONDS[1],
    RETRY_SECONDS[0] + RETRY_SECONDS[1] + RETRY_SECONDS[2],
  ];
  const attempts = await database.use(async (query) => {
    const [state] = await query<{ enabled: boolean }>("SELECT enabled FROM waitlist_webhook_state");
    if (!state?.enabled) throw new Error("the server did not switch webhook events on");
    // One transaction: no deliverer sees the events due before their attempts are where the outage left them.
    await query("BEGIN");
    try {
      await query(
        `INSERT INTO waitlist (name, email, status, created_at, source)
         SELECT 'Sign-up ' || i, 'signup' || i || '@example.com', 'pending',
           now() - make_interval(secs => ${RECEIVER_OUTAGE_SECONDS} - (${RECEIVER_OUTAGE_SECONDS - NEWEST_EVENT_SECONDS})
             * (i - 1)::float8 / greatest(${EVENTS} - 1, 1)), 'bench'
         FROM generate_series(1, ${EVENTS}) AS i`,
      );
      // Each event tried at once and on the schedule since it occurred, every try answered 500.
      await query(
        `UPDATE waitlist_webhook_event e SET occurred_at = w.created_at, attempts = t.n,
           last_attempt_at = w.created_at + make_interval(secs => t.last),
           next_attempt_at = w.created_at + make_interval(secs => t.next),
           last_status = 500, last_answer = 'Internal Server Error', last_error = 'answered 500'
         FROM waitlist w,
           LATERAL (SELECT 1 + (a >= ${tries[1]})::int + (a >= ${tries[2]})::int AS n
             FROM (SELECT extract(epoch FROM now() - w.created_at) AS a) age) c,
           LATERAL (SELECT c.n, (ARRAY[${tries.slice(0, 3).join(",")}])[c.n] AS last,
             (ARRAY[${tries.slice(1, 4).join(",")}])[c.n] AS next) t
         WHERE e.waitlist_id = w.id AND e.state = 'pending'`,
      );
      const [made] = await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM waitlist_webhook_event WHERE state = 'pending' AND type = 'waitlist.signed_up'",
      );
      if (Number(made?.n) !== EVENTS) throw new Error(`the sign-ups made ${made?.n} events, not ${EVENTS}`);
      await query("COMMIT");
    } catch (error) {
      await query("ROLLBACK");
      throw error;
    }
    const rows = await query<{ attempts: number; n: number }>(
      "SELECT attempts, count(*)::int AS n FROM waitlist_webhook_event GROUP BY attempts ORDER BY attempts",
    );
    return Object.fromEntries(rows.map((row) => [String(row.attempts), Number(row.n)]));
  });
  const backlogIds = new Set(
    (
      await watch.query<{ id: string }>("SELECT id FROM waitlist_webhook_event WHERE type = 'waitlist.signed_up'")
    ).rows.map((row) => row.id),
  );

  // The receiver is back; the operator opens the delivery log and presses the button.
  receiver.down = false;
  const page = await browser.send("/admin/webhooks");
  if (!page.body.includes("Deliver everything waiting now")) throw new Error("the Webhooks page offers no drain");
  receiver.phase = "drain";
  const stopLoad = sampleLoad();
  const pressedAt = Date.now();
  const pressed = await browser.send("/admin/webhooks", { action: "drain" });
  const requests = browser.requests;
  const drain = jobOf(pressed, "webhooks", "Deliver everything waiting now");
  const timeoutMs = Math.max(600_000, EVENTS * 50);
  const done = await until(timeoutMs, async () => {
    const { rows } = await watch.query<{ finished: Date | null; pending: number; last: Date | null }>(
      `SELECT (SELECT finished_at FROM waitlist_webhook_drain WHERE id = $1) AS finished,
         (SELECT count(*)::int FROM waitlist_webhook_event WHERE state = 'pending') AS pending,
         (SELECT max(delivered_at) FROM waitlist_webhook_event WHERE type = 'waitlist.signed_up') AS last`,
      [drain],
    );
    const row = rows[0];
    return row?.finished && Number(row.pending) === 0 ? row : null;
  });
  const load = stopLoad();
  receiver.phase = "later";
  const { rows: states } = await watch.query<{ state: string; n: number }>(
    "SELECT state, count(*)::int AS n FROM waitlist_webhook_event WHERE type = 'waitlist.signed_up' GROUP BY state",
  );
  const drainPhase = receiver.phases.get("drain");
  const acknowledged = [...backlogIds].filter((id) => receiver.acknowledged.has(id)).length;
  return {
    complete: done !== null,
    timeoutMs,
    attempts,
    refusedWhileDown: receiver.refusedWhileDown,
    pressMs: pressed.ms,
    requestsAfter: browser.requests - requests,
    drainedMs: done?.last ? done.last.getTime() - pressedAt : Number.NaN,
    drainFinishedMs: done?.finished ? done.finished.getTime() - pressedAt : null,
    receiver: { count: drainPhase?.count ?? 0, ms: drainPhase ? drainPhase.last - drainPhase.first : 0 },
    states: Object.fromEntries(states.map((row) => [row.state, Number(row.n)])),
    backlogAcknowledged: acknowledged,
    acknowledgedTwice: [...receiver.acknowledged.values()].filter((count) => count > 1).length,
    bad: receiver.bad,
    load,
  };
}

// ── 2 and 3. An update from the console's Updates page, then only watched ──

interface ConsoleSend {
  id: number;
  pressedAt: number;
  pressMs: number;
  requestsAt: number;
}

/** Compose, preview, "Send to N people…", "Send now": the update's id once the last click is answered. */
async function sendFromConsole({ browser }: Context, subject: string): Promise<ConsoleSend> {
  // A browser posts a textarea's line breaks as CRLF.
  const draft = { subject, body: bodyOf(subject).replaceAll("\n", "\r\n") };
  await browser.send("/admin/updates");
  const preview = await browser.send("/admin/updates", { action: "preview", ...draft });
  if (!preview.body.includes(`Send to ${n(PEOPLE)} people`)) {
    throw new Error(`the preview does not offer to send to ${n(PEOPLE)}: ${preview.body.slice(0, 300)}`);
  }
  const confirm = await browser.send("/admin/updates", { action: "confirm", ...draft });
  const ticket = ticketOf(confirm.body, "the update's confirmation");
  const pressedAt = Date.now();
  const pressed = await browser.send("/admin/updates", { action: "send", ...draft, ticket });
  return {
    id: jobOf(pressed, "update", "Send now"),
    pressedAt,
    pressMs: pressed.ms,
    requestsAt: browser.requests,
  };
}

interface UpdateState {
  finished: Date | null;
  sent: number;
  failed: number;
}
const updateState = async (watch: pg.Client, id: number): Promise<UpdateState | null> =>
  (
    await watch.query<UpdateState>("SELECT finished_at AS finished, sent, failed FROM waitlist_update WHERE id = $1", [
      id,
    ])
  ).rows[0] ?? null;

interface Recipients {
  states: Record<string, number>;
  inDoubt: number;
}
async function recipients(watch: pg.Client, id: number): Promise<Recipients> {
  const { rows } = await watch.query<{ state: string; n: number; doubt: number }>(
    `SELECT state, count(*)::int AS n, count(*) FILTER (WHERE error = $2)::int AS doubt
     FROM waitlist_update_recipient WHERE update_id = $1 GROUP BY state`,
    [id, IN_DOUBT],
  );
  return {
    states: Object.fromEntries(rows.map((row) => [row.state, Number(row.n)])),
    inDoubt: rows.reduce((sum, row) => sum + Number(row.doubt), 0),
  };
}

interface UpdateResult {
  complete: boolean;
  timeoutMs: number;
  send: ConsoleSend;
  requestsAfter: number;
  /** From the "Send now" POST to the update's finished_at. */
  doneMs: number;
  update: UpdateState | null;
  reach: Reach;
  /** People of the list counted no time at the SMTP server. */
  missing: number;
  recipients: Recipients;
  load: Load;
}

async function consoleUpdate(ctx: Context, phase: string, subject: string, timeoutMs: number): Promise<UpdateResult> {
  const { smtp, watch, browser } = ctx;
  smtp.phase = phase;
  const stopLoad = sampleLoad();
  const send = await sendFromConsole(ctx, subject);
  const done = await until(timeoutMs, async () => {
    const state = await updateState(watch, send.id);
    return state?.finished ? state : null;
  });
  // Each message is counted before its answer, so before it is recorded: the counts are whole by now.
  const load = stopLoad();
  const bucket = smtp.bucket(phase);
  const counted = reach(bucket, isPerson);
  let missing = 0;
  for (let i = 1; i <= PEOPLE; i++) if (!bucket.perRecipient.has(`person${i}@example.com`)) missing++;
  return {
    complete: done !== null,
    timeoutMs,
    send,
    requestsAfter: browser.requests - send.requestsAt,
    doneMs: done?.finished ? done.finished.getTime() - send.pressedAt : Number.NaN,
    update: done ?? (await updateState(watch, send.id)),
    reach: counted,
    missing,
    recipients: await recipients(watch, send.id),
    load,
  };
}

interface CliResult {
  run: CliRun;
  reach: Reach;
  update: UpdateState | null;
}

async function cliUpdate(ctx: Context, subject: string): Promise<CliResult> {
  const { smtp, watch, database, folder } = ctx;
  smtp.phase = "cli";
  const bodyFile = join(folder, "update.txt");
  writeFileSync(bodyFile, bodyOf(subject));
  const env = cliEnv({
    ...database.env,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    MAIL_RATE_PER_SECOND: "unlimited",
  });
  const run = await runCli(["update", "--subject", subject, "--body-file", bodyFile, "--yes"], env);
  console.log(`the CLI: ${run.stdout}${run.code === 0 ? "" : ` (exit ${run.code}: ${run.stderr})`}`);
  const { rows } = await watch.query<UpdateState>(
    "SELECT finished_at AS finished, sent, failed FROM waitlist_update WHERE subject = $1",
    [subject],
  );
  return { run, reach: reach(smtp.bucket("cli"), isPerson), update: rows[0] ?? null };
}

interface OutageResult extends UpdateResult {
  /** Messages counted when the SMTP server went away. */
  countedAtStop: number;
  downAt: number;
  upAt: number;
  /** The update's runs (background invocations) as the server logged them: what each sent and left. */
  slices: Array<{ sent: number; left: number }>;
  /** jobs-resume's invocations on its schedule during the part, and the starts it made. */
  resumeRuns: number;
  resumed: number;
  /** jobs-resume's starts while the SMTP server was down, and its first start after it was back (ms after; NaN: none). */
  startsWhileDown: number;
  firstStartAfterUpMs: number;
  /** From the SMTP server listening again to the update's finished_at. */
  afterUpMs: number;
}

async function outageUpdate(ctx: Context, subject: string): Promise<OutageResult> {
  const { smtp, server } = ctx;
  const half = Math.ceil(PEOPLE / 2);
  const since = Date.now();
  const cut = { outage: null as Promise<void> | null, countedAtStop: 0, downAt: 0, upAt: 0 };
  smtp.onCounted = (phase, bucket) => {
    if (phase !== "outage" || cut.outage || bucket.messages < half) return;
    cut.countedAtStop = bucket.messages;
    // Right after this message's answer: the server goes away with the next message on its way.
    cut.outage = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      cut.downAt = Date.now();
      await smtp.down();
      console.log(`the SMTP server stopped after ${n(cut.countedAtStop)} messages, for ${OUTAGE_SECONDS} s`);
      await new Promise<void>((resolve) => setTimeout(resolve, OUTAGE_SECONDS * 1000).unref());
      await smtp.up();
      cut.upAt = Date.now();
      console.log("the SMTP server is listening again");
    });
  };
  // The run that meets the outage lets go; jobs-resume starts the update again once it has waited a minute, every
  // minute while the server is down, and after it is back: up to 2 minutes more, and the send itself.
  const timeoutMs = OUTAGE_SECONDS * 1000 + 600_000 + PEOPLE * 100;
  try {
    const result = await consoleUpdate(ctx, "outage", subject, timeoutMs);
    await cut.outage;
    const lines = logSince(server, since);
    const starts = lines
      .filter((line) => line.event === "jobs.resumed" && Number(line["started"] ?? 0) > 0)
      .map((line) => Date.parse(line.time));
    const firstAfterUp = starts.find((at) => at >= cut.upAt);
    return {
      ...result,
      countedAtStop: cut.countedAtStop,
      downAt: cut.downAt,
      upAt: cut.upAt,
      slices: lines
        .filter((line) => line.event === "jobs.update_slice" && line["update"] === result.send.id)
        .map((line) => ({ sent: Number(line["sent"]), left: Number(line["left"]) })),
      resumeRuns: lines.filter((line) => line.event === "local_netlify.scheduled" && line["name"] === "jobs-resume")
        .length,
      resumed: lines
        .filter((line) => line.event === "jobs.resumed")
        .reduce((sum, line) => sum + Number(line["started"] ?? 0), 0),
      startsWhileDown: starts.filter((at) => at >= cut.downAt && at < cut.upAt).length,
      firstStartAfterUpMs: firstAfterUp === undefined ? Number.NaN : firstAfterUp - cut.upAt,
      afterUpMs: result.update?.finished && cut.upAt ? result.update.finished.getTime() - cut.upAt : Number.NaN,
      complete: result.complete && cut.outage !== null,
    };
  } finally {
    smtp.onCounted = null;
  }
}

// ── 4. A wave from the console's "Let people in" ──

interface WaveResult {
  complete: boolean;
  timeoutMs: number;
  pressMs: number;
  requestsAfter: number;
  doneMs: number;
  invited: number;
  held: number;
  reach: Reach;
  load: Load;
}

async function wave(ctx: Context): Promise<WaveResult> {
  const { smtp, browser, watch } = ctx;
  smtp.phase = "wave";
  const stopLoad = sampleLoad();
  await browser.send("/admin");
  const preview = await browser.send("/admin/invite", { next: String(WAVE) });
  if (!preview.body.includes(`Invite ${WAVE}<`)) throw new Error(`the wave's preview: ${preview.body.slice(0, 300)}`);
  const ticket = ticketOf(preview.body, "the wave's preview");
  const pressedAt = Date.now();
  const pressed = await browser.send("/admin/invite", { next: String(WAVE), confirm: "yes", ticket });
  const requests = browser.requests;
  const id = jobOf(pressed, "wave", `Invite ${WAVE}`);
  const timeoutMs = Math.max(600_000, WAVE * 100);
  const done = await until(timeoutMs, async () => {
    const { rows } = await watch.query<{ finished: Date | null }>(
      "SELECT finished_at AS finished FROM waitlist_invite_wave WHERE id = $1",
      [id],
    );
    return rows[0]?.finished ?? null;
  });
  const load = stopLoad();
  const { rows } = await watch.query<{ invited: number; held: number }>(
    `SELECT (SELECT count(*)::int FROM waitlist WHERE status = 'invited') AS invited,
       (SELECT count(*)::int FROM waitlist WHERE invite_wave_id = $1 AND status = 'confirmed') AS held`,
    [id],
  );
  return {
    complete: done !== null,
    timeoutMs,
    pressMs: pressed.ms,
    requestsAfter: browser.requests - requests,
    doneMs: done ? done.getTime() - pressedAt : Number.NaN,
    invited: Number(rows[0]?.invited ?? 0),
    held: Number(rows[0]?.held ?? 0),
    reach: reach(smtp.bucket("wave"), isPerson),
    load,
  };
}

// ── The run ──

/** The code measured, read before it runs (another change may land during a run). */
const code = codeState();
const startLoad = loadavg()[0] ?? 0;
const results: {
  backlog?: BacklogResult;
  console?: UpdateResult;
  cli?: CliResult;
  outage?: OutageResult;
  wave?: WaveResult;
} = {};
let node = "";
let failure: unknown = null;
try {
  const database = await postgresDatabase("bench_background");
  closers.push({ what: "the database", close: () => database.drop() });
  // The people, before the server starts (so before it switches webhook events on: no event for them).
  await database.use((query) =>
    query(
      `INSERT INTO waitlist (name, email, status, confirmed_at, created_at, updates_consent, updates_consent_at,
         updates_consent_words)
       SELECT 'Person ' || i, 'person' || i || '@example.com', 'confirmed', now(),
         now() - make_interval(mins => ${PEOPLE} - i), true, now(), 'bench'
       FROM generate_series(1, ${PEOPLE}) AS i`,
    ),
  );
  const smtp = await countingSmtp();
  closers.push({ what: "the SMTP server", close: () => smtp.close() });
  const receiver = await webhookReceiver();
  closers.push({ what: "the webhook receiver", close: () => receiver.close() });
  const folder = mkdtempSync(join(tmpdir(), "bench-background-"));
  closers.push({ what: "the bench's folder", close: () => rmSync(folder, { recursive: true, force: true }) });
  const server = await startServer(
    {
      ...database.env,
      // Nothing of the calling shell's decides where the list is, what seals it or which site it is.
      DATABASE_DRIVER: "",
      NETLIFY_DB_URL: "",
      DATA_KEY: "",
      DATA_KEY_PREVIOUS: "",
      SITE_URL: "",
      WAITLIST_ADMIN_TOKEN: "",
      SERVER_SECRET: "",
      RATE_LIMIT_SECRET: "",
      SMTP_URL: smtp.url,
      MAIL_FROM: "Noosphere <hello@noosphere.test>",
      MAIL_RATE_PER_SECOND: "unlimited",
      ADMIN_EMAILS: ADMIN,
      EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: SECRET,
      // As `npm start` runs them: jobs-resume and webhooks-deliver every minute, on their cron.
      NETLIFY_SCHEDULES: "on",
    },
    join(folder, "data"),
  );
  closers.push({
    what: "the server",
    close: async () => {
      // Its graceful stop waits for work in flight; a run stuck past half a minute is ended.
      const kill = setTimeout(() => {
        try {
          process.kill(server.pid, "SIGKILL");
        } catch {}
      }, 30_000);
      await server.stop();
      clearTimeout(kill);
    },
  });
  console.log(`npm start's server at ${server.url}, against ${database.label}`);
  const watch = new pg.Client({ connectionString: database.env["DATABASE_URL"] });
  await watch.connect();
  closers.push({ what: "the watching connection", close: () => watch.end() });
  node = execFileSync("node_modules/.bin/node", ["--version"], { encoding: "utf8" }).trim();
  const ctx: Context = { database, watch, server, smtp, receiver, browser: new Browser(server.url), folder };
  await signIn(ctx);

  console.log(`1. ${n(EVENTS)} webhook events after the receiver's outage, "Deliver everything waiting now"…`);
  results.backlog = await backlog(ctx);
  if (results.backlog.complete) {
    console.log(`2. an update to ${n(PEOPLE)} from the console, then the same size from the CLI…`);
    results.console = await consoleUpdate(ctx, "console", SUBJECTS[0], Math.max(600_000, PEOPLE * 60));
  }
  if (results.console?.complete) results.cli = await cliUpdate(ctx, SUBJECTS[1]);
  if (results.cli?.run.code === 0) {
    console.log(`3. an update to ${n(PEOPLE)} from the console, the SMTP server stopped halfway…`);
    results.outage = await outageUpdate(ctx, SUBJECTS[2]);
  }
  if (results.outage?.complete) {
    console.log(`4. a wave of ${n(WAVE)} from the console…`);
    results.wave = await wave(ctx);
  }
} catch (error) {
  failure = error;
} finally {
  await closeAll();
}
if (failure) {
  console.error("background: the bench failed before its table:", failure);
  process.exit(1);
}

// ── The table ──

const { backlog: hooks, console: viaConsole, cli, outage, wave: invited } = results;
const updateOnce = (r: UpdateResult) =>
  r.complete &&
  r.requestsAfter === 0 &&
  r.reach.twice === 0 &&
  r.reach.strangers === 0 &&
  r.missing <= r.recipients.inDoubt &&
  r.reach.recipients === PEOPLE - r.missing &&
  r.update?.sent === PEOPLE &&
  r.update.failed === 0;
const checks = {
  backlog:
    hooks?.complete === true &&
    hooks.requestsAfter === 0 &&
    hooks.acknowledgedTwice === 0 &&
    hooks.backlogAcknowledged === EVENTS &&
    hooks.states["delivered"] === EVENTS &&
    hooks.bad === 0,
  console: viaConsole !== undefined && updateOnce(viaConsole) && viaConsole.missing === 0,
  cli:
    cli !== undefined &&
    cli.run.code === 0 &&
    cli.reach.twice === 0 &&
    cli.reach.recipients === PEOPLE &&
    cli.reach.strangers === 0 &&
    cli.update?.sent === PEOPLE,
  outage: outage !== undefined && updateOnce(outage),
  wave:
    invited?.complete === true &&
    invited.requestsAfter === 0 &&
    invited.reach.twice === 0 &&
    invited.reach.recipients === WAVE &&
    invited.reach.strangers === 0 &&
    invited.invited === WAVE &&
    invited.held === 0,
};
const mark = (ok: boolean) => (ok ? "✓" : "✗");
const consoleRate = viaConsole ? perSecond(viaConsole.reach.messages, viaConsole.reach.ms) : 0;
const cliRate = cli ? perSecond(cli.reach.messages, cli.reach.ms) : 0;
const ratio = cliRate > 0 ? consoleRate / cliRate : 0;
const load = (l: Load) => `${l.mean.toFixed(1)} (${l.max.toFixed(1)})`;
const subjects = (r: Reach) => (r.subjects.length === 1 ? "one subject" : `${r.subjects.length} subjects`);
const notRun = "not run: an earlier part did not complete";
const rows: string[] = [];
const row = (what: string, figure: string) => rows.push(`| ${what} | ${figure} |`);
const heading = (what: string) => rows.push(`| **${what}** | |`);

heading(`1. ${n(EVENTS)} webhook events after a ${RECEIVER_OUTAGE_SECONDS / 60}-minute outage of the receiver`);
if (hooks) {
  row(
    "tries each event had before the drain (each answered 500), as the retry schedule leaves them",
    Object.entries(hooks.attempts)
      .map(([tries, count]) => `${tries}: ${n(count)}`)
      .join(", "),
  );
  row("requests the receiver answered 500 while down (real ones, beside those moved back)", n(hooks.refusedWhileDown));
  row("“Deliver everything waiting now”: the POST answered (303)", `${hooks.pressMs.toFixed(0)} ms`);
  row("HTTP requests from the browser after it", n(hooks.requestsAfter));
  row("from the POST to the last event delivered (`delivered_at`)", seconds(hooks.drainedMs));
  row("… to the drain job finished", hooks.drainFinishedMs === null ? "not finished" : seconds(hooks.drainFinishedMs));
  row(
    "events a second at the receiver (first to last acknowledgement)",
    n(perSecond(hooks.receiver.count, hooks.receiver.ms)),
  );
  row("load average during the drain, mean (highest)", load(hooks.load));
  row(
    "events by state (`waitlist_webhook_event`)",
    Object.entries(hooks.states)
      .map(([state, count]) => `${state} ${n(count)}`)
      .join(", ") || "none",
  );
  row("backlog's webhook-ids acknowledged (200)", `${n(hooks.backlogAcknowledged)} of ${n(EVENTS)}`);
  row("webhook-ids acknowledged twice or more (the whole run)", n(hooks.acknowledgedTwice));
  row("requests refused by the receiver (signature)", n(hooks.bad));
  row(
    "drained by itself, every event once",
    hooks.complete ? mark(checks.backlog) : `✗ (not within ${seconds(hooks.timeoutMs)})`,
  );
} else row("", notRun);

heading(`2. An update to ${n(PEOPLE)} from the console, beside the CLI's`);
if (viaConsole) {
  row("“Send now” answered (303, the work started in the background)", `${viaConsole.send.pressMs.toFixed(0)} ms`);
  row("HTTP requests from the browser after it", n(viaConsole.requestsAfter));
  row("the console's send: messages a second (the SMTP server's first to last)", n(consoleRate));
  row("… from “Send now” to the update's `finished_at`", seconds(viaConsole.doneMs));
  row("… load average during it, mean (highest)", load(viaConsole.load));
  if (cli) {
    row("the CLI's send (another update, other words): messages a second", n(cliRate));
    row("… the command's wall time", seconds(cli.run.seconds * 1000));
    row("… load average during it, mean (highest)", load(cli.run.load));
    row(
      "the console's rate ÷ the CLI's; the console within 10 % of the CLI (not slower by more)",
      `${ratio.toFixed(2)}; ${ratio >= 0.9 ? (ratio > 1.1 ? "yes (faster by more than 10 %)" : "yes") : "no: slower by more than 10 %"}`,
    );
    row(
      "messages accepted, distinct recipients, of them twice or more: console; CLI",
      `${n(viaConsole.reach.messages)}, ${n(viaConsole.reach.recipients)}, ${n(viaConsole.reach.twice)}; ${n(cli.reach.messages)}, ${n(cli.reach.recipients)}, ${n(cli.reach.twice)}`,
    );
  } else row("the CLI's send", notRun);
  row(
    "console's update: `sent` (`failed`), finished",
    viaConsole.update
      ? `${n(viaConsole.update.sent)} (${n(viaConsole.update.failed)}), ${viaConsole.update.finished ? "yes" : "no"}`
      : "no row",
  );
  row(
    "everyone exactly once: console; CLI",
    `${viaConsole.complete ? mark(checks.console) : `✗ (not within ${seconds(viaConsole.timeoutMs)})`}; ${mark(checks.cli)}`,
  );
} else row("", notRun);

heading(`3. An update to ${n(PEOPLE)} from the console, the SMTP server stopped for ${OUTAGE_SECONDS} s halfway`);
if (outage) {
  row("HTTP requests from the browser after “Send now”", n(outage.requestsAfter));
  row("the SMTP server stopped (listener closed, connections cut) after", `${n(outage.countedAtStop)} messages`);
  row(
    "the update's runs (background invocations): sent, left",
    outage.slices.map((slice) => `${n(slice.sent)}, ${n(slice.left)}`).join("; ") || "none logged",
  );
  row(
    "started again by jobs-resume, on its own every-minute schedule (`npm start` runs it; nothing called by hand)",
    `${n(outage.resumed)} start(s) in ${n(outage.resumeRuns)} runs of it`,
  );
  row(
    "… of them while the SMTP server was down; the first after it was back",
    `${n(outage.startsWhileDown)}; ${Number.isNaN(outage.firstStartAfterUpMs) ? "none" : `${seconds(outage.firstStartAfterUpMs)} after`}`,
  );
  row("from the SMTP server back to the update's `finished_at`", seconds(outage.afterUpMs));
  row("from “Send now” to `finished_at`", seconds(outage.doneMs));
  row(
    "messages accepted; distinct recipients; of them twice or more",
    `${n(outage.reach.messages)}; ${n(outage.reach.recipients)}; ${n(outage.reach.twice)}`,
  );
  row(
    "people who received none; of them recorded in doubt (counted sent, never sent again)",
    `${n(outage.missing)}; ${n(outage.recipients.inDoubt)}`,
  );
  row(
    "recipient rows by state (`waitlist_update_recipient`)",
    Object.entries(outage.recipients.states)
      .map(([state, count]) => `${state} ${n(count)}`)
      .join(", ") || "none",
  );
  row(
    "completed by itself, nobody twice",
    outage.complete ? mark(checks.outage) : `✗ (not within ${seconds(outage.timeoutMs)})`,
  );
} else row("", notRun);

heading(`4. A wave of ${n(WAVE)} from the console`);
if (invited) {
  row("“Invite” answered (303, the work started in the background)", `${invited.pressMs.toFixed(0)} ms`);
  row("HTTP requests from the browser after it", n(invited.requestsAfter));
  row("from “Invite” to the wave's `finished_at`", seconds(invited.doneMs));
  row("invitations a second (the SMTP server's first to last)", n(perSecond(invited.reach.messages, invited.reach.ms)));
  row("load average during it, mean (highest)", load(invited.load));
  row(
    "invitations accepted (subjects); distinct recipients; of them twice or more",
    `${n(invited.reach.messages)} (${subjects(invited.reach)}); ${n(invited.reach.recipients)}; ${n(invited.reach.twice)}`,
  );
  row("people marked invited; still held by the wave", `${n(invited.invited)}; ${n(invited.held)}`);
  row(
    "completed by itself, nobody twice",
    invited.complete ? mark(checks.wave) : `✗ (not within ${seconds(invited.timeoutMs)})`,
  );
} else row("", notRun);

const table = [
  "## Long work by itself (`npm run bench -- background`)",
  "",
  "Issue #40's long jobs started from the operators' console and then left alone, on `npm start`'s own server",
  `(scripts/serve.ts, \`${SERVER_NODE_FLAGS.join(" ")}\`), which runs the background function as Netlify does (202 at once, the`,
  "work detached) and the scheduled functions on their cron (jobs-resume and webhooks-deliver every minute), against",
  "a new PostgreSQL 15 database on 127.0.0.1:5432, an SMTP server on 127.0.0.1 (smtp-server) that accepts every",
  "message and counts them per recipient, and a webhook receiver on 127.0.0.1 that verifies each request with the",
  "`standardwebhooks` package and counts what it acknowledged per webhook-id; `MAIL_RATE_PER_SECOND=unlimited`.",
  "The bench is the operator's browser: signed in by the link the console mails to `ADMIN_EMAILS`, it posts the",
  "console's own forms, and after each confirming click it sends nothing more (a tab closed at once: it does not",
  "follow the 303 to the job's page, which would refresh itself); it only reads the database and the counts. In",
  `order: ${n(EVENTS)} webhook events (${n(EVENTS)} sign-ups by one SQL \`INSERT\`, whose trigger writes one event each,`,
  `their tries moved back in the same transaction to where a ${RECEIVER_OUTAGE_SECONDS / 60}-minute outage answering 500 leaves them on the`,
  "retry schedule, none due for minutes), drained by “Deliver everything waiting now” with the receiver back (the",
  "every-minute webhooks-deliver may deliver some beside the drain: both claim under a lease); an update to",
  `${n(PEOPLE)} from the Updates page, then \`npm run waitlist -- update --subject … --body-file … --yes\` (a process of its`,
  "own, bench/lib/cli.ts) sending another update, other words, to the same people; a third update from the console",
  `with the SMTP server stopped halfway for ${OUTAGE_SECONDS} s (listener closed, connections cut; then listening again on its port);`,
  `a wave of ${n(WAVE)} from “Let people in” (its \`waitlist.invited\` events go to the receiver meanwhile).`,
  "",
  `Measured on ${new Date().toISOString().slice(0, 10)}, code ${code}, with Node ${node} on the project machine's 2 cores, which`,
  "PostgreSQL, the server, the SMTP server, the receiver, the CLI and whatever else runs there share: rates move",
  `with the machine's load (the 1-minute load average is in the table; ${startLoad.toFixed(1)} when the bench began).`,
  "",
  "| | |",
  "| --- | ---: |",
  ...rows,
].join("\n");
console.log(table);
writeSection("background", table);
const failed = Object.entries(checks).filter(([, ok]) => !ok);
if (failed.length > 0) {
  console.error(`background: failed: ${failed.map(([part]) => part).join(", ")}`);
  process.exitCode = 1;
}
