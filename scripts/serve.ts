/**
 * Serves the production build at http://localhost:4321 (PORT overrides), offline, as Netlify would (see
 * dev/local-netlify/site-server.ts), with the functions at their paths. Without a database URL they use the embedded
 * database, which opens alongside, before the first sign-up needs it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { resolveConfig } from "@netlify/config";
import { loadAllFunctions } from "../dev/local-netlify/functions";
import { startSchedules } from "../dev/local-netlify/schedule";
import { createSiteHandler, loadHeaderRules } from "../dev/local-netlify/site-server";
import { refuseSiteConfig } from "../dev/local-netlify/unsupported";
import { allowEmbeddedDatabase, closeStore, getStore, shutDownStore } from "../src/server/app/instance";
import type { Store } from "../src/server/app/store";
import { getConfig } from "../src/server/config";
import { secretSaid, secretSource } from "../src/server/crypto/secret";
import { DataKeyError } from "../src/server/data-key";
import { chooseConnection, describeConnection } from "../src/server/db/connection";
import { openPgliteDb } from "../src/server/db/pglite";

// A download of the whole list streams hundreds of MB through short-lived objects: at V8's own growing factor (up
// to several times the live heap after each full collection) the server grew by about 100 MB for it; at 1.2 it
// grows by about 12, for about a fifth more time in collection (docs/performance.md, "At scale"). Set here rather
// than on the command line: NODE_OPTIONS does not take this flag, and every way the server starts runs this file.
setFlagsFromString("--heap-growing-percent=20");

const port = Number(process.env["PORT"] ?? 4321);
const host = process.env["HOST"] ?? "localhost";
const started = performance.now();

/** Whether sign-ups are sealed with DATA_KEY or kept as plain text (the embedded database's folder is 0700). */
async function describeAtRest(store: Store): Promise<string> {
  await store.checkDataKey();
  const { plain } = await store.sealing();
  const keys = getConfig().dataKeys;
  if (!keys) return `plain text (DATA_KEY is not set)${plain > 0 ? `, ${plain} row(s)` : ""}`;
  const left = plain > 0 ? `; ${plain} older row(s) still plain: run npm run waitlist -- encrypt` : "";
  return `sealed with DATA_KEY (key ${keys.current.id})${left}`;
}

// A bearer token or Postmark webhook password short enough to guess, a server secret that cannot be used, or a
// webhook setting that cannot be used, is refused before anything is served, one line per variable.
const tokenProblems = [
  getConfig().serverSecretProblem,
  getConfig().adminTokenProblem,
  getConfig().inviteRedeemTokenProblem,
  getConfig().reputation.postmarkWebhookProblem,
  getConfig().webhookProblem,
  // A value that cannot be read (RATE_LIMIT_MAX=ten) is never taken as its default.
  ...getConfig().unreadable,
].filter((p) => p !== null);
if (tokenProblems.length > 0) {
  for (const problem of tokenProblems) console.error(problem);
  process.exit(1);
}

allowEmbeddedDatabase(openPgliteDb);
// The database opens (on a new folder: initdb, seconds) while the server already answers pages; a sign-up
// that arrives first waits for it, and no request ever pays for it twice.
getStore().then(
  async (store) => {
    const where = describeConnection(chooseConnection(getConfig()));
    try {
      // A network database is only reached by the first query: make one, so a wrong URL shows now.
      await store.count();
      console.log(`Waitlist database: ${where}, ready in ${Math.round(performance.now() - started)} ms`);
      // Which secret keys the client counts and signs the proofs of work: said once, never the secret itself.
      if (!getConfig().serverSecret) await store.secret();
      console.log(`Server secret: ${secretSource(getConfig())}`);
      secretSaid();
      console.log(`Data at rest: ${await describeAtRest(store)}`);
    } catch (error) {
      if (error instanceof DataKeyError) {
        console.error(`Data at rest: ${error.message} Nothing was written.`);
        process.exit(1);
      }
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`Waitlist database: ${where}, unreachable (${reason}); sign-ups answer 503 until it is back.`);
    }
  },
  (error: unknown) => {
    console.error(`Cannot open the waitlist database: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

// Confirmation by e-mail: said at start, with the SMTP host but never its credentials.
const { mail, mailConfigProblem } = getConfig();
if (mail) {
  const host = URL.canParse(mail.smtpUrl) ? new URL(mail.smtpUrl).host : "SMTP_URL";
  console.log(`Confirmation e-mails: on, from ${mail.from} through ${host}`);
} else {
  console.log(`Confirmation e-mails: off${mailConfigProblem ? ` (${mailConfigProblem})` : ""}`);
}

const { config, configPath } = await resolveConfig({ cwd: process.cwd(), offline: true, context: "production" });
const publish = config.build.publish;
refuseSiteConfig(config, publish);
const { routes, scheduled } = await loadAllFunctions(config.functionsDirectory ?? "netlify/functions");
const handler = createSiteHandler({
  publish,
  headerRules: await loadHeaderRules(configPath ?? "netlify.toml", publish),
  functions: routes,
  host,
  // Netlify's per-client rate limit on the functions; the test servers, many visitors from one address, say off.
  rateLimits: process.env["NETLIFY_RATE_LIMIT"] !== "off",
});
// Scheduled functions run on their cron, in UTC, as on Netlify (webhook retries, the daily purge); the test
// servers say off, so nothing runs at a minute's turn under a test's feet. A schedule Netlify would not run stops
// the start here.
// The site's address once listening: what a scheduled function's context names (the jobs' scheduler calls the site).
let siteUrl: string | undefined;
const schedules =
  process.env["NETLIFY_SCHEDULES"] === "off" ? null : startSchedules(scheduled, { siteUrl: () => siteUrl });
if (!schedules) {
  console.log("Scheduled functions: off (NETLIFY_SCHEDULES=off)");
} else if (schedules.registered.length > 0) {
  const each = schedules.registered.map((s) => `${s.name} (${s.schedule}, next ${s.next.toISOString()})`);
  console.log(`Scheduled functions: ${each.join(", ")}`);
}
let inFlight = 0;
let drained: (() => void) | undefined;
const server = createServer((req, res) => {
  inFlight++;
  res.on("close", () => {
    inFlight--;
    if (inFlight === 0) drained?.();
  });
  handler(req, res).catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", event: "serve.error", error: String(error) }));
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ error: "Internal error" }));
  });
});

server.on("error", (error: NodeJS.ErrnoException) => {
  schedules?.stop();
  console.error(error.code === "EADDRINUSE" ? `Port ${port} is in use: set PORT to another port.` : String(error));
  closeStore().finally(() => process.exit(1));
});

server.listen(port, host, () => {
  // PORT=0 lets the OS pick a free port; the line says which (tests and benchmarks read it).
  const { port: actual } = server.address() as AddressInfo;
  siteUrl = `http://${host === "0.0.0.0" || host === "::" ? "localhost" : host}:${actual}`;
  console.log(`Serving ${publish} at http://${host}:${actual}`);
});

/** The longest a graceful shutdown waits for requests in flight before it closes the database anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing ${inFlight} request(s) in flight, then closing the database`);
    // Stop accepting (and starting scheduled runs); idle keep-alive connections go now, busy ones once their
    // answer is sent, and a scheduled run going on is waited for like a request.
    schedules?.stop();
    server.close();
    server.closeIdleConnections();
    const idle = inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));
    const grace = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    Promise.race([Promise.all([idle, schedules?.settled()]), grace])
      .then(() => handler.settled())
      .then(shutDownStore)
      .finally(() => process.exit(0));
  });
}
