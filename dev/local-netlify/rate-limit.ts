/**
 * A function's `config.rateLimit`, as Netlify's edge applies it before the function runs: at most `windowLimit`
 * requests per client in each window of `windowSize` seconds, the rest answered 429 without calling the function.
 * Counted per function and client address (`aggregateBy: ["ip", "domain"]`: one domain here). Netlify documents
 * the 429 and not its body; this one names the rule, with the log line every local limit leaves. The test servers
 * turn it off (NETLIFY_RATE_LIMIT=off), as they raise the site's own allowance: they are many visitors at once.
 */
import { log } from "../../src/server/log";

export interface RateLimitRule {
  windowLimit: number;
  windowSize: number;
}

/** Windows fixed on the clock, as Netlify counts them; `now` is injectable for the tests. */
export function createRateLimiter(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; end: number; count: number }>();
  return (name: string, rule: RateLimitRule, ip: string, path: string): Response | null => {
    const start = Math.floor(now() / (rule.windowSize * 1000)) * rule.windowSize * 1000;
    const key = `${name}\n${ip}`;
    const window = windows.get(key);
    if (!window || window.start !== start) {
      // A new window for this client: drop the windows that ended (each by its own rule's length), so the map
      // holds only current ones.
      for (const [other, w] of windows) if (w.end <= now()) windows.delete(other);
      windows.set(key, { start, end: start + rule.windowSize * 1000, count: 1 });
      return null;
    }
    if (++window.count <= rule.windowLimit) return null;
    log("error", "local_netlify.limit", { limit: "rateLimit", max: rule.windowLimit, seconds: rule.windowSize, path });
    const retry = Math.ceil((start + rule.windowSize * 1000 - now()) / 1000);
    return new Response(`Too many requests: at most ${rule.windowLimit} in ${rule.windowSize} s.\n`, {
      status: 429,
      headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(retry) },
    });
  };
}
