/**
 * /api/visit, read top to bottom: method → not counted? → content type → size → parse → key → salt → count →
 * answer. A page's script POSTs its view after load (sendBeacon: text/plain JSON); without JavaScript its
 * `<noscript>` pixel GETs it, and the page's own address (campaign, share link) comes as the pixel's Referer. Nothing
 * of the request is kept or logged but the rollup it counts in: no address, user agent, or referring page's path.
 * A view that is not counted (excluded.ts) gets the same answer as one that is.
 */
import type { Context } from "@netlify/functions";
import { VISIT_PAGE_PARAM } from "../../lib/visits/pages";
import { isDryRun } from "../db/connection";
import type { ServerDeps } from "../deps";
import { siteOrigin } from "../http/origin";
import { mediaType, readJson } from "../http/request-body";
import { json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { exclusionOf } from "./excluded";
import { markOf, newSalt } from "./marks";
import { visitKeyOf } from "./rules";
import { createVisitStore, SITE_PAGE } from "./store";

/** A beacon's JSON: the page's name, its query and the referring origin; a few hundred bytes, 4 KB at most. */
export const BEACON_LIMIT = 4 * 1024;
const BEACON_TYPES = new Set(["text/plain", "application/json"]);

/** The pixel a page without JavaScript shows: a transparent 1×1 GIF (42 bytes). */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const NOT_STORED = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

const answer = (req: Request) =>
  req.method === "GET"
    ? new Response(PIXEL, { headers: { "Content-Type": "image/gif", ...NOT_STORED } })
    : new Response(null, { status: 204, headers: NOT_STORED });

export interface VisitDeps extends ServerDeps {
  /** The clock (tests fix it): its UTC date is the day counted. */
  now?: () => Date;
}

/** The day's salt, read once a day per process and database. */
const salts = new WeakMap<object, { day: string; salt: string }>();

/** What the view says of itself: its page, query and referring origin, from the beacon's body or the pixel's request. */
async function viewOf(req: Request): Promise<{ page: unknown; query: string; referrer: string } | Response> {
  if (req.method === "GET") {
    const page = new URL(req.url).searchParams.get(VISIT_PAGE_PARAM);
    const referer = req.headers.get("referer") ?? "";
    return { page, query: URL.canParse(referer) ? new URL(referer).search : "", referrer: "" };
  }
  if (!BEACON_TYPES.has(mediaType(req) ?? "")) {
    return json(415, { error: "Content-Type must be text/plain or application/json." });
  }
  const read = await readJson(req, BEACON_LIMIT);
  if ("status" in read) return json(read.status, { error: read.message });
  const { body } = read;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return json(400, { error: "Request body must be a JSON object." });
  }
  const { page, query, referrer } = body as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, BEACON_LIMIT) : "");
  return { page, query: text(query), referrer: text(referrer) };
}

export function createVisitHandler(deps: VisitDeps) {
  const now = deps.now ?? (() => new Date());
  return async (req: Request, context: Context): Promise<Response> => {
    if (!["GET", "POST", "HEAD"].includes(req.method)) {
      return json(405, { error: "Method not allowed. Use POST." }, { Allow: "GET, HEAD, POST" });
    }
    if (exclusionOf(req)) return answer(req);
    const view = await viewOf(req);
    if (view instanceof Response) return view;
    const config = deps.config();
    if (isDryRun((context as Partial<Context>).deploy?.context, config)) return answer(req);

    const site = siteHost(deps, context, req);
    const { key, arrival } = visitKeyOf(view.page, view.query, view.referrer, site);
    const day = now().toISOString().slice(0, 10);
    try {
      const store = await deps.store();
      const visits = store.of(createVisitStore);
      const cached = salts.get(store.db);
      const salt =
        cached?.day === day ? cached.salt : await withTimeout(visits.salt(day, newSalt()), config.dbTimeoutMs);
      salts.set(store.db, { day, salt });
      const visitor = { agent: req.headers.get("user-agent") ?? "", ip: context.ip ?? "", site };
      const pages = arrival ? [key.page, SITE_PAGE] : [key.page];
      const marks = pages.map((page) => ({ page, mark: markOf(salt, visitor, page, key) }));
      await withTimeout(visits.count(day, marks, key), config.dbTimeoutMs);
    } catch (error) {
      // A view that could not be counted costs the visitor nothing: they get the same answer.
      log("error", "visits.count_failed", describeError(error));
    }
    return answer(req);
  };
}

/** The site's host name as configured, else the one the request came to. */
function siteHost(deps: VisitDeps, context: Context, req: Request): string {
  try {
    return new URL(siteOrigin(deps.config(), context, req)).hostname;
  } catch {
    return new URL(req.url).hostname;
  }
}
