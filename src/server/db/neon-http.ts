import type { NeonQueryFunction } from "@neondatabase/serverless";
import type { Db } from "./types";

export type NeonSql = NeonQueryFunction<false, false>;

/**
 * Neon over HTTP: one stateless request per query, Neon's recommended mode for a serverless function.
 * Creating it opens nothing; the first query makes the first request. A URL loads the driver on first use.
 */
export function createNeonHttpDb(client: string | NeonSql, timeoutMs = 5000): Db {
  let sql: Promise<NeonSql> | undefined;
  const connect = () => {
    sql ??=
      typeof client === "string"
        ? import("@neondatabase/serverless").then(({ neon }) => neon(client))
        : Promise.resolve(client);
    return sql;
  };
  return {
    kind: "neon-http",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      // Each request is aborted after timeoutMs: a hanging database never holds a function open.
      const signal = AbortSignal.timeout(timeoutMs);
      return (await (await connect()).query(text, params, { fetchOptions: { signal } })) as Row[];
    },
    async close() {},
  };
}
