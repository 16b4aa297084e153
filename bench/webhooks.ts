/**
 * `npm run bench -- webhooks`: 10,000 webhook events delivered as the team (or the scheduled function) delivers them,
 * `npm run waitlist -- webhooks deliver` (a process of its own), to a receiver on 127.0.0.1 that verifies every
 * request with the `standardwebhooks` package, as any receiver's library does, and answers 200. The events are the
 * database's own: webhooks switched on, then 10,000 sign-ups by one SQL INSERT, whose trigger (migration 0013)
 * writes one `waitlist.signed_up` event per row. Delivered by one process, then (a new database, the same sign-ups)
 * by two at once; against a throw-away PostgreSQL database at TEST_POSTGRES_URL (default 127.0.0.1:5432), then by one
 * process from an embedded database (PGlite: one process owns it, so never two). Reports events a second as the
 * receiver saw them and the command's wall time (beside a run with nothing due, which is the process's start-up),
 * the delivering process's peak memory (bench/lib/memory-probe.ts), and the proof that no event was acknowledged
 * twice: every webhook-id answered 200 once at the receiver, every event 'delivered' after one attempt in the
 * database; to docs/performance.md. `-- --postgres-only` skips the embedded database.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { Webhook } from "standardwebhooks";
import { writeSection } from "../scripts/lib/perf-doc";
import { WEBHOOK_SQL } from "../src/server/webhooks/store";
import { type CliRun, cliEnv, codeState, mb, runCli } from "./lib/cli";
import { type BenchDatabase, embeddedDatabase, postgresDatabase, type Query } from "./lib/databases";

const EVENTS = 10_000;
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;

interface Receiver {
  url: string;
  /** Requests answered 200 (verified), per webhook-id. */
  acknowledged: Map<string, number>;
  /** Requests refused: the signature did not verify, or the body was not a sign-up event. */
  refused: number;
  /** When the first and the last request was acknowledged (performance.now()). */
  first: number;
  last: number;
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 that verifies each request as Standard Webhooks says, and counts what it acknowledged. */
async function startReceiver(): Promise<Receiver> {
  const webhook = new Webhook(SECRET);
  const state = { acknowledged: new Map<string, number>(), refused: 0, first: 0, last: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const header = (name: string) => String(request.headers[name] ?? "");
      try {
        const event = webhook.verify(body, {
          "webhook-id": header("webhook-id"),
          "webhook-timestamp": header("webhook-timestamp"),
          "webhook-signature": header("webhook-signature"),
        }) as { type?: string; data?: { email?: string } };
        if (event.type !== "waitlist.signed_up" || !event.data?.email) throw new Error("not a sign-up event");
      } catch {
        state.refused++;
        response.writeHead(400).end();
        return;
      }
      const id = header("webhook-id");
      state.acknowledged.set(id, (state.acknowledged.get(id) ?? 0) + 1);
      const now = performance.now();
      state.first ||= now;
      state.last = now;
      response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/**
 * What one claim costs with every event due: the delivery's own statement (store.ts WEBHOOK_SQL.claim) under
 * EXPLAIN ANALYZE, in a transaction rolled back (so it claims nothing); the median of three. Rows read: the most any
 * scan of the outbox returned to pick one event.
 */
async function claimCost(query: Query): Promise<{ ms: number; rowsRead: number }> {
  const runs: { ms: number; rowsRead: number }[] = [];
  for (let i = 0; i < 3; i++) {
    await query("BEGIN");
    try {
      const [row] = await query<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${WEBHOOK_SQL.claim}`, [
        "bench-explain",
      ]);
      const raw = row?.["QUERY PLAN"];
      const [plan] = (typeof raw === "string" ? JSON.parse(raw) : raw) as [
        { Plan: PlanNode; "Execution Time": number },
      ];
      let rowsRead = 0;
      const walk = (node: PlanNode) => {
        if (node["Node Type"].includes("Scan") && node["Relation Name"] === "waitlist_webhook_event") {
          rowsRead = Math.max(rowsRead, (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1));
        }
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan.Plan);
      runs.push({ ms: plan["Execution Time"], rowsRead });
    } finally {
      await query("ROLLBACK");
    }
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[1] as { ms: number; rowsRead: number };
}

interface Variant {
  open: (prefix: string) => Promise<BenchDatabase>;
  /** Delivering processes at once. */
  workers: number;
}

interface Outcome {
  label: string;
  workers: number;
  idle: CliRun;
  runs: CliRun[];
  /** From the first process's start to the last one's exit. */
  seconds: number;
  /** Delivered events each process reported. */
  reported: number[];
  acknowledged: number;
  twice: number;
  refused: number;
  receiverSeconds: number;
  states: Record<string, number>;
  attempts: { events: number; total: number; most: number };
  claim: { ms: number; rowsRead: number };
}

async function measure(variant: Variant): Promise<Outcome> {
  const database = await variant.open("bench_webhooks");
  try {
    const receiver = await startReceiver();
    try {
      const env = cliEnv({ ...database.env, WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET });
      // Nothing due yet: the process's start-up, its one claim that finds nothing, and its exit.
      const idle = await runCli(["webhooks", "deliver"], env);
      if (idle.code !== 0) throw new Error(`webhooks deliver with nothing due failed (${idle.code}): ${idle.stderr}`);
      const claim = await database.use(async (query) => {
        await query("UPDATE waitlist_webhook_state SET enabled = true");
        await query(
          `INSERT INTO waitlist (name, email, status, created_at, source)
           SELECT 'Person ' || i, 'person' || i || '@example.com', 'confirmed', now() - make_interval(mins => ${EVENTS} - i),
             'bench'
           FROM generate_series(1, ${EVENTS}) AS i`,
        );
        const [made] = await query<{ n: number }>("SELECT count(*)::int AS n FROM waitlist_webhook_event");
        if (Number(made?.n) !== EVENTS) throw new Error(`the sign-ups made ${made?.n} events, not ${EVENTS}`);
        return claimCost(query);
      });
      const started = performance.now();
      const runs = await Promise.all(
        Array.from({ length: variant.workers }, () => runCli(["webhooks", "deliver"], env)),
      );
      const seconds = (performance.now() - started) / 1000;
      const label = `${database.label}, ${variant.workers === 1 ? "one process" : `${variant.workers} processes at once`}`;
      for (const run of runs) {
        console.log(`${label}: ${run.stdout}${run.code === 0 ? "" : ` (exit ${run.code}: ${run.stderr})`}`);
      }
      const [states, [attempts]] = await database.use(async (query) => [
        await query<{ state: string; n: number }>(
          "SELECT state, count(*)::int AS n FROM waitlist_webhook_event GROUP BY state",
        ),
        await query<{ events: number; total: number; most: number }>(
          `SELECT count(*)::int AS events, coalesce(sum(attempts), 0)::int AS total, coalesce(max(attempts), 0)::int AS most
           FROM waitlist_webhook_event`,
        ),
      ]);
      const counts = [...receiver.acknowledged.values()];
      return {
        label,
        workers: variant.workers,
        idle,
        runs,
        seconds,
        reported: runs.map((run) => Number(/: (\d+) delivered/.exec(run.stdout)?.[1] ?? 0)),
        acknowledged: counts.length,
        twice: counts.filter((n) => n > 1).length,
        refused: receiver.refused,
        receiverSeconds: (receiver.last - receiver.first) / 1000,
        states: Object.fromEntries(states.map((row) => [row.state, Number(row.n)])),
        attempts: {
          events: Number(attempts?.events ?? 0),
          total: Number(attempts?.total ?? 0),
          most: Number(attempts?.most ?? 0),
        },
        claim,
      };
    } finally {
      await receiver.close();
    }
  } finally {
    await database.drop();
  }
}

/** The code measured, read before it runs (another change may land during a run). */
const code = codeState();
const startLoad = loadavg()[0] ?? 0;
const variants: Variant[] = [
  { open: postgresDatabase, workers: 1 },
  { open: postgresDatabase, workers: 2 },
];
if (!process.argv.includes("--postgres-only")) variants.push({ open: embeddedDatabase, workers: 1 });
const outcomes: Outcome[] = [];
for (const variant of variants) outcomes.push(await measure(variant));

const n = (value: number) => value.toLocaleString("en");
const complete = (o: Outcome) =>
  o.runs.every((run) => run.code === 0) &&
  o.acknowledged === EVENTS &&
  o.twice === 0 &&
  o.refused === 0 &&
  o.reported.reduce((a, b) => a + b, 0) === EVENTS &&
  o.states["delivered"] === EVENTS &&
  Object.keys(o.states).length === 1 &&
  o.attempts.total === EVENTS &&
  o.attempts.most === 1;
const most = (o: Outcome, of: (run: CliRun) => number) => Math.max(...o.runs.map(of));
const row = (what: string, cell: (o: Outcome) => string) => `| ${what} | ${outcomes.map(cell).join(" | ")} |`;
const nodes = [...new Set(outcomes.flatMap((o) => o.runs.map((run) => run.memory.node)))].join(", ");
const table = [
  "## Webhooks (`npm run bench -- webhooks`)",
  "",
  `${n(EVENTS)} events written by the database itself: webhooks switched on, then ${n(EVENTS)} sign-ups by one SQL`,
  "`INSERT`, whose trigger (migration 0013) writes one `waitlist.signed_up` event per row. Delivered as the team",
  "delivers them by hand, `npm run waitlist -- webhooks deliver` (a process of its own: claim one due event under a",
  "lease, POST it signed, record the answer, next), to a receiver on 127.0.0.1 that verifies every request with the",
  "`standardwebhooks` package (`new Webhook(secret).verify(body, headers)`), checks it is a sign-up, answers 200 and",
  "counts the requests it acknowledged per `webhook-id`. Each column is a new database with the same sign-ups:",
  "PostgreSQL 15 on 127.0.0.1:5432 delivered by one process, then by two processes started at once;" +
    (outcomes.some((o) => o.label.startsWith("embedded"))
      ? " the embedded database (PGlite, `DATA_DIR`), one process (it has one owner at a time)."
      : ""),
  "",
  `Measured on ${new Date().toISOString().slice(0, 10)}, code ${code}, with Node ${nodes} (the deliverers) on the project machine's`,
  "2 cores, which PostgreSQL, the receiver, the deliverers and whatever else runs there share: the rates move with",
  "the machine's load (the 1-minute load average during each delivery is in the table: it lags, and the bench itself",
  `makes 1 to 2 of it; ${startLoad.toFixed(1)} when it began), the CPU time far less. The rate is the receiver's, from the first`,
  "request it acknowledged to the last; memory is each delivering process's own, the highest of the processes",
  "(bench/lib/memory-probe.ts: peak resident set is the kernel's high-water mark; the V8 heap in use is sampled every",
  "20 ms, and is mostly garbage not yet collected; what the process holds is the heap in use right after the full",
  "collections V8 ran by itself, flat from the first to the last if delivery keeps nothing per event); MB are 2^20",
  "bytes.",
  "",
  `| | ${outcomes.map((o) => o.label).join(" | ")} |`,
  `| --- |${outcomes.map(() => " ---: |").join("")}`,
  row("events a second (the receiver's first to last)", (o) => n(Math.round((EVENTS - 1) / o.receiverSeconds))),
  row("the delivery, wall time (first start to last exit)", (o) => `${o.seconds.toFixed(1)} s`),
  row("a run with nothing due (start-up, one claim)", (o) => `${o.idle.seconds.toFixed(1)} s`),
  row(
    `one claim with ${n(EVENTS)} due (its statement under EXPLAIN ANALYZE): time, rows of the outbox read`,
    (o) => `${o.claim.ms.toFixed(1)} ms, ${n(o.claim.rowsRead)}`,
  ),
  row("the deliverers' CPU time (user + system), per event", (o) => {
    const cpu = o.runs.reduce((a, run) => a + run.memory.cpuSeconds, 0);
    return `${cpu.toFixed(1)} s, ${((cpu / EVENTS) * 1000).toFixed(2)} ms`;
  }),
  row(
    "load average during the delivery, mean (highest)",
    (o) => `${most(o, (run) => run.load.mean).toFixed(1)} (${most(o, (run) => run.load.max).toFixed(1)})`,
  ),
  row("delivered, as each process reported", (o) => o.reported.map(n).join(" + ")),
  row("peak resident memory of a delivering process", (o) => mb(most(o, (run) => run.memory.maxRss))),
  row("… of the run with nothing due", (o) => mb(o.idle.memory.maxRss)),
  row("peak V8 heap in use of a delivering process (sampled)", (o) => mb(most(o, (run) => run.memory.heapUsed))),
  row("… of the run with nothing due", (o) => mb(o.idle.memory.heapUsed)),
  row("heap in use after a full collection: highest, after the last (collections)", (o) =>
    o.runs.map((run) => `${mb(run.memory.liveMax)}, ${mb(run.memory.liveLast)} (${run.memory.fullGcs})`).join("; "),
  ),
  row("distinct webhook-ids acknowledged (200); of them twice or more", (o) => `${n(o.acknowledged)}; ${n(o.twice)}`),
  row("requests refused by the receiver (signature or body)", (o) => n(o.refused)),
  row(
    "events by state (`waitlist_webhook_event`)",
    (o) =>
      Object.entries(o.states)
        .map(([state, count]) => `${state} ${n(count)}`)
        .join(", ") || "none",
  ),
  row("attempts recorded, in all (most on one event)", (o) => `${n(o.attempts.total)} (${o.attempts.most})`),
  row("every event acknowledged exactly once", (o) => (complete(o) ? "✓" : "✗")),
].join("\n");
console.log(table);
writeSection("webhooks", table);
if (!outcomes.every(complete)) process.exitCode = 1;
