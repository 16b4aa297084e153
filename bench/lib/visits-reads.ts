/**
 * The visits' reads the console makes, timed as SQL alone (one client, median of 5 after one unmeasured): what the
 * overview and the funnel cost the database at a size, apart from rendering and from a busy machine's HTTP.
 */
import pg from "pg";
import { VISITOR_FIGURES_SQL } from "../../src/server/console/overview/visitors";
import { VISITS_SQL } from "../../src/server/visits/store";
import { median } from "./console-session";

const today = () => new Date().toISOString().slice(0, 10);

export const VISIT_READS: Array<[label: string, sql: string, params: () => unknown[]]> = [
  ["overview's visitor figures (today, 30 days)", VISITOR_FIGURES_SQL, () => [today()]],
  ["chart's visitors per day, 30 days", VISITS_SQL.perDay, () => [today(), 30]],
  ["funnel's visitors by source field, 30 days", VISITS_SQL.byField, () => [today(), 30]],
  ["funnel's visitors by source field, all time", VISITS_SQL.byField, () => [today(), null]],
];

/** Each read's median ms on the database at `url`. */
export async function timeVisitReads(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result: Record<string, number> = {};
    for (const [label, sql, params] of VISIT_READS) {
      await client.query(sql, params());
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await client.query(sql, params());
        times.push(performance.now() - started);
      }
      result[label] = median(times);
    }
    return result;
  } finally {
    await client.end();
  }
}
