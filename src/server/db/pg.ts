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
 * Watches a pool from before its first connection and returns its closing: the pool ended, then each of its
 * connections seen to close (or `waitMs` passed). pg-pool's own `end()` resolves once it has asked its clients to
 * close, before their sockets have: a server still holding one then (a `DROP DATABASE … WITH (FORCE)`, a restart)
 * terminates it with 57P01, which reached the client as an error after its owner had moved on.
 */
export function poolCloser(pool: pg.Pool, waitMs: number): () => Promise<void> {
  const open = new Set<Promise<void>>();
  pool.on("connect", (client) => {
    const closed = new Promise<void>((resolve) => client.once("end", () => resolve()));
    open.add(closed);
    void closed.then(() => open.delete(closed));
  });
  return async () => {
    await pool.end();
    let timer: NodeJS.Timeout | undefined;
    // Bounded: a server that stopped answering must not hold a shutdown. The timer is not unref'd: a closing
    // socket keeps no process alive, so without it a CLI exited mid-wait (code 13, an unsettled top-level await).
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([Promise.all(open), waited]);
    clearTimeout(timer);
  };
}

/**
 * Any Postgres over its own protocol (TCP), pooled; closing the Db ends the pool and waits for its connections
 * to close. Creating it opens nothing; a URL loads the driver on first use.
 */
export function createPgDb(pool: string | pg.Pool, timeoutMs = 5000): Db {
  let ready: Promise<{ pool: pg.Pool; close: () => Promise<void> }> | undefined;
  const connect = () => {
    ready ??= (
      typeof pool === "string"
        ? import("pg").then(({ default: { Pool } }) => new Pool({ connectionString: pool, ...poolOptions(timeoutMs) }))
        : Promise.resolve(pool)
    ).then((p) => {
      // An idle connection that breaks (a restart, a failover, an administrator's terminate) must not crash the
      // process: pg-pool emits it on the pool, where an unheard 'error' throws. The next query opens a new one.
      p.on("error", (error) => log("warn", "db.idle_connection_error", { error: error.name }));
      return { pool: p, close: poolCloser(p, timeoutMs) };
    });
    return ready;
  };
  return {
    kind: "pg",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await (await connect()).pool.query<Row>(text, params)).rows;
    },
    async close() {
      if (ready) await (await ready).close();
    },
  };
}
