import { neon } from "@neondatabase/serverless";
import type { Db } from "./db";

/**
 * Neon over HTTP: one stateless request per query, Neon's recommended mode for a serverless function.
 * Creating it opens nothing; the first query makes the first request.
 */
export function createNeonDb(connectionString: string, timeoutMs = 5000): Db {
  const sql = neon(connectionString);
  return {
    kind: "neon",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      // Each request is aborted after timeoutMs: a hanging database never holds a function open.
      return (await sql.query(text, params, { fetchOptions: { signal: AbortSignal.timeout(timeoutMs) } })) as Row[];
    },
    async close() {},
  };
}
