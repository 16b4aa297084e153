/**
 * Beacons as pages send them (POST /api/visit, text/plain JSON, a browser's user agent), as fast as the machine
 * allows, two ways: from one client address (a flood: Netlify's edge limit of the function answers 429 past 600 a
 * minute, as deployed) with autocannon; and spread over many loopback addresses (127.0.0.2 and up, each its own
 * client to the limit), the way many visitors arrive, with a small generator of keep-alive connections.
 */
import { Agent, request } from "node:http";
import autocannon from "autocannon";
import { median } from "./console-session";

const SOURCES = ["hn", "newsletter", "twitter", "linkedin", "producthunt", "reddit", "mastodon", ""];
let n = 0;
/** The n-th beacon: its body (a page, a campaign's query, a referring origin) and a user agent of its own. */
function beacon(): { body: string; agent: string } {
  const i = n++;
  const source = SOURCES[i % SOURCES.length];
  return {
    body: JSON.stringify({
      page: ["/", "/product", "/join"][i % 3],
      query: source ? `?utm_source=${source}&utm_medium=social` : "",
      referrer: i % 4 === 0 ? "https://news.ycombinator.com" : "",
    }),
    agent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${i}.0 Safari/537.36`,
  };
}

export interface BeaconRun {
  /** Answers of any status, per second. */
  rate: number;
  p50: number;
  p99: number;
  /** 204s: views the function took (counted, or left out by its rules). */
  taken: number;
  /** 429s: refused at the edge. */
  refused: number;
  other: number;
}

/** autocannon from this one address at `connections` for `seconds`. */
export async function floodFromOneAddress(url: string, seconds: number, connections: number): Promise<BeaconRun> {
  const result = await autocannon({
    url: `${url}/api/visit`,
    method: "POST",
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          const { body, agent } = beacon();
          return { ...req, body, headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": agent } };
        },
      },
    ],
  });
  const codes = (result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats;
  const count = (code: string) => codes[code]?.count ?? 0;
  const all = Object.values(codes).reduce((sum, { count: c }) => sum + c, 0);
  return {
    rate: all / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    taken: count("204"),
    refused: count("429"),
    other: all - count("204") - count("429") + result.errors,
  };
}

/** `concurrency` loops for `seconds`, each beacon from the next of `addresses` loopback addresses. */
export async function beaconsFromManyAddresses(
  url: string,
  seconds: number,
  concurrency: number,
  addresses: number,
): Promise<BeaconRun> {
  const { hostname, port } = new URL(url);
  const agents = Array.from(
    { length: addresses },
    (_, i) =>
      new Agent({ keepAlive: true, maxSockets: 4, localAddress: `127.0.${1 + Math.floor(i / 250)}.${2 + (i % 250)}` }),
  );
  const statuses = new Map<number, number>();
  const times: number[] = [];
  let errors = 0;
  const post = (agent: Agent) =>
    new Promise<void>((resolve) => {
      const { body, agent: userAgent } = beacon();
      const started = performance.now();
      const req = request({ hostname, port, path: "/api/visit", method: "POST", agent }, (res) => {
        res.resume();
        res.on("end", () => {
          times.push(performance.now() - started);
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          resolve();
        });
      });
      req.setHeader("content-type", "text/plain;charset=UTF-8");
      req.setHeader("user-agent", userAgent);
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const until = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) await post(agents[next++ % addresses] as Agent);
    }),
  );
  for (const agent of agents) agent.destroy();
  const count = (code: number) => statuses.get(code) ?? 0;
  const sorted = [...times].sort((a, b) => a - b);
  return {
    rate: times.length / seconds,
    p50: median(times),
    p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    taken: count(204),
    refused: count(429),
    other: times.length - count(204) - count(429) + errors,
  };
}
