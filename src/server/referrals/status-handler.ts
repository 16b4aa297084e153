/**
 * A person's private status page, answered by a function because it is theirs alone:
 *   GET  /waitlist/status?token=…   their place in line, referrals, share link and how to leave
 *   POST /waitlist/status?token=…   (action=leave) deletes their entry, as a removal link does
 * The token (256 bits; only its SHA-256 is stored) is made when they confirm, and again when they ask for their
 * link by e-mail; an update carries another, derived from the person's id and never stored (updates/status-token.ts). The
 * page is the built src/pages/waitlist/status.astro with its body filled in here: it works without JavaScript (the
 * copy button is an enhancement), sets no cookie, is noindex and never stored by a cache.
 * Once invited, the page is theirs to get in by (status-in.ts): no place, no referrals.
 * A token that is wrong, unknown or gone gets the built page as it is, with a 404: the same answer for any token,
 * saying how to have the link e-mailed again (/waitlist/link). With `leave` in its address the page asks once
 * before the POST that deletes (status-page.ts). The header's "Join the Waitlist" becomes the person's standing:
 * they are on the list already.
 */
import { readFile } from "node:fs/promises";
import type { Context } from "@netlify/functions";
import { CONFIRMED_PARAM, LEAVE_PARAM, shareLink } from "../../lib/waitlist/referral";
import type { ServerConfig } from "../config";
import { accessCodeKey, updatesKey } from "../crypto/keys";
import type { RootKey } from "../crypto/secret";
import type { ServerDeps } from "../deps";
import { formErrorPage, SITE_HEADERS } from "../http/form-page";
import { isCrossSite, siteOrigin } from "../http/origin";
import { readFormFields } from "../http/request-body";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { accessCode, earlyAccessBase, inviteLink } from "../invitations";
import { describeError, log } from "../log";
import type { Place } from "../store/line";
import type { StatusView } from "../store/types";
import { statusLinkOf } from "../updates";
import { inBody, isIn } from "./status-in";
import { type AccessLink, leaveBody, ordinal, type StatusPageInput, statusBody } from "./status-page";
import { shareQr } from "./status-share";

/** The slot the built page keeps for the body (its content is what the file says to anyone who opens it bare). */
const SLOT = /(<section id="status-body"[^>]*>)[\s\S]*?(<\/section>)/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const LEFT_PAGE = "/waitlist/removed";
/** The site header's waitlist buttons (src/components/WaitlistButton.astro), as built. */
const JOIN_BUTTON = /<a href="\/join" data-waitlist-open( class="[^"]*")>[^<]*<\/a>/g;
/** The built page's title ("Your place on the waitlist · …"): someone let in has no place, so theirs says so. */
const TITLE = /<title>[^<·]*/;
const IN_TITLE = "<title>Your early access ";

/**
 * Where an invited person creates their account: early access's address with their code while their invitation
 * lasts (a code derived for this page: invitations/access-code.ts), but only on a page opened by their own stored
 * status link: an update's link (bulk e-mail, forwarded) opens the page without it ("in-email"), and so does a site
 * without SERVER_SECRET ("no-server-secret": the code would be the database's to make); none once it has ended; null
 * where EARLY_ACCESS_URL is unset or unusable (the page then has no button).
 */
function accessOf(
  value: string | null,
  key: RootKey | "in-email" | "no-server-secret",
  person: StatusView,
): AccessLink | null {
  let base: URL;
  try {
    base = earlyAccessBase(value);
  } catch {
    return null;
  }
  const expires = person.inviteExpiresAt ? new Date(person.inviteExpiresAt) : null;
  if (!expires || expires.getTime() <= Date.now()) return { href: base.href, code: "expired" };
  if (typeof key === "string") return { href: base.href, code: key };
  const href = inviteLink(base, accessCode(key, person.id, expires));
  return { href, code: "carried", expires: person.inviteExpiresAt ?? "" };
}

/** What the header says instead of "Join the Waitlist": where they stand. */
function headerWords(person: StatusView, place: Place | null): string {
  if (person.status === "joined") return "You have joined";
  if (person.status === "invited") return "You are invited";
  return place ? `${ordinal(place.place)} in line` : "Your place";
}

const PAGE_HEADERS = {
  ...SITE_HEADERS,
  "Content-Type": "text/html; charset=utf-8",
  // Made for one person: never kept by the CDN or the browser, never indexed, and its address (the token) never
  // sent to another site as a Referer.
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
  "Referrer-Policy": "no-referrer",
};

/** A built page, read once per instance (again after a failed read). */
function builtPage(file: URL, check: (text: string) => boolean) {
  let text: Promise<string> | undefined;
  return () => {
    text ??= readFile(file, "utf8").then((html) => {
      if (!check(html)) throw new Error(`${file.pathname} is not the page this function fills`);
      return html;
    });
    text.catch(() => (text = undefined));
    return text;
  };
}

