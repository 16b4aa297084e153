import type { Connection } from "../../src/server/db/connection";

/**
 * One line for people: what failed, named by its variable, with the driver's own reason and never the URL
 * (it holds a password). For example:
 *   DATABASE_URL: cannot connect to PostgreSQL (ECONNREFUSED 127.0.0.1:5999)
 */
export function explainDbError(error: unknown, connection: Connection): string {
  const where =
    connection.kind === "embedded" ? `the embedded database in ${connection.dataDir}/` : connection.variable;
  const e = error as { name?: string; message?: string; code?: string; errors?: unknown[] };
  // node-postgres reports a refused connection to every address of a host as an AggregateError.
  const inner = (Array.isArray(e.errors) && (e.errors[0] as typeof e)) || e;
  let reason = inner.message || e.message || String(error);
  if (connection.kind !== "embedded") reason = reason.split(connection.url).join("<url>");
  const code = inner.code && !reason.includes(inner.code) ? `${inner.code}: ` : "";
  return `${where}: ${code}${reason.split("\n")[0]}`;
}
