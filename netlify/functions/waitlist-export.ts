import type { Config } from "@netlify/functions";
import { bearerToken, sameSecret } from "../../src/server/bearer";
import { getConfig } from "../../src/server/config";
import { EXPORT_FORMATS, EXPORT_TYPES, type ExportFormat, openExport } from "../../src/server/export";
import { describeError, log } from "../../src/server/log";
import { attachment, json } from "../../src/server/responses";
import { getStore } from "../../src/server/store-instance";

/**
 * GET /api/waitlist/export: the waitlist as CSV (with each entry's status), streamed, for
 * `Authorization: Bearer <WAITLIST_ADMIN_TOKEN>`; `?confirmed-only` leaves out everyone not confirmed;
 * `?format=mail-csv` gives address and name exactly as stored, for a mailing tool; `?format=json` an array.
 * Without WAITLIST_ADMIN_TOKEN set, the endpoint does not exist (404); with a wrong token, 401. HEAD answers the
 * headers without reading the list.
 */
export default async (req: Request): Promise<Response> => {
  const config = getConfig();
  if (!config.adminToken) return json(404, { error: "Not found." });
  if (req.method !== "GET" && req.method !== "HEAD") {
    return json(405, { error: "Method not allowed. Use GET." }, { Allow: "GET, HEAD" });
  }
  if (!sameSecret(bearerToken(req), config.adminToken)) {
    log("warn", "waitlist.export_denied");
    return json(401, { error: "A valid bearer token is required." }, { "WWW-Authenticate": 'Bearer realm="waitlist"' });
  }
  const query = new URL(req.url).searchParams;
  const format = (query.get("format") ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    return json(400, { error: `format must be one of: ${EXPORT_FORMATS.join(", ")}.` });
  }
  const { type, extension } = EXPORT_TYPES[format];
  if (req.method === "HEAD") return attachment(null, type, "waitlist", extension);
  try {
    const store = await getStore();
    const options = { confirmedOnly: query.has("confirmed-only"), timeoutMs: config.dbTimeoutMs };
    const body = await openExport(store, format, options, ({ rows, error }) =>
      error
        ? log("error", "waitlist.export_failed", { rows, ...describeError(error) })
        : log("info", "waitlist.export", { rows, format }),
    );
    return attachment(body, type, "waitlist", extension);
  } catch (error) {
    log("error", "waitlist.export_failed", describeError(error));
    return json(503, { error: "The waitlist is unavailable right now. Please try again." });
  }
};

export const config: Config = { path: "/api/waitlist/export" };
