/**
 * The site's own origin, decided from configuration only: links in e-mails point to it, and a browser's POST
 * must come from it. A request's Host header and path are written by whoever sends the request, so neither
 * ever decides where a link leads or which page may post.
 */
import type { Context } from "@netlify/functions";
import type { ServerConfig } from "../config";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * SITE_URL, else the platform's own address of the site (the context's `site.url`: on Netlify the site's main
 * URL, in our local servers the address they were started on). Netlify's emulator (`netlify dev`, offline and
 * unlinked) knows no site URL: there, and only for a loopback address, the address it was reached at; a request
 * naming any other host is refused, so a link can never be made to point anywhere but this machine.
 */
export function siteOrigin(config: ServerConfig, context: Context, req?: Request): string {
  if (config.siteUrl) return config.siteUrl;
  const site = (context as Partial<Context>).site?.url;
  if (site && URL.canParse(site)) return new URL(site).origin;
  const local = req ? new URL(req.url) : null;
  if (local && LOOPBACK.has(local.hostname)) return local.origin;
  throw new Error("The site's address is unknown: set SITE_URL.");
}

/**
 * Whether a browser's `Origin` is this site's: exactly the site's origin or, on a deploy preview or branch deploy,
 * one of this site's own Netlify addresses (`https://<deploy>--<site name>.netlify.app`, a name only this site's
 * deploys are served at). Compared whole, never by prefix: `https://noosphere.app.evil.example` is not ours.
 */
export function isOwnOrigin(origin: string, config: ServerConfig, context: Context, req?: Request): boolean {
  let own: string;
  try {
    own = siteOrigin(config, context, req);
  } catch {
    return false; // No address is known for this site: no origin can be its.
  }
  if (origin === own) return true;
  const deploy = (context as Partial<Context>).deploy?.context;
  const name = (context as Partial<Context>).site?.name;
  if (!deploy || deploy === "production" || deploy === "dev" || !name) return false;
  return /^https:\/\/[a-z0-9-]+--([a-z0-9-]+)\.netlify\.app$/.exec(origin)?.[1] === name;
}

/**
 * Who may POST, the one policy every POST goes through, in two strengths:
 * - `public` (a sign-up, the links' buttons): refused when the browser says the request is cross-site
 *   (`Sec-Fetch-Site: cross-site`) or its `Origin` is not this site's (a deploy preview's own address included).
 *   Clients that send neither (curl, scripts, old browsers) are let through: they carry no visitor's session.
 * - `console` (every console action, which a session cookie authorises): the `Origin` is required and must be
 *   the site's origin exactly; a browser always sends it with a form's POST, so only a forged request lacks it.
 */
export type PostPolicy = "public" | "console";

export function isCrossSite(req: Request, config: ServerConfig, context: Context, policy: PostPolicy = "public") {
  if (req.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = req.headers.get("origin");
  if (policy === "console") {
    try {
      return origin !== siteOrigin(config, context, req);
    } catch {
      return true; // No address is known for this site: no origin can be its.
    }
  }
  return origin !== null && !isOwnOrigin(origin, config, context, req);
}
