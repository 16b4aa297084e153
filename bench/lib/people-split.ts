/**
 * `node --import ./tests/support/questions-hook.mjs --import tsx bench/lib/people-split.ts <path>…`, for
 * answer-filters.ts: each People page (its address) made by the console's own handler in this process, on the list
 * at DATABASE_URL, without HTTP: once unmeasured, then 5 times, the whole and its SQL (every statement as
 * node-postgres answers it) timed apart, so the rest is the page's own work (reading rows, rendering the HTML).
 * Then the slowest statement's EXPLAIN ANALYZE: where the database spends its time, and the indexes it reads.
 * Prints, as JSON, each path's PageSplit.
 */
import { createStore } from "../../src/server/app/store";
import { readConfig } from "../../src/server/config";
import { peopleGet } from "../../src/server/console/people/people";
import { createPgDb } from "../../src/server/db/pg";
import type { Db } from "../../src/server/db/types";
import { median } from "./console-session";

export interface PageSplit {
  /** The handler's whole time, ms, median of 5. */
  pageMs: number;
  /** The time its statements took, ms, median of 5 (each run's sum). */
  sqlMs: number;
  statements: number;
  slowest: {
    /** Its first words, to say which it is. */
    sql: string;
    ms: number;
    /** EXPLAIN ANALYZE's execution time, ms. */
    executionMs: number;
    /** The indexes its plan reads. */
    indexes: string[];
  };
}

interface Statement {
  sql: string;
  params: unknown[];
  ms: number;
}

/** `db`, each statement recorded with its time. */
function recorded(db: Db, log: Statement[]): Db {
  return {
    kind: db.kind,
    close: () => db.close(),
    async query(sql, params = []) {
      const started = performance.now();
      const rows = await db.query(sql, params);
      log.push({ sql, params, ms: performance.now() - started });
      return rows as never;
    },
  };
}

const indexesOf = (node: unknown): string[] => {
  if (!node || typeof node !== "object") return [];
  const own = (node as Record<string, unknown>)["Index Name"];
  return [
    ...(typeof own === "string" ? [own] : []),
    ...Object.values(node as Record<string, unknown>).flatMap((value) =>
      Array.isArray(value) ? value.flatMap(indexesOf) : typeof value === "object" ? indexesOf(value) : [],
    ),
  ];
};

async function split(db: Db, path: string): Promise<PageSplit> {
  const log: Statement[] = [];
  const store = createStore(recorded(db, log));
  const config = readConfig(process.env);
  const run = async () => {
    log.length = 0;
    const started = performance.now();
    const response = await peopleGet({ store, config, admin: "bench", url: new URL(path, "http://localhost") });
    await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return { ms: performance.now() - started, statements: [...log] };
  };
  await run();
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await run());
  const last = runs.at(-1)?.statements ?? [];
  const slowest = [...last].sort((a, b) => b.ms - a.ms)[0] ?? { sql: "", params: [], ms: 0 };
  const [plan] = await db.query<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${slowest.sql}`,
    slowest.params,
  );
  const explained = (plan?.["QUERY PLAN"] as Array<Record<string, unknown>> | undefined)?.[0] ?? {};
  return {
    pageMs: median(runs.map((r) => r.ms)),
    sqlMs: median(runs.map((r) => r.statements.reduce((sum, s) => sum + s.ms, 0))),
    statements: last.length,
    slowest: {
      sql: slowest.sql.replace(/\s+/g, " ").trim().slice(0, 60),
      ms: slowest.ms,
      executionMs: Number(explained["Execution Time"] ?? 0),
      indexes: [...new Set(indexesOf(explained["Plan"]))],
    },
  };
}

const db = createPgDb(process.env["DATABASE_URL"] ?? "", 60_000);
try {
  const result: Record<string, PageSplit> = {};
  for (const path of process.argv.slice(2)) result[path] = await split(db, path);
  process.stdout.write(JSON.stringify(result));
} finally {
  await db.close();
}
