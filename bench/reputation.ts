/**
 * `npm run bench -- reputation [-- --people N]`: mail that keeps its good name, measured against a throw-away
 * PostgreSQL database at TEST_POSTGRES_URL and a real SMTP server on 127.0.0.1 (tests/support/smtp.ts):
 * 1. an update to N people (default 10,000) where 2 % of the addresses answer `550 5.1.1`: how many are suppressed,
 *    and how many RCPT TOs the next update and a wave to those people make (0: the list is consulted);
 * 2. 1,000 Postmark events posted at once to POST /api/mail-events/postmark's handler: recorded once each (and
 *    once again, all duplicates), p50/p99 answer time;
 * 3. a running send (paced at 100 e-mails a second) and a complaint that takes its rate past 0.3 %: the time from
 *    the event's POST to the send's stop.
 * To docs/performance.md.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { writeSection } from "../scripts/lib/perf-doc";
import { createStore, type Store } from "../src/server/app/store";
import { readConfig } from "../src/server/config";
import { createPgDb } from "../src/server/db/pg";
import { runWave } from "../src/server/invitations";
import { createSmtpMailer } from "../src/server/mail/mailer";
import { suppressedMailer } from "../src/server/suppression";
import { createMailEventsHandler } from "../src/server/suppression/handler";
import { createUpdateStore, sendUpdate, updatesKey } from "../src/server/updates";
import { createMigratedDatabase } from "../tests/support/postgres";
import { startSmtp } from "../tests/support/smtp";

const { values } = parseArgs({ options: { people: { type: "string" } } });
const PEOPLE = Number(values.people ?? 10_000);
const EVENTS = 1_000;
const SITE = "http://localhost:4321";
const dead = (n: number) => n % 50 === 0;
const AUTH = { Authorization: `Basic ${Buffer.from("postmark:bench-password-0123456789").toString("base64")}` };

async function fresh(prefix: string, smtpUrl: string) {
  const database = await createMigratedDatabase(prefix);
  const store = createStore(createPgDb(database.url));
  const config = readConfig({
    SMTP_URL: smtpUrl,
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    SITE_URL: SITE,
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
    POSTMARK_WEBHOOK_USER: "postmark",
    POSTMARK_WEBHOOK_PASSWORD: "bench-password-0123456789",
  });
  const close = async () => {
    await store.close();
    await database.drop();
  };
  return { store, config, close };
}

async function people(store: Store, n: number) {
  await store.db.query(
    "INSERT INTO waitlist (email, status, updates_consent, updates_consent_at) SELECT 'p' || i || '@example.com', 'confirmed', true, now() FROM generate_series(1, $1::int) i",
    [n],
  );
}

async function update(store: Store, smtpUrl: string, subject: string, ratePerSecond = 0) {
  const config = readConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "hello@noosphere.test", SITE_URL: SITE });
  const updates = createUpdateStore(store.db, store.dataKeys);
  const { id } = await updates.create(subject, "Hello.\n\nNews.", "CLI", null);
  const mail = config.mail;
  if (!mail) throw new Error("mail is off");
  const mailer = suppressedMailer(createSmtpMailer(mail, { pool: true }), config, async () => store);
  const run = sendUpdate(id, {
    updates,
    mailer,
    root: await updatesKey(store),
    site: SITE,
    owner: `bench-${id}`,
    ratePerSecond,
  }).finally(() => mailer.close());
  return { id, run };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;

// 1. An update to PEOPLE where 2 % answer 550; then another update and a wave.
const asked = new Map<string, number>();
const smtp = await startSmtp({
  answers: (address) => (dead(Number(/^p(\d+)@/.exec(address)?.[1])) ? "550 5.1.1 user unknown" : undefined),
  onRecipient: (address) => asked.set(address, (asked.get(address) ?? 0) + 1),
});
const one = await fresh("bench_reputation_update", smtp.url);
await people(one.store, PEOPLE);
const started = performance.now();
const first = await update(one.store, smtp.url, "First");
const firstReport = await first.run;
const firstSeconds = (performance.now() - started) / 1000;
const [suppressed] = await one.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM mail_suppression");
const deadAsked = () =>
  [...asked].filter(([a]) => dead(Number(/^p(\d+)@/.exec(a)?.[1]))).reduce((s, [, n]) => s + n, 0);
const askedAfterFirst = deadAsked();
const second = await update(one.store, smtp.url, "Second");
const secondReport = await second.run;
const deadIds = await one.store.db.query<{ id: number }>(
  "SELECT id FROM waitlist WHERE substring(email from '^p([0-9]+)@')::int % 50 = 0 ORDER BY id",
);
const mail = one.config.mail;
if (!mail) throw new Error("mail is off");
const waveMailer = suppressedMailer(createSmtpMailer(mail, { pool: true }), one.config, async () => one.store);
const wave = await runWave({
  store: one.store,
  next: deadIds.length,
  people: deadIds.map((r) => Number(r.id)),
  delivery: { kind: "mail", mailer: waveMailer },
  accessUrl: new URL("https://app.noosphere.test/signup"),
  siteUrl: SITE,
  ttlDays: 30,
}).finally(() => waveMailer.close());
const askedLater = deadAsked() - askedAfterFirst;
await one.close();

// 2. 1,000 Postmark events at once, then the same again.
const two = await fresh("bench_reputation_events", smtp.url);
const handler = createMailEventsHandler({ store: async () => two.store, config: () => two.config }, "postmark");
const post = async (i: number) => {
  const body = JSON.stringify({
    RecordType: "Bounce",
    ID: 1_000_000 + i,
    Type: "HardBounce",
    MessageID: `msg-${i}`,
    Email: `e${i}@example.com`,
    Description: "Unknown user",
  });
  const at = performance.now();
  const response = await handler(
    new Request(`${SITE}/api/mail-events/postmark`, { method: "POST", headers: AUTH, body }),
  );
  return { status: response.status, ms: performance.now() - at };
};
const burst = await Promise.all(Array.from({ length: EVENTS }, (_, i) => post(i)));
const again = await Promise.all(Array.from({ length: EVENTS }, (_, i) => post(i)));
const [recorded] = await two.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM mail_event");
const times = burst.map((r) => r.ms).sort((a, b) => a - b);
await two.close();

// 3. A running send, and a complaint past 0.3 %.
const three = await fresh("bench_reputation_pause", smtp.url);
await people(three.store, 1_000);
const running = await update(three.store, smtp.url, "Paced", 100);
const sentSoFar = async () =>
  (await three.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM mail_sent"))[0]?.n ?? 0;
while ((await sentSoFar()) < 300) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const [message] = await three.store.db.query<{ message_id: string }>("SELECT message_id FROM mail_sent LIMIT 1");
const complaint = createMailEventsHandler({ store: async () => three.store, config: () => three.config }, "postmark");
const complainedAt = performance.now();
await complaint(
  new Request(`${SITE}/api/mail-events/postmark`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify({
      RecordType: "SpamComplaint",
      ID: 42,
      Type: "SpamComplaint",
      MessageID: message?.message_id.replace(/^<|>$/g, ""),
      Email: "p1@example.com",
    }),
  }),
);
const pausedReport = await running.run;
const pauseMs = performance.now() - complainedAt;
const [state] = await three.store.db.query<{ owner: string }>("SELECT owner FROM waitlist_update WHERE id = $1", [
  running.id,
]);
await three.close();
await smtp.close();

const table = `## Mail that keeps its good name (\`npm run bench -- reputation\`)

PostgreSQL at 127.0.0.1:5432, the SMTP server of the tests on 127.0.0.1; ${new Date().toISOString().slice(0, 10)}.

| Measure | Figure |
| --- | --- |
| Update to ${PEOPLE.toLocaleString("en")}, 2 % answering \`550 5.1.1\` | ${firstReport?.sent ?? 0} sent, ${firstReport?.failed ?? 0} failed, ${suppressed?.n ?? 0} suppressed, ${firstSeconds.toFixed(1)} s |
| The next update: RCPT TOs to those addresses | ${askedLater === 0 ? "0" : String(askedLater)} (${secondReport?.skipped ?? 0} skipped, ${secondReport?.sent ?? 0} sent) |
| A wave to those ${deadIds.length} people | ${wave.invited} invited, 0 RCPT TOs (counted above) |
| ${EVENTS.toLocaleString("en")} Postmark events posted at once | ${recorded?.n ?? 0} recorded; answers ${[...new Set(burst.map((r) => r.status))].join(", ")}; p50 ${ms(percentile(times, 0.5))}, p99 ${ms(percentile(times, 0.99))} |
| The same ${EVENTS.toLocaleString("en")} again | ${again.filter((r) => r.status === 200).length} answered 200, nothing recorded twice (${recorded?.n ?? 0} rows) |
| A complaint past 0.3 % during a send paced at 100/s | the send stopped ${ms(pauseMs)} after the event's POST (owner \`${state?.owner}\`, ${pausedReport?.remaining ?? "?"} left queued) |`;
writeSection("reputation", table);
console.log(table);
