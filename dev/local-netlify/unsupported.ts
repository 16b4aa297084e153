/**
 * What this host does not do as Netlify does, refused when the site is loaded rather than ignored: a function that
 * relies on one would work here and fail deployed (or the reverse). Each refusal names the feature and the file, so
 * the fix (support it here, with a parity test, or do without it) is a decision, never a surprise.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The keys of a v2 function's `config` this host routes by; Netlify knows more (preferStatic, excludedPath, …). */
const FUNCTION_CONFIG_KEYS = new Set(["path", "method", "schedule", "rateLimit"]);

/** netlify.toml's `[functions]` keys that shape only the bundle, which this host runs from source. */
const BUNDLE_KEYS = new Set(["node_bundler", "included_files", "external_node_modules", "ignored_node_modules"]);

/** Refuses a function's config this host would route differently from Netlify. */
export function refuseFunctionConfig(name: string, config: Record<string, unknown>): void {
  for (const key of Object.keys(config)) {
    if (!FUNCTION_CONFIG_KEYS.has(key)) {
      throw new Error(`netlify/functions/${name}: config.${key} is not supported by the local Netlify host`);
    }
  }
  const limit = config["rateLimit"] as Record<string, unknown> | undefined;
  if (limit !== undefined) {
    const by = limit["aggregateBy"];
    // Counted per client address (./rate-limit.ts); a rewrite instead of a 429, or counting by domain alone, is not.
    const supported =
      Number.isInteger(limit["windowLimit"]) &&
      Number.isInteger(limit["windowSize"]) &&
      (limit["action"] === undefined || limit["action"] === "rate_limit") &&
      Array.isArray(by) &&
      by.includes("ip") &&
      by.every((key) => key === "ip" || key === "domain") &&
      Object.keys(limit).every((key) => ["windowLimit", "windowSize", "aggregateBy", "action"].includes(key));
    if (!supported) {
      throw new Error(
        `netlify/functions/${name}: config.rateLimit ${JSON.stringify(limit)} is not supported by the local Netlify host (a 429 per ip only)`,
      );
    }
  }
  const paths = config["path"] === undefined ? [] : [config["path"]].flat();
  for (const path of paths) {
    // Netlify matches URLPattern paths (`/api/:id`, `/files/*`) and passes their params; here a path matches only
    // itself, so a pattern would answer 404 locally and run deployed.
    if (typeof path !== "string" || !path.startsWith("/") || /[:*{}()?+]/.test(path)) {
      throw new Error(
        `netlify/functions/${name}: config.path ${JSON.stringify(path)} is a pattern; the local Netlify host matches literal paths only`,
      );
    }
  }
}

/** The parts of the resolved netlify.toml (as @netlify/config returns it) the host checks. */
export interface SiteConfig {
  redirects?: unknown[];
  edge_functions?: unknown[];
  functions?: Record<string, Record<string, unknown>>;
}

/** Refuses a site whose netlify.toml or publish folder asks for what this host does not serve. */
export function refuseSiteConfig(config: SiteConfig, publish: string): void {
  if ((config.redirects ?? []).length > 0 || existsSync(join(publish, "_redirects"))) {
    throw new Error("netlify.toml or _redirects holds redirects: the local Netlify host does not apply them");
  }
  if ((config.edge_functions ?? []).length > 0) {
    throw new Error("netlify.toml declares edge functions: the local Netlify host does not run them");
  }
  for (const [pattern, settings] of Object.entries(config.functions ?? {})) {
    for (const key of Object.keys(settings)) {
      if (!BUNDLE_KEYS.has(key)) {
        throw new Error(
          `netlify.toml [functions${pattern === "*" ? "" : `."${pattern}"`}] ${key}: not supported by the local Netlify host`,
        );
      }
    }
  }
}
