/**
 * What `npm run bench -- scale` (bench/scale.ts) measures with: the fill of a list of any size by one SQL statement,
 * the server's memory from /proc, timed requests over HTTP, and the two downloads walked to their end (the console's
 * page of parts; the HTTP export's `Link: rel="next"`), counting bytes as they cross the wire. Kept apart from
 * bench/scale.ts so that file reads as the run and its table.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { type IncomingHttpHeaders, request } from "node:http";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

const exec = promisify(execFile);

/** What a browser sends (Chrome 156): the server picks what it can make of it; the wire counts what it sent. */
export const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

/**
 * One person the fill makes at every size (10,000 and up), in place of sign-up `n` (so the list keeps its length),
 * with an address unlike the others (`person<n>@example<n % 100>.com`): the console's searches look for them by their whole address and by `part`, which no other address holds. A part
 * of the generated addresses ("son4242") matches 1 row at 10,000 and about 600 at 1,000,000 (person4242…,
 * person14242…, …), so its time grew with the rows it found, not with the list; this one finds the same row at both.
 */
export const KNOWN_PERSON = {
  n: 4242,
  name: "Ada Lovelace",
  email: "ada.lovelace@analytical-engine.example",
  part: "lovelace",
} as const;

/**
 * `rows` sign-ups in one statement, as a list that grew for 180 days looks: every status (half confirmed, as a list
 * between waves is), the dates that go with each, sources, media, campaigns and referring hosts in proportions that
 * repeat at different periods (so the breakdown has many combinations), the three answers and the combined message
 * as the form stores them (about 290 bytes of CSV a row, the size Netlify's limits were worked out from), and
 * names, and KNOWN_PERSON. Newest last: sign-up `rows` is the most recent, so page 1 of the console lists the
 * highest numbers. With `answers` (a schema with migration 0022), two choice questions answered as `choices` keeps
 * them (CHOICES_FILL: one common value, one rare).
 */
export function fillSql(rows: number, answers = true): string {
  return `INSERT INTO waitlist (name, email, created_at, status, confirmed_at, invited_at, joined_at, source, medium,
      campaign, referrer, page, organization, why, connect, message${answers ? ", choices" : ""})
    SELECT CASE WHEN g = ${KNOWN_PERSON.n} THEN '${KNOWN_PERSON.name}' ELSE p.name END,
      CASE WHEN g = ${KNOWN_PERSON.n} THEN '${KNOWN_PERSON.email}'
        ELSE 'person' || g || '@example' || (g % 100) || '.com' END,
      t.at, s.status,
      CASE WHEN s.status <> 'pending' THEN t.at + interval '7 minutes' END,
      CASE WHEN s.status IN ('invited', 'joined') THEN least(t.at + interval '3 days', now()) END,
      CASE WHEN s.status = 'joined' THEN least(t.at + interval '4 days', now()) END,
      (ARRAY['hn', 'newsletter', 'twitter', NULL, 'linkedin', 'producthunt', NULL])[1 + g % 7],
      (ARRAY['social', 'email', NULL])[1 + g % 3],
      (ARRAY['launch', 'spring', NULL, NULL, 'webinar'])[1 + g % 5],
      (ARRAY['news.ycombinator.com', NULL, 't.co', 'www.linkedin.com', NULL, 'duckduckgo.com'])[1 + g % 6],
      (ARRAY['/', '/product', '/join', '/'])[1 + g % 4],
      a.organization, a.why, a.connect,
      concat_ws(E'\\n\\n', 'Organization: ' || a.organization, 'Why: ' || a.why, 'Connect: ' || a.connect)
      ${answers ? `, ${CHOICES_FILL}` : ""}
    FROM generate_series(1, ${rows}) AS g
    CROSS JOIN LATERAL (SELECT now() - (${rows} - g) * (interval '180 days' / ${rows}) AS at) AS t
    CROSS JOIN LATERAL (SELECT (ARRAY['pending', 'confirmed', 'confirmed', 'confirmed', 'invited', 'joined'])[1 + g % 6]
      AS status) AS s
    CROSS JOIN LATERAL (SELECT
      (ARRAY['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia'])[1 + g % 9] || ' ' ||
      (ARRAY['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'])[1 + g / 9 % 8]
      AS name) AS p
    CROSS JOIN LATERAL (SELECT
      (ARRAY['Acme Research', NULL, 'University of Somewhere', 'Independent', NULL, 'Open Notes Collective'])[1 + g % 6]
        AS organization,
      (ARRAY['I read a lot of papers and lose track of what I learned from them.', NULL,
        'Our team needs one place for what we know.', 'Curious about the product.'])[1 + g % 4] AS why,
      (ARRAY[NULL, '@someone on the fediverse', NULL, 'A friend sent me the link.', NULL])[1 + g % 5] AS connect) AS a`;
}

