/**
 * Serves the production build (dist/) at http://localhost:4321 (PORT overrides), offline,
 * with netlify.toml's headers and redirects and a true 404 status for unknown paths.
 */
import { createServer } from "node:http";
import { loadNetlifyRules } from "./lib/netlify-rules";
import { createSiteHandler } from "./lib/static-server";

const port = Number(process.env["PORT"] ?? 4321);
const host = process.env["HOST"] ?? "localhost";
const rules = loadNetlifyRules();
const handler = createSiteHandler({ root: rules.publish, rules });

const server = createServer((req, res) => {
  handler(req, res).catch((error: unknown) => {
    console.error(JSON.stringify({ event: "serve.error", message: String(error) }));
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "Internal error" }));
  });
});

server.listen(port, host, () => {
  console.log(`Serving ${rules.publish}/ at http://${host}:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
