import type pg from "pg";
import { log } from "../log";
import type { Db } from "./types";

/**
 * Settings every node-postgres pool here gets: the same bound on database time as the HTTP driver. The
 * statement timeout travels in the connection's start-up message, so it costs no round trip.
 */
export function poolOptions(timeoutMs: number): pg.PoolConfig {
  return {
    max: 10,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
    allowExitOnIdle: true,
  };
}

/**
 * Any Postgres over its own protocol (TCP), pooled; closing the Db ends the pool. Creating it opens nothing;
 * a URL loads the driver on first use.
 */
export function createPgDb(pool: string | pg.Pool, timeoutMs = 5000): Db {
  let ready: Promise<pg.Pool> | undefined;
  const connect = () => {
    ready ??= (
      typeof pool === "string"
        ? import("pg").then(({ default: { Pool } }) => new Pool({ connectionString: pool, ...poolOptions(timeoutMs) }))
        : Promise.resolve(pool)
    ).then((p) => {
      // An idle connection that breaks must not crash the process; the next query opens a new one.
      p.on("error", (error) => log("warn", "db.idle_connection_error", { error: error.name }));
      return p;
    });
    return ready;
  };
  return {
    kind: "pg",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await (await connect()).query<Row>(text, params)).rows;
    },
    async close() {
      if (ready) await (await ready).end();
    },
  };
}
