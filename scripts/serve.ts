/**
 * Serves the production build (dist/) at http://localhost:4321 (PORT overrides), offline, with
 * netlify.toml's headers and redirects, a true 404 for unknown paths, and the functions at their paths.
 * The database opens alongside, before the first sign-up needs it.
 */
import { createServer } from "node:http";
import { getConfig } from "../src/server/config";
import { closeStore, getStore } from "../src/server/store";
import { loadFunctions } from "./lib/functions";
import { loadNetlifyRules } from "./lib/netlify-rules";
import { createSiteHandler } from "./lib/static-server";

const port = Number(process.env["PORT"] ?? 4321);
const host = process.env["HOST"] ?? "localhost";
const rules = loadNetlifyRules();
const started = performance.now();

// The database opens (on a new folder: initdb, seconds) while the server already answers pages; a sign-up
// that arrives first waits for it, and no request ever pays for it twice.
getStore().then(
  (store) => {
    const where = store.db.kind === "pglite" ? `embedded Postgres in ${getConfig().dataDir}/` : "Neon (DATABASE_URL)";
    console.log(`Waitlist database: ${where}, ready in ${Math.round(performance.now() - started)} ms`);
  },
  (error: unknown) => {
    console.error(`Cannot open the waitlist database: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

const handler = createSiteHandler({ root: rules.publish, rules, functions: await loadFunctions() });
const server = createServer((req, res) => {
  handler(req, res).catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", event: "serve.error", error: String(error) }));
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ error: "Internal error" }));
  });
});

server.on("error", (error: NodeJS.ErrnoException) => {
  console.error(error.code === "EADDRINUSE" ? `Port ${port} is in use: set PORT to another port.` : String(error));
  closeStore().finally(() => process.exit(1));
});

server.listen(port, host, () => {
  console.log(`Serving ${rules.publish}/ at http://${host}:${port}`);
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    closeStore().finally(() => process.exit(0));
  });
}
