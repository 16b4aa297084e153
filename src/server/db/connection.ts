import { ConfigError, type ServerConfig } from "../config";

/**
 * Which database a process uses, decided from configuration alone (nothing is opened here):
 * - DATABASE_URL, a Postgres the deployer brings: Neon hosts over Neon's HTTP API (`neon()`), any other
 *   Postgres over node-postgres; DATABASE_DRIVER forces either.
 * - else NETLIFY_DB_URL, Netlify Database: through its own client, `@netlify/database`, which picks the
 *   driver from NETLIFY_DB_DRIVER (`serverless` → Neon HTTP, otherwise node-postgres, as `netlify dev` sets).
 * - else, outside Netlify, the embedded Postgres (PGlite) in DATA_DIR.
 */
export type Connection =
  | { kind: "neon-http" | "pg"; url: string; variable: "DATABASE_URL" }
  | { kind: "netlify-database"; url: string; variable: "NETLIFY_DB_URL" }
  | { kind: "embedded"; dataDir: string };

const NEON_HOST = /\.neon\.(tech|build)$/i;

export function chooseConnection(config: ServerConfig): Connection {
  if (config.databaseUrl) {
    const forced = config.databaseDriver;
    if (forced !== null && forced !== "neon-http" && forced !== "pg") {
      throw new ConfigError(`DATABASE_DRIVER must be "neon-http" or "pg", not "${forced}".`);
    }
    return { kind: forced ?? driverFor(config.databaseUrl), url: config.databaseUrl, variable: "DATABASE_URL" };
  }
  if (config.netlifyDbUrl) return { kind: "netlify-database", url: config.netlifyDbUrl, variable: "NETLIFY_DB_URL" };
  if (config.onNetlify) {
    throw new ConfigError("No database configured: add Netlify Database to this site, or set DATABASE_URL.");
  }
  return { kind: "embedded", dataDir: config.dataDir };
}

function driverFor(url: string): "neon-http" | "pg" {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new ConfigError("DATABASE_URL is not a valid URL (expected postgresql://user:password@host/database).");
  }
  return NEON_HOST.test(host) ? "neon-http" : "pg";
}

/** Where sign-ups go, for people: never the URL itself (it holds a password). */
export function describeConnection(connection: Connection): string {
  switch (connection.kind) {
    case "neon-http":
      return "Neon over HTTP (DATABASE_URL)";
    case "pg":
      return "PostgreSQL (DATABASE_URL)";
    case "netlify-database":
      return "Netlify Database (NETLIFY_DB_URL)";
    case "embedded":
      return `the embedded database in ${connection.dataDir}/`;
  }
}

/**
 * Deploy previews and branch deploys write only where they have a database of their own and the key its rows
 * are sealed with: Netlify Database gives each preview its own branch, but forks production's rows into it, so a
 * preview without DATA_KEY (deployers scope it to Production) stores nothing; a DATABASE_URL is shared, so there
 * they are dry runs too. ALLOW_PREVIEW_WRITES=1 says the preview's database is its own, and may be written.
 */
export function isDryRun(deployContext: string | undefined, config: ServerConfig): boolean {
  if (!deployContext || deployContext === "production" || deployContext === "dev") return false;
  if (config.allowPreviewWrites) return false;
  if (!config.dataKeys) return true;
  try {
    return chooseConnection(config).kind !== "netlify-database";
  } catch {
    return true; // No database at all: a preview can still validate and answer.
  }
}
