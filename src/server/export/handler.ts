import type { Context } from "@netlify/functions";
import { ACTOR, audit } from "../audit";
import type { ServerDeps } from "../deps";
import { guardBearer, refusedToken } from "../http/bearer";
import { attachment, json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { download } from "./download";
import { cursorOf, exportCeiling, nextPart, type PartSize, parseCursor } from "./parts";
import { EXPORT_FORMATS, EXPORT_TYPES, type ExportFormat, openExport } from "./rows";
import { suppressedLeftOut } from "./store";

/** A mail-csv part's answer says how many suppressed people it left out (the file cannot). */
export const LEFT_OUT_HEADER = "Waitlist-Suppressed-Left-Out";

const UNAVAILABLE = "The waitlist is unavailable right now. Please try again.";

/**
 * GET /api/waitlist/export: the waitlist as CSV (with each entry's status), streamed, for
 * `Authorization: Bearer <WAITLIST_ADMIN_TOKEN>`; `?confirmed-only` leaves out everyone not confirmed;
 * `?format=mail-csv` gives address and name exactly as stored, for a mailing tool, leaving out everyone on the
 * suppression list (header Waitlist-Suppressed-Left-Out: how many, in this part); `?format=json` an array.
 * One part a response (src/server/export/parts.ts: at most 16 MB, gzip-compressed for a reader that accepts it),
 * each a whole file; while more follow, `Link: <…?after=<cursor>>; rel="next"` says where, keeping the request's
 * other parameters. The first request fixes the list's last id, and every cursor carries it, so sign-ups arriving
 * during the walk wait for the next export and no row is sent twice. The body stays a plain CSV or JSON array (no
 * `next` field), so a reader of one part reads it as before. A malformed cursor is a 400.
 * Without WAITLIST_ADMIN_TOKEN set, the endpoint does not exist (404); with one too short, 503; with a wrong token,
 * 401 (429 past the failed attempts src/server/http/bearer.ts allows). HEAD answers the headers without reading the list.
 */
export function createExportHandler(deps: ServerDeps & { partSize?: PartSize }) {
  return async (req: Request, context?: Context): Promise<Response> => {
    const config = deps.config();
    const refused = refusedToken(config.adminTokenProblem, "waitlist.export");
    if (refused) return refused;
    if (!config.adminToken) return json(404, { error: "Not found." });
    if (req.method !== "GET" && req.method !== "HEAD") {
      return json(405, { error: "Method not allowed. Use GET." }, { Allow: "GET, HEAD" });
    }
    const denied = await guardBearer(req, context, {
      token: config.adminToken,
      realm: "waitlist",
      event: "waitlist.export",
      unavailable: UNAVAILABLE,
      config,
      store: deps.store,
    });
    if (denied) return denied;
    const asked = askedOf(req);
    if (asked instanceof Response) return asked;
    const { type, extension } = EXPORT_TYPES[asked.format];
    if (req.method === "HEAD") return attachment(null, type, "waitlist", extension);
    try {
      return await answerPart(req, deps, asked, config.dbTimeoutMs);
    } catch (error) {
      log("error", "waitlist.export_failed", describeError(error));
      return json(503, { error: UNAVAILABLE });
    }
  };
}

/** What the request asks for: its parameters, the format, and where this part starts (null: the first). */
interface Asked {
  query: URLSearchParams;
  format: ExportFormat;
  cursor: { after: number; through: number } | null;
}

/** The format and the cursor read from the query, or the 400 that says which is wrong. */
function askedOf(req: Request): Asked | Response {
  const query = new URL(req.url).searchParams;
  const format = (query.get("format") ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    return json(400, { error: `format must be one of: ${EXPORT_FORMATS.join(", ")}.` });
  }
  const after = query.get("after");
  const cursor = after === null ? null : parseCursor(after);
  if (after !== null && !cursor) {
    return json(400, {
      error: "after must be a cursor from this export's Link header, as given (such as 1200-50000).",
    });
  }
  return { query, format, cursor };
}

/** The part asked for: its bounds fixed, audited, streamed, with the left-out count and the next part's link. */
async function answerPart(req: Request, deps: ServerDeps & { partSize?: PartSize }, asked: Asked, ms: number) {
  const { query, format, cursor } = asked;
  const store = await deps.store();
  const through = cursor?.through ?? (await exportCeiling(store, ms));
  const after = cursor?.after ?? 0;
  const part = await nextPart(store, format, after, through, ms, deps.partSize);
  // No part left (an empty list, or the rest removed meanwhile): the file's header alone, and no next.
  const options = { confirmedOnly: query.has("confirmed-only"), timeoutMs: ms, after, through: part?.to ?? after };
  // Audited before a byte goes, and awaited: after the stream closes the platform may freeze the function, and
  // a download cut off or failed was still the token's use. Its size is the part's rows (all of them: with
  // confirmed-only, those sent are among them), as the console's download records it.
  await audit(store.db, ACTOR.adminToken, "export", {
    via: "http",
    format,
    after,
    to: options.through,
    rows: part?.rows ?? 0,
    confirmedOnly: options.confirmedOnly,
  });
  const body = await openExport(store, format, options, ({ rows, error }) => {
    if (error) return log("error", "waitlist.export_failed", { rows, after, ...describeError(error) });
    log("info", "waitlist.export", { rows, format, after });
  });
  const headers: Record<string, string> = {};
  if (format === "mail-csv") {
    headers[LEFT_OUT_HEADER] = String(await withTimeout(suppressedLeftOut(store.db, options), ms));
  }
  if (part && part.to < through) {
    const next = new URLSearchParams(query);
    next.set("after", cursorOf(part.to, through));
    headers["Link"] = `<${new URL(req.url).pathname}?${next}>; rel="next"`;
  }
  return download(req, body, EXPORT_TYPES[format], headers);
}