/**
 * The answers to two choice questions, `team-size` (50+ is rare: 2% of the list) and `role` (a fifth each, by g / 7
 * so that every role meets every team size: by g / 3, 50+ never met Founder), as
 * src/server/answers.ts keeps choices: by question id, in clear, beside the row (migration 0022's `choices`).
 */
const CHOICES_FILL = `jsonb_build_object(
      'team-size', CASE WHEN g % 50 = 0 THEN '50+' WHEN g % 10 < 3 THEN '11–50' WHEN g % 10 < 7 THEN '2–10'
        ELSE 'Just me' END,
      'role', (ARRAY['Engineer', 'Researcher', 'Founder', 'Student', 'Other'])[1 + g / 7 % 5])`;

/**
 * Referrals and status links as a list that has had them for its 180 days holds them (migration 0011), for the
 * tree whose schema has them, run after fillSql. Statements in order:
 *
 * 1. Referrers: the confirmed rows with an id ending in 07 (about 1.3% of the confirmed, so about 0.7% of the list);
 *    each has 1–3 referrals, and one in 10,000 rows (id ending in 0007) is a top referrer with REFERRAL_TOP. The
 *    referred are the next rows after the referrer that are not pending (within 100 ids, so no row is referred
 *    twice), each a waitlist_referral row counted when they confirmed, with a mailbox key of its own on both rows.
 * 2. Each referrer's `referrals`, from its counted rows (as the confirming statement keeps it).
 * 3. A status link for every person who confirmed (made when they did): only its hash, of no raw token anyone
 *    knows, so the table is the size it would be; the bench adds the few it asks for (statusTokenSql).
 */
export const REFERRAL_TOP = 40;
export function referralFillSql(): string[] {
  return [
    `INSERT INTO waitlist_referral (referred_id, referrer_id, mailbox_key, outcome, created_at, counted_at)
      SELECT d.id, r.id, 'bench:' || d.id, 'counted', d.created_at, d.confirmed_at
      FROM waitlist r
      CROSS JOIN LATERAL (SELECT o.id, o.created_at, o.confirmed_at FROM waitlist o
        WHERE o.id > r.id AND o.id < r.id + 100 AND o.status <> 'pending'
        ORDER BY o.id LIMIT (CASE WHEN r.id % 10000 = 7 THEN ${REFERRAL_TOP} ELSE 1 + r.id / 100 % 3 END)) d
      WHERE r.status = 'confirmed' AND r.id % 100 = 7`,
    `UPDATE waitlist w SET mailbox_key = r.mailbox_key FROM waitlist_referral r WHERE w.id = r.referred_id`,
    `UPDATE waitlist w SET referrals = c.n
      FROM (SELECT referrer_id, count(*)::int AS n FROM waitlist_referral WHERE outcome = 'counted'
            GROUP BY referrer_id) c
      WHERE w.id = c.referrer_id`,
    `INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at, created_at)
      SELECT encode(sha256(convert_to('bench-status-' || id || '-' || random(), 'UTF8')), 'hex'), id, 'status',
        'infinity', confirmed_at
      FROM waitlist WHERE status <> 'pending'`,
  ];
}

/**
 * The people whose status pages the bench opens, picked by SQL from the list as filled ($1: its size): the first,
 * the one nearest the middle and the last in sign-up order among the waiting without referrals, and the top
 * referrer nearest the middle (moved forward when REFERRAL_PLACES > 0).
 */
export const STATUS_PEOPLE_SQL = `
  (SELECT 'first in line' AS who, id, referral_code, referrals FROM waitlist
    WHERE status = 'confirmed' AND referrals = 0 ORDER BY created_at, id LIMIT 1)
  UNION ALL
  (SELECT 'middle of the line', id, referral_code, referrals FROM waitlist
    WHERE status = 'confirmed' AND referrals = 0 ORDER BY abs(id - $1::bigint / 2), id LIMIT 1)
  UNION ALL
  (SELECT 'last in line', id, referral_code, referrals FROM waitlist
    WHERE status = 'confirmed' AND referrals = 0 ORDER BY created_at DESC, id DESC LIMIT 1)
  UNION ALL
  (SELECT 'top referrer nearest the middle', id, referral_code, referrals FROM waitlist
    WHERE status = 'confirmed' AND referrals > 0 ORDER BY referrals DESC, abs(id - $1::bigint / 2), id LIMIT 1)`;

