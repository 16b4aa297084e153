/**
 * The webhook settings as config/index.ts reads them (WEBHOOK_URL, WEBHOOK_SECRET): where events go and what signs them,
 * or the one line that says what to fix. Beside config/index.ts, which it serves; src/server/webhooks/ sends with them.
 */

/** Where events go and the secret that signs them. */
export interface WebhookTarget {
  url: string;
  secret: string;
}

/** Both unset: off, no problem; one unusable: off, and the problem, which stops everything from starting. */
export interface WebhookSettings {
  webhook: WebhookTarget | null;
  webhookProblem: string | null;
}

/**
 * This machine: localhost, 127.0.0.0/8 and ::1. Not `*.localhost`: Node asks DNS for those, and plain http could
 * leave the machine.
 */
const isLoopback = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
/**
 * A URL as a log line or a page may show it: its scheme and host only. Its user, password, path and query may each
 * hold a secret (Zapier's, Slack's and Discord's webhook URLs carry theirs in the path). The refusal line and the
 * console's Webhooks page both show WEBHOOK_URL through this.
 */
const shown = (parsed: URL | null) => (parsed ? `${parsed.protocol}//${parsed.host}` : "a value that is not a URL");

/** WEBHOOK_URL as anyone may see it: `https://host:port`, nothing that may be a secret. */
export const shownWebhookUrl = (url: string) => shown(URL.canParse(url) ? new URL(url) : null);

/**
 * WEBHOOK_URL: https, or http on this machine only (development); WEBHOOK_SECRET: `whsec_` and the base64 of at least
 * 24 random bytes, as Standard Webhooks' libraries make and read it. Both unset: off. Anything else: one line
 * saying what to fix, and nothing starts.
 */
export function webhookConfig(env: Record<string, string | undefined>): WebhookSettings {
  const url = env["WEBHOOK_URL"]?.trim() || null;
  const secret = env["WEBHOOK_SECRET"]?.trim() || null;
  if (!url && !secret) return { webhook: null, webhookProblem: null };
  const off = (problem: string) => ({ webhook: null, webhookProblem: problem });
  if (!url) return off("WEBHOOK_SECRET is set but WEBHOOK_URL is not: set both, or neither (webhooks off).");
  if (!secret)
    return off("WEBHOOK_URL is set but WEBHOOK_SECRET is not: set it to whsec_ and 24+ random bytes in base64.");
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const local = parsed?.protocol === "http:" && isLoopback(parsed.hostname);
  if (!parsed || (parsed.protocol !== "https:" && !local)) {
    return off(`WEBHOOK_URL must be an https:// address (http:// only for localhost), not "${shown(parsed)}".`);
  }
  // Node's fetch refuses a URL with credentials in it ("Request cannot be constructed from a URL that includes
  // credentials"): every delivery would fail. A receiver's secret goes in its path or query, or it checks the signature.
  if (parsed.username || parsed.password) {
    return off(
      `WEBHOOK_URL must not hold a user or password ("${shown(parsed)}" with user:password@): no delivery could be made; the signature (WEBHOOK_SECRET) authenticates each event.`,
    );
  }
  const key = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : "";
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, "base64").length < 24) {
    return off(
      "WEBHOOK_SECRET must be whsec_ followed by at least 24 random bytes in base64: make one with `echo whsec_$(openssl rand -base64 32)`.",
    );
  }
  return { webhook: { url: parsed.href, secret }, webhookProblem: null };
}
