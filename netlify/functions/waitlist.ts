import type { Config, Context } from "@netlify/functions";
import { toEntry } from "../../src/lib/waitlist/entry";
import { validateSignup } from "../../src/lib/waitlist/schema";
import { BodyTooLargeError, json, readText } from "../../src/server/http";
import { describeError, log } from "../../src/server/log";
import { getStore } from "../../src/server/store";

/** 16 KiB: ten times the largest valid sign-up. */
const MAX_BODY = 16 * 1024;

/**
 * POST /api/waitlist: method → content type → size → parse → validate → store → respond.
 * A repeated address answers exactly like a new one, so the API never reveals who is on the list.
 */
export default async (req: Request, _context: Context): Promise<Response> => {
  if (req.method !== "POST") {
    return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
  }
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return json(415, { error: "Content-Type must be application/json." });
  }

  let text: string;
  try {
    text = await readText(req, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return json(413, { error: "Request body is too large." });
    return json(400, { error: "Request body is not valid UTF-8." });
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json(400, { error: "Request body is not valid JSON." });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return json(400, { error: "Request body must be a JSON object." });
  }

  const result = validateSignup(body as Record<string, unknown>);
  if (!result.ok) return json(400, { error: result.message });

  try {
    const store = await getStore();
    const added = await store.add(toEntry(result.value));
    log("info", "waitlist.signup", { added, db: store.db.kind });
  } catch (error) {
    log("error", "waitlist.store_failed", describeError(error));
    return json(503, { error: "The waitlist is unavailable right now. Please try again." });
  }
  return json(201, { ok: true });
};

export const config: Config = {
  path: "/api/waitlist",
};
