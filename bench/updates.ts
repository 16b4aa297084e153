/**
 * `npm run bench -- updates`: one update to 10,000 people as the team sends it (`npm run waitlist -- update --subject
 * … --body-file … --yes`, a process of its own, MAIL_RATE_PER_SECOND=unlimited) through an SMTP server on 127.0.0.1
 * that accepts every message and counts them per recipient; against a throw-away PostgreSQL database at
 * TEST_POSTGRES_URL (default 127.0.0.1:5432), then an embedded one (PGlite). Reports the send's rate as the SMTP
 * server saw it and the command's wall time (beside a dry run's, which is the process's start-up), the sending
 * process's peak memory (bench/lib/memory-probe.ts), and the proof that nobody got two: every recipient counted once
 * at the server, every recipient row 'sent' and the update's count; to docs/performance.md.
 * `-- --postgres-only` skips the embedded database.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { writeSection } from "../scripts/lib/perf-doc";
import { SERVER_NODE_FLAGS } from "../scripts/lib/server-process";
import { type CliRun, cliEnv, codeState, mb, runCli } from "./lib/cli";
import { type BenchDatabase, embeddedDatabase, postgresDatabase } from "./lib/databases";
import { updateBody } from "./lib/update-body";

const PEOPLE = 10_000;
/** Beside them, people the update must not reach: confirmed without consent, and consenting but never confirmed. */
const OUTSIDE = 200;
const SUBJECT = "What we built this month";
const BODY = updateBody();

