/**
 * Where signing in leads: the console page first asked for, so a deep link (a person, Webhooks, a job, a download)
 * survives the sign-in. The target travels in the sign-in form and in the e-mailed link, both of which anyone can
 * write, so it is checked wherever it is read: only a path of this console on this site is taken, rebuilt from its
 * parsed form; anything else (another site, `//host`, `/\host`, a path that climbs out of /admin, encoded tricks,
 * the sign-in's own pages) leads to the Overview. Tests: tests/unit/console-return-to.test.ts.
 */
import { CONSOLE_PATH, CONSOLE_PATHS } from "../paths";

/** The form field and the link's parameter that carry the target. */
export const RETURN_FIELD = "next";

/** Longer than any console address with its filters: refused rather than carried through an e-mail. */
const MAX_LENGTH = 1024;
/** Stands in for this site while parsing: a path that parses to another origin named a host of its own. */
const HERE = "https://console.invalid";
/** Pages that never make sense after signing in (they sign in or out themselves). */
const NOT_TARGETS: ReadonlySet<string> = new Set([CONSOLE_PATHS.signIn, CONSOLE_PATHS.confirm, CONSOLE_PATHS.signOut]);

/** `asked` as a console path and query to land on, or the Overview when it is not one. */
export function returnTarget(asked: string | null | undefined): string {
  if (!asked || asked.length > MAX_LENGTH) return CONSOLE_PATH;
  // A path of this site only: no scheme, no host (`//`), no backslash (browsers read `/\` as `//`), no control
  // or space characters (some parsers drop them, joining what they separate).
  if (!asked.startsWith("/") || asked.startsWith("//") || /[\\\s\p{Cc}]/u.test(asked)) return CONSOLE_PATH;
  let url: URL;
  try {
    url = new URL(asked, HERE);
  } catch {
    return CONSOLE_PATH;
  }
  const path = url.pathname.replace(/\/+$/, "") || "/";
  // Dot segments are resolved by the parse; an encoded slash or dot (%2F, %2E) stays encoded, so never climbs.
  const inConsole = path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
  if (url.origin !== HERE || !inConsole || NOT_TARGETS.has(path) || /%2f|%5c/i.test(path)) return CONSOLE_PATH;
  return `${path}${url.search}`;
}

/** Whether `target` is anything but the Overview (the default needs no carrying). */
export const isDeepTarget = (target: string): boolean => target !== CONSOLE_PATH;

/**
 * Where a form posted without a session came from, as a target: the page it was on (its Referer, when of this
 * site), so that signing in again returns there; the form's own POST cannot be replayed.
 */
export function refererTarget(req: Request, origin: string): string {
  const referer = req.headers.get("referer");
  if (!referer) return CONSOLE_PATH;
  try {
    const from = new URL(referer);
    return from.origin === origin ? returnTarget(`${from.pathname}${from.search}`) : CONSOLE_PATH;
  } catch {
    return CONSOLE_PATH;
  }
}