/** A status link for person $2 whose raw token the bench holds ($1: its hash, by src/server/crypto/tokens.ts). */
export const STATUS_TOKEN_SQL = `INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
  VALUES ($1, $2, 'status', 'infinity')`;

/**
 * Where people $2 (ids) stand in line with REFERRAL_PLACES $1, worked out the slow and obvious way (the whole line
 * numbered by window functions), not by src/server/store/line.ts: what their status page must say. The rule is that
 * file's: line number b − places × referrals, a moved person first on a tie, then sign-up order.
 */
export const EXPECTED_PLACE_SQL = `
  WITH line AS (
    SELECT id, referrals, row_number() OVER (ORDER BY created_at, id) AS b FROM waitlist WHERE status = 'confirmed'
  ), ordered AS (
    SELECT id, row_number() OVER (
      ORDER BY b - $1::int * referrals, CASE WHEN $1::int > 0 AND referrals > 0 THEN 0 ELSE 1 END, b) AS place
    FROM line
  )
  SELECT id, place FROM ordered WHERE id = ANY($2::bigint[])`;

/** Resident memory (VmRSS) of `pid` and every process under it, in MB: the server as the machine sees it. */
export function treeRssMb(pid: number): number {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${pids[i]}/task`)) {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, "utf8").trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // A process that ended between two reads holds no memory any more.
    }
  }
  let kb = 0;
  for (const each of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${each}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // As above: gone.
    }
  }
  return kb / 1024;
}

/**
 * Samples the tree's memory every 50 ms from now; `stop` answers the peak above `idle` (by default what it held at
 * the start).
 */
export function sampleMemory(pid: number, idle = treeRssMb(pid)): { stop: () => number } {
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssMb(pid));
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, treeRssMb(pid)) - idle;
    },
  };
}

/** One response as it crossed the wire: body bytes as sent (compressed or not), time to its last byte. */
export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's bytes on the wire, before any decompression. */
  wireBytes: number;
  ms: number;
  /** Lines of the decoded body (CRLF ends a CSV row; a bare LF inside a cell does not). */
  lines: number;
  /** The body's bytes once decoded: what a reader that accepts no compression would receive. */
  decodedBytes: number;
  /** The decoded body, for an HTML page only (a file is counted, never kept). */
  text: string;
}

/**
 * A request by node:http, which (unlike fetch) leaves the body as the server sent it: its length is what counts
 * against Netlify's 20 MB. The body is decoded beside, by its Content-Encoding, to count rows.
 */
export function wireRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WireResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      let wireBytes = 0;
      let ms = 0;
      res.on("data", (chunk: Buffer) => (wireBytes += chunk.length));
      res.on("end", () => (ms = performance.now() - started));
      const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase();
      const decoded: Readable =
        encoding === "gzip"
          ? res.pipe(createGunzip())
          : encoding === "br"
            ? res.pipe(createBrotliDecompress())
            : encoding === "deflate"
              ? res.pipe(createInflate())
              : res;
      const html = String(res.headers["content-type"] ?? "").startsWith("text/html");
      let lines = 0;
      let decodedBytes = 0;
      let text = "";
      decoded.on("data", (chunk: Buffer) => {
        decodedBytes += chunk.length;
        if (html) text += chunk.toString("utf8");
        for (let at = chunk.indexOf(13); at !== -1; at = chunk.indexOf(13, at + 1)) lines++;
      });
      decoded.on("error", reject);
      decoded.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          wireBytes,
          ms: ms || performance.now() - started,
          lines,
          decodedBytes,
          text,
        }),
      );
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** What one download took: its responses, the largest and slowest of them, the whole, and the rows it carried. */
export interface DownloadReport {
  /** "parts": files named by the console's page or a `rel="next"` chain; "whole": one response (the old export). */
  kind: "parts" | "whole";
  responses: number;
  statuses: number[];
  largestBytes: number;
  /** The largest decoded: the same response for a reader without gzip (the margin under 20 MB either way). */
  largestDecodedBytes: number;
  slowestMs: number;
  totalMs: number;
  rows: number;
  /** The server's memory while it ran: its peak above the idle it was given (before the first download). */
  peakMb: number;
  /** The console's page of parts: its time (0 for the old export, which answered the file itself). */
  pageMs: number;
}

/** An attribute's text as the browser reads it (the console escapes what it writes into href). */
export const unescapeHtml = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** A CSV file's rows: its lines less the header. */
const rowsOf = (response: WireResponse) => Math.max(0, response.lines - 1);

function report(
  kind: DownloadReport["kind"],
  files: WireResponse[],
  started: number,
  peakMb: number,
  pageMs = 0,
): DownloadReport {
  return {
    kind,
    responses: files.length,
    statuses: files.map((file) => file.status),
    largestBytes: Math.max(0, ...files.map((file) => file.wireBytes)),
    largestDecodedBytes: Math.max(0, ...files.map((file) => file.decodedBytes)),
    slowestMs: Math.max(0, ...files.map((file) => file.ms)),
    totalMs: performance.now() - started,
    rows: files.reduce((sum, file) => sum + rowsOf(file), 0),
    peakMb,
    pageMs,
  };
}

/**
 * The console's "Download the list" (CSV), as a person does it: the form's POST, then every part its page links to,
 * one after another. Before the parts landed, the POST answered the whole list as one file: then that is the one
 * response (kind "whole").
 */
export async function consoleDownload(base: string, pid: number, idleMb: number, cookie: string) {
  const memory = sampleMemory(pid, idleMb);
  const started = performance.now();
  try {
    const headers = { Cookie: cookie, "Accept-Encoding": BROWSER_ENCODINGS };
    const answer = await wireRequest(`${base}/admin/export`, {
      method: "POST",
      headers: { ...headers, Origin: new URL(base).origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "format=csv",
    });
    if (!String(answer.headers["content-type"] ?? "").startsWith("text/html")) {
      return report("whole", [answer], started, memory.stop());
    }
    const links = [...answer.text.matchAll(/href="(\/admin\/export\/part\?[^"]+)"/g)].map((m) =>
      unescapeHtml(m[1] ?? ""),
    );
    if (answer.status !== 200 || links.length === 0) {
      throw new Error(`the console's export answered ${answer.status} with no part to download`);
    }
    const files: WireResponse[] = [];
    for (const link of links) files.push(await wireRequest(new URL(link, base).href, { headers }));
    return report("parts", files, started, memory.stop(), answer.ms);
  } finally {
    memory.stop();
  }
}