interface Counting {
  url: string;
  /** Messages the server accepted, per recipient (lower case). */
  perRecipient: Map<string, number>;
  messages: number;
  /** When the first and the last message were accepted (performance.now()). */
  first: number;
  last: number;
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 that accepts every message and counts, per recipient, those it accepted. */
async function countingSmtp(): Promise<Counting> {
  const counting = { perRecipient: new Map<string, number>(), messages: 0, first: 0, last: 0 };
  const server = new SMTPServer({
    authOptional: true,
    // No reverse DNS of 127.0.0.1 per connection: offline, each lookup waits for its timeout.
    disableReverseLookup: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      stream.resume();
      stream.on("end", () => {
        const now = performance.now();
        counting.first ||= now;
        counting.last = now;
        counting.messages++;
        for (const { address } of session.envelope.rcptTo) {
          const key = address.toLowerCase();
          counting.perRecipient.set(key, (counting.perRecipient.get(key) ?? 0) + 1);
        }
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(counting, {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

interface Variant {
  open: (prefix: string) => Promise<BenchDatabase>;
  /** V8 flags for the sender (NODE_OPTIONS); none: as `npm run waitlist` starts it. */
  nodeFlags?: string[];
}

interface Outcome {
  label: string;
  dry: CliRun;
  send: CliRun;
  messages: number;
  recipients: number;
  twice: number;
  strangers: number;
  smtpSeconds: number;
  states: Record<string, number>;
  update: { recipients: number; sent: number; failed: number; finished: boolean };
}

async function measure(variant: Variant, bodyFile: string): Promise<Outcome> {
  const database = await variant.open("bench_updates");
  try {
    await database.use(async (query) => {
      await query(
        `INSERT INTO waitlist (name, email, status, confirmed_at, created_at, updates_consent, updates_consent_at,
           updates_consent_words)
         SELECT 'Person ' || i, 'person' || i || '@example.com', 'confirmed', now(),
           now() - make_interval(mins => ${PEOPLE} - i), true, now(), 'bench'
         FROM generate_series(1, ${PEOPLE}) AS i`,
      );
      await query(
        `INSERT INTO waitlist (name, email, status, confirmed_at, created_at, updates_consent)
         SELECT 'Outside ' || i, 'outside' || i || '@example.com',
           CASE WHEN i % 2 = 0 THEN 'confirmed' ELSE 'pending' END, CASE WHEN i % 2 = 0 THEN now() END, now(),
           CASE WHEN i % 4 = 0 THEN false WHEN i % 2 = 1 THEN true END
         FROM generate_series(1, ${OUTSIDE}) AS i`,
      );
    });
    const label = `${database.label}${variant.nodeFlags ? `, \`${variant.nodeFlags.join(" ")}\`` : ""}`;
    const smtp = await countingSmtp();
    try {
      const env = cliEnv({
        ...database.env,
        SMTP_URL: smtp.url,
        MAIL_FROM: "Noosphere <hello@noosphere.test>",
        MAIL_RATE_PER_SECOND: "unlimited",
        ...(variant.nodeFlags ? { NODE_OPTIONS: variant.nodeFlags.join(" ") } : {}),
      });
      const args = ["update", "--subject", SUBJECT, "--body-file", bodyFile];
      const dry = await runCli(args, env);
      if (dry.code !== 0) throw new Error(`the dry run failed (${dry.code}): ${dry.stderr}`);
      const send = await runCli([...args, "--yes"], env);
      console.log(`${label}: ${send.stdout}${send.code === 0 ? "" : ` (exit ${send.code}: ${send.stderr})`}`);
      const [states, [update]] = await database.use(async (query) => [
        await query<{ state: string; n: number }>(
          "SELECT state, count(*)::int AS n FROM waitlist_update_recipient GROUP BY state",
        ),
        await query<{ recipients: number; sent: number; failed: number; finished: boolean }>(
          `SELECT (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = u.id) AS recipients,
             sent, failed, finished_at IS NOT NULL AS finished FROM waitlist_update u`,
        ),
      ]);
      const counts = [...smtp.perRecipient.entries()];
      return {
        label,
        dry,
        send,
        messages: smtp.messages,
        recipients: counts.length,
        twice: counts.filter(([, n]) => n > 1).length,
        strangers: counts.filter(([address]) => !/^person\d+@example\.com$/.test(address)).length,
        smtpSeconds: (smtp.last - smtp.first) / 1000,
        states: Object.fromEntries(states.map((row) => [row.state, Number(row.n)])),
        update: update
          ? {
              ...update,
              recipients: Number(update.recipients),
              sent: Number(update.sent),
              failed: Number(update.failed),
            }
          : { recipients: 0, sent: 0, failed: 0, finished: false },
      };
    } finally {
      await smtp.close();
    }
  } finally {
    await database.drop();
  }
}

/** Beside the CLI as it starts, the same send with the young generation `npm run serve` gives the server. */
const variants: Variant[] = [{ open: postgresDatabase }, { open: postgresDatabase, nodeFlags: SERVER_NODE_FLAGS }];
if (!process.argv.includes("--postgres-only")) variants.push({ open: embeddedDatabase });

/** The code measured, read before it runs (another change may land during a run). */
const code = codeState();
const startLoad = loadavg()[0] ?? 0;
const folder = mkdtempSync(join(tmpdir(), "bench-updates-"));
const bodyFile = join(folder, "update.txt");
writeFileSync(bodyFile, BODY);
const outcomes: Outcome[] = [];
try {
  for (const variant of variants) outcomes.push(await measure(variant, bodyFile));
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const n = (value: number) => value.toLocaleString("en");
const complete = (o: Outcome) =>
  o.send.code === 0 &&
  o.messages === PEOPLE &&
  o.recipients === PEOPLE &&
  o.twice === 0 &&
  o.strangers === 0 &&
  o.states["sent"] === PEOPLE &&
  Object.keys(o.states).length === 1 &&
  o.update.recipients === PEOPLE &&
  o.update.sent === PEOPLE &&
  o.update.failed === 0 &&
  o.update.finished;
const row = (what: string, cell: (o: Outcome) => string) => `| ${what} | ${outcomes.map(cell).join(" | ")} |`;
const nodes = [...new Set(outcomes.map((o) => o.send.memory.node))].join(", ");
const table = [
  "## Updates (`npm run bench -- updates`)",
  "",
  `One update (${BODY.length} characters of text, sent as text and HTML with its one-click unsubscribe link) to`,
  `${n(PEOPLE)} confirmed people who said yes to updates, beside ${OUTSIDE} who must not get it (confirmed without`,
  "consent, or consenting but unconfirmed), as the team sends it: `npm run waitlist -- update --subject …",
  "--body-file … --yes`, a process of its own with `MAIL_RATE_PER_SECOND=unlimited` (nodemailer's pool of one SMTP",
  "connection), through an SMTP server on 127.0.0.1 (smtp-server) that accepts every message and counts the",
  "messages it accepted per recipient. Each column is a new database with the same people: PostgreSQL 15 on",
  `127.0.0.1:5432; the same with the sender's young generation as \`npm run serve\` sizes the server's`,
  `(\`NODE_OPTIONS=${SERVER_NODE_FLAGS.join(" ")}\`: scripts/lib/server-process.ts says why);` +
    (outcomes.some((o) => o.label.startsWith("embedded")) ? " the embedded database (PGlite, `DATA_DIR`)." : ""),
  "",
  `Measured on ${new Date().toISOString().slice(0, 10)}, code ${code}, with Node ${nodes} (the sender) on the project machine's 2`,
  "cores, which PostgreSQL, the SMTP server, the sender and whatever else runs there share: the rates move with the",
  "machine's load (the 1-minute load average during each send is in the table: it lags, and the bench itself makes",
  `1 to 2 of it; ${startLoad.toFixed(1)} when it began). The sender's CPU time moves far less. The rate is the SMTP server's, from`,
  "the first message it accepted to the last; memory is the sending process's own (bench/lib/memory-probe.ts: peak",
  "resident set is the kernel's high-water mark; the V8 heap in use is sampled every 20 ms, and is mostly garbage",
  "not yet collected; what the process holds is the heap in use right after the full collections V8 ran by itself,",
  "flat from the first to the last if the send keeps nothing per message); MB are 2^20 bytes.",
  "",
  `| | ${outcomes.map((o) => o.label).join(" | ")} |`,
  `| --- |${outcomes.map(() => " ---: |").join("")}`,
  row("messages a second (the SMTP server's first to last)", (o) => n(Math.round((o.messages - 1) / o.smtpSeconds))),
  row("the send's command, wall time", (o) => `${o.send.seconds.toFixed(1)} s`),
  row("a dry run's (start-up and the count)", (o) => `${o.dry.seconds.toFixed(1)} s`),
  row(
    "the sender's CPU time (user + system), per message",
    (o) => `${o.send.memory.cpuSeconds.toFixed(1)} s, ${((o.send.memory.cpuSeconds / PEOPLE) * 1000).toFixed(2)} ms`,
  ),
  row(
    "load average during the send, mean (highest)",
    (o) => `${o.send.load.mean.toFixed(1)} (${o.send.load.max.toFixed(1)})`,
  ),
  row("peak resident memory of the sending process", (o) => mb(o.send.memory.maxRss)),
  row("… of the dry run's", (o) => mb(o.dry.memory.maxRss)),
  row("peak V8 heap in use of the sending process (sampled)", (o) => mb(o.send.memory.heapUsed)),
  row("… of the dry run's", (o) => mb(o.dry.memory.heapUsed)),
  row(
    "heap in use after a full collection: highest, after the last (collections)",
    (o) => `${mb(o.send.memory.liveMax)}, ${mb(o.send.memory.liveLast)} (${o.send.memory.fullGcs})`,
  ),
  row("messages accepted by the SMTP server", (o) => n(o.messages)),
  row("distinct recipients; of them sent two or more", (o) => `${n(o.recipients)}; ${n(o.twice)}`),
  row("recipients outside the audience", (o) => n(o.strangers)),
  row(
    "recipient rows by state (`waitlist_update_recipient`)",
    (o) =>
      Object.entries(o.states)
        .map(([state, count]) => `${state} ${n(count)}`)
        .join(", ") || "none",
  ),
  row(
    "the update's `sent` (`failed`), finished",
    (o) => `${n(o.update.sent)} (${n(o.update.failed)}), ${o.update.finished ? "yes" : "no"}`,
  ),
  row("everyone exactly once", (o) => (complete(o) ? "✓" : "✗")),
].join("\n");
console.log(table);
writeSection("updates", table);
if (!outcomes.every(complete)) process.exitCode = 1;
