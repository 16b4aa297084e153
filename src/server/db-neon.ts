import { neon } from "@neondatabase/serverless";
import type { Db } from "./db";

/**
 * Neon over HTTP: one stateless request per query, Neon's recommended mode for a serverless function.
 * Creating it opens nothing; the first query makes the first request.
 */
export function createNeonDb(connectionString: string): Db {
  const sql = neon(connectionString);
  return {
    kind: "neon",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await sql.query(text, params)) as Row[];
    },
    async close() {},
  };
}