/** The `rel="next"` target of a Link header, if any. */
function nextLink(header: string | string[] | undefined): string | null {
  for (const value of [header ?? []].flat()) {
    for (const item of value.split(/,(?=\s*<)/)) {
      const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(item);
      if (match?.[1] && /\brel="?next"?/i.test(match[2] ?? "")) return match[1];
    }
  }
  return null;
}

/**
 * `GET /api/waitlist/export` (CSV) as a script fetches it: the first URL, then each `Link: rel="next"` until a
 * response has none. Before the cursor landed there was no Link: one response, the whole list (kind "whole").
 */
export async function httpDownload(base: string, pid: number, idleMb: number, token: string) {
  const memory = sampleMemory(pid, idleMb);
  const started = performance.now();
  try {
    const headers = { Authorization: `Bearer ${token}`, "Accept-Encoding": BROWSER_ENCODINGS };
    const files: WireResponse[] = [];
    let next: string | null = `${base}/api/waitlist/export`;
    while (next) {
      const file = await wireRequest(next, { headers });
      files.push(file);
      if (file.status !== 200) break;
      const link = nextLink(file.headers.link);
      next = link ? new URL(link, next).href : null;
      // A cursor that does not move would loop for ever: stop at an absurd count and let the rows check fail.
      if (files.length > 10_000) break;
    }
    const kind = files.length === 1 && !files[0]?.headers.link ? "whole" : "parts";
    return report(kind, files, started, memory.stop());
  } finally {
    memory.stop();
  }
}

/**
 * A command's wall time, run from `cwd` as a person types it, with its exit code and output: a command that fails
 * is still timed (and reported), so one broken step does not lose the rest of a run of minutes.
 */
export async function timeCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  try {
    const { stdout } = await exec(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return { ms: performance.now() - started, code: 0, stdout, stderr: "" };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    const code = typeof failed.code === "number" ? failed.code : 1;
    return { ms: performance.now() - started, code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
