import { createHash } from "node:crypto";
import type { AstroIntegration } from "astro";
import { rewriteBuiltPages } from "./built-pages";

const CSP_META = /(<meta http-equiv="content-security-policy" content=")([^"]*)(")/;
const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/g;

/** The CSP source for an inline script's text. */
const scriptHash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/**
 * Keeps, in a page's CSP `script-src`, only the hashes of the inline scripts that page carries. Astro lists
 * every script it could emit on any page (each client directive, each component script); a page needs its own.
 * Narrower is safer (no other page's script can run here), and each hash left out is 45 bytes the first round
 * trip does not carry. Pages without a CSP are returned as they are.
 */
export function pruneScriptHashes(html: string): string {
  const meta = CSP_META.exec(html);
  if (!meta) return html;
  const present = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (!/\ssrc=/.test(attributes)) present.add(scriptHash(text));
  }
  const policy = (meta[2] ?? "")
    .split(";")
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name !== "script-src") return directive;
      const kept = sources.filter((source) => !source.startsWith("'sha256-") || present.has(source));
      return ` ${[name, ...kept].join(" ")}`;
    })
    .join(";");
  return html.replace(CSP_META, `$1${policy}$3`);
}

/** After the build, narrows every page's CSP to its own inline scripts (see `pruneScriptHashes`). */
export const cspPerPage = (): AstroIntegration => rewriteBuiltPages("csp-per-page", pruneScriptHashes);
