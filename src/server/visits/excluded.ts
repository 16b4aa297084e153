/**
 * Which requests are not views, decided here and only here: a HEAD, a known bot or crawler (isbot's maintained list;
 * no user agent at all is one too), a prefetch or prerender the visitor has not seen, a browser asking not to be
 * followed (Sec-GPC: 1, DNT: 1), and the team's own browsers (the console sets NOT_COUNTED_COOKIE at sign-in).
 */
import { isbot } from "isbot";
import { VISIT_PATH } from "../../lib/visits/pages";
import { readCookie } from "../http/cookies";

/**
 * Set beside the console's session cookie, scoped to the visit function's path alone, so the team's own views are
 * left out: the session cookie is scoped to /admin and never reaches this function. It says only "do not count me";
 * anyone may send it, which counts one visitor fewer.
 */
export const NOT_COUNTED_COOKIE = "noosphere_not_counted";

/** A year: a browser the team has signed in with stays out of the count after its session ends. */
const NOT_COUNTED_SECONDS = 365 * 24 * 3600;

/** The Set-Cookie of NOT_COUNTED_COOKIE, sent with a console sign-in's answer. */
export function notCountedCookie(origin: string): string {
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  return `${NOT_COUNTED_COOKIE}=1; Path=${VISIT_PATH}; HttpOnly; SameSite=Strict; Max-Age=${NOT_COUNTED_SECONDS}${secure}`;
}

export type Exclusion = "head" | "bot" | "prefetch" | "privacy" | "team";

const PREFETCH = /\b(prefetch|prerender)\b/i;

export function exclusionOf(req: Request): Exclusion | null {
  const header = (name: string) => req.headers.get(name) ?? "";
  if (req.method === "HEAD") return "head";
  const agent = header("user-agent");
  if (agent.trim() === "" || isbot(agent)) return "bot";
  if (PREFETCH.test(`${header("sec-purpose")} ${header("purpose")} ${header("x-purpose")} ${header("x-moz")}`)) {
    return "prefetch";
  }
  if (header("sec-gpc").trim() === "1" || header("dnt").trim() === "1") return "privacy";
  if (readCookie(req, NOT_COUNTED_COOKIE) !== undefined) return "team";
  return null;
}
