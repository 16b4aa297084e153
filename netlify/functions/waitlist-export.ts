import type { Config } from "@netlify/functions";
import { bearerToken, sameSecret } from "../../src/server/bearer";
import { getConfig } from "../../src/server/config";
import { formatEntries } from "../../src/server/export";
import { attachment, json, withTimeout } from "../../src/server/http";
import { describeError, log } from "../../src/server/log";
import { getStore } from "../../src/server/store-instance";

/**
 * GET /api/waitlist/export: the waitlist as CSV (with each entry's status), for
 * `Authorization: Bearer <WAITLIST_ADMIN_TOKEN>`; `?confirmed-only` leaves out pending entries.
 * Without WAITLIST_ADMIN_TOKEN set, the endpoint does not exist (404); with a wrong token, 401.
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
  try {
    const entries = await withTimeout(
      getStore().then((store) =>
        store.list(undefined, { confirmedOnly: new URL(req.url).searchParams.has("confirmed-only") }),
      ),
      config.dbTimeoutMs * 4,
    );
    log("info", "waitlist.export", { rows: entries.length });
    return attachment(req.method === "HEAD" ? null : formatEntries(entries, "csv"), "text/csv", "waitlist", "csv");
  } catch (error) {
    log("error", "waitlist.export_failed", describeError(error));
    return json(503, { error: "The waitlist is unavailable right now. Please try again." });
  }
};

export const config: Config = { path: "/api/waitlist/export" };