export interface StatusPages {
  /** The built status page (dist/waitlist/status.html): filled for a person, as it is for a wrong link. */
  status: URL;
}

/** The built page for this handler: read once, and a wrong link's answer (404, the page as it is). */
interface Built {
  statusPage: () => Promise<string>;
  notFound: (head?: boolean) => Promise<Response>;
}

/** One request as the steps read it. */
interface Asked {
  req: Request;
  context: Context;
  url: URL;
  token: string;
  head: boolean;
  config: ServerConfig;
}

export function createStatusHandler(deps: ServerDeps, pages: StatusPages) {
  const statusPage = builtPage(pages.status, (html) => SLOT.test(html));
  const notFound = async (head = false) =>
    new Response(head ? null : await statusPage(), { status: 404, headers: PAGE_HEADERS });
  const built: Built = { statusPage, notFound };

  return async (req: Request, context: Context): Promise<Response> => {
    if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST") {
      return new Response("Method not allowed.\n", {
        status: 405,
        headers: { ...SITE_HEADERS, Allow: "GET, HEAD, POST", "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    const config = deps.config();
    const url = new URL(req.url);
    const token = url.searchParams.get("token") ?? "";
    const asked: Asked = { req, context, url, token, head: req.method === "HEAD", config };
    try {
      if (req.method === "POST") return await leave(deps, asked, built);
      return await statusGet(deps, asked, built);
    } catch (error) {
      log("error", "waitlist.status_failed", describeError(error));
      return formErrorPage(503, "Please try again", "The waitlist is unavailable right now. Please try again.", {
        back: `${url.pathname}${url.search}`,
      });
    }
  };
}

/** POST (action=leave): deletes their entry, from this site only, as a removal link does. */
async function leave(deps: ServerDeps, { req, context, token, config }: Asked, built: Built) {
  if (isCrossSite(req, config, context)) {
    return formErrorPage(403, "Please use the page", "Requests are accepted from this site only.", { back: "/" });
  }
  const read = await readFormFields(req, 1024);
  if (!("fields" in read) || read.fields["action"] !== "leave" || !TOKEN.test(token)) return built.notFound();
  const store = await deps.store();
  const link = statusLinkOf(await withTimeout(updatesKey(store), config.dbTimeoutMs), token);
  const left = link !== null && (await withTimeout(store.referrals.leave(link), config.dbTimeoutMs));
  log("info", "waitlist.status_leave", { left });
  return left ? seeOther(LEFT_PAGE) : built.notFound();
}

/** GET or HEAD: the person's page, as they stand (waiting, invited or joined), or asking once before leaving. */
async function statusGet(deps: ServerDeps, asked: Asked, built: Built) {
  const { config, token, head, url } = asked;
  if (!TOKEN.test(token)) return built.notFound(head);
  const store = await deps.store();
  const link = statusLinkOf(await withTimeout(updatesKey(store), config.dbTimeoutMs), token);
  const person = link && (await withTimeout(store.referrals.status(link), config.dbTimeoutMs));
  if (!link || !person) return built.notFound(head);
  const place =
    person.status === "confirmed"
      ? await withTimeout(store.line(config.referralPlaces).placeOf(person.id), config.dbTimeoutMs)
      : null;
  const input = await pageInput(asked, person, place, "hash" in link);
  const body = url.searchParams.has(LEAVE_PARAM) ? leaveBody(input) : isIn(person) ? inBody(input) : statusBody(input);
  const header = `<a href="#main"$1>${headerWords(person, place)}</a>`;
  const filled = (await built.statusPage())
    .replace(SLOT, (_, open: string, close: string) => `${open}${body}${close}`)
    .replace(JOIN_BUTTON, header);
  const html = isIn(person) ? filled.replace(TITLE, IN_TITLE) : filled;
  return new Response(head ? null : html, { headers: PAGE_HEADERS });
}

/** What the page is made from; `stored`: opened by the person's own stored link, not an update's derived one. */
async function pageInput(
  { req, context, url, token, config }: Asked,
  person: StatusView,
  place: Place | null,
  stored: boolean,
): Promise<StatusPageInput> {
  const site = siteOrigin(config, context, req);
  return {
    person,
    place,
    places: config.referralPlaces,
    site,
    self: `${url.pathname}?token=${token}`,
    token,
    confirmedNow: url.searchParams.has(CONFIRMED_PARAM),
    qr: await shareQr(shareLink(site, person.code)),
    access:
      person.status === "invited"
        ? accessOf(
            config.earlyAccessUrl,
            // The code only for the person's own stored link (not an update's derived one, updates/status-token.ts),
            // and only under SERVER_SECRET.
            stored ? (accessCodeKey(config) ?? "no-server-secret") : "in-email",
            person,
          )
        : null,
  };
}
