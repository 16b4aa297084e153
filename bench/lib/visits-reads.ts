/**
 * The visits' reads the console makes, timed as SQL alone (one client, median of 5 after one unmeasured): what the
 * overview and the funnel cost the database at a size, apart from rendering and from a busy machine's HTTP. And the
 * beacon path's one write, the count statement, timed alone the same way.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { VISITOR_FIGURES_SQL } from "../../src/server/console/overview/visitors";
import { VISITS_SQL } from "../../src/server/visits/store";
import { median } from "./console-session";

const today = () => new Date().toISOString().slice(0, 10);

export const VISIT_READS: Array<[label: string, sql: string, params: () => unknown[]]> = [
  ["overview's visitor figures (today, 30 days)", VISITOR_FIGURES_SQL, () => [today()]],
  ["chart's visitors per day, 30 days", VISITS_SQL.perDay, () => [today(), 30]],
  ["funnel's visitors by source field, 30 days", VISITS_SQL.byField, () => [today(), 30]],
  ["funnel's visitors by source field, 90 days", VISITS_SQL.byField, () => [today(), 90]],
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

export interface CountTiming {
  /** One client, one arrival after another: median ms of the count statement. */
  median: number;
  /** `clients` clients at once for `seconds`: count statements a second (the hot rows' locks included). */
  rate: number;
}

/**
 * The beacon path's write alone: VISITS_SQL.count for arrivals (a page and '*': two rollups and the tally's rows), a
 * fresh mark each, sources as the beacons send them, on day `today()` of the database at `url`.
 */
export async function timeCountStatement(url: string, seconds: number, clients = 10): Promise<CountTiming> {
  const sources = ["hn", "newsletter", "twitter", null];
  let i = 0;
  const params = () => {
    const n = i++;
    const mark = () => randomBytes(16).toString("hex");
    return [today(), [mark(), mark()], ["/", "*"], sources[n % 4], "social", null, n % 3 ? null : "t.co", n % 9 === 0];
  };
  const connected = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  try {
    const [first] = connected;
    const times: number[] = [];
    for (let k = 0; k < 201; k++) {
      const started = performance.now();
      await first?.query(VISITS_SQL.count, params());
      if (k > 0) times.push(performance.now() - started);
    }
    let done = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      connected.map(async (client) => {
        while (performance.now() < until) {
          await client.query(VISITS_SQL.count, params());
          done++;
        }
      }),
    );
    return { median: median(times), rate: done / seconds };
  } finally {
    await Promise.all(connected.map((client) => client.end()));
  }
}
