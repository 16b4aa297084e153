import { readFileSync } from "node:fs";
import { parse } from "smol-toml";

/** The parts of netlify.toml the local server honours: header rules and redirects. */
export interface HeaderRule {
  for: string;
  values: Record<string, string>;
}
export interface RedirectRule {
  from: string;
  to: string;
  status: number;
  force: boolean;
}
export interface NetlifyRules {
  publish: string;
  headers: HeaderRule[];
  redirects: RedirectRule[];
}

export function loadNetlifyRules(path = "netlify.toml"): NetlifyRules {
  return parseNetlifyRules(readFileSync(path, "utf8"));
}

export function parseNetlifyRules(source: string): NetlifyRules {
  const toml = parse(source) as {
    build?: { publish?: string };
    headers?: Array<{ for: string; values: Record<string, string | number> }>;
    redirects?: Array<{ from: string; to: string; status?: number; force?: boolean }>;
  };
  return {
    publish: toml.build?.publish ?? "dist",
    headers: (toml.headers ?? []).map((rule) => ({
      for: rule.for,
      values: Object.fromEntries(Object.entries(rule.values).map(([k, v]) => [k, String(v)])),
    })),
    redirects: (toml.redirects ?? []).map((rule) => ({
      from: rule.from,
      to: rule.to,
      status: rule.status ?? 301,
      force: rule.force ?? false,
    })),
  };
}

/**
 * Matches a Netlify path pattern (`/*` splats, `:name` placeholders) against a path.
 * Returns the captured values, or null when it does not match.
 */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split(/(\*|:[A-Za-z_]\w*)/)
    .map((part) => {
      if (part === "*") {
        names.push("splat");
        return "(.*)";
      }
      if (part.startsWith(":")) {
        names.push(part.slice(1));
        return "([^/]+)";
      }
      return part.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  const match = new RegExp(`^${source}$`).exec(path);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? ""]));
}

/** All header values that apply to a path; later rules override earlier ones, as on Netlify. */
export function headersFor(rules: NetlifyRules, path: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const rule of rules.headers) {
    if (matchPattern(rule.for, path)) Object.assign(result, rule.values);
  }
  return result;
}

/** The first redirect whose `from` matches, with placeholders substituted into `to`. */
export function redirectFor(
  rules: NetlifyRules,
  path: string,
  exists: (path: string) => boolean,
): { to: string; status: number } | null {
  for (const rule of rules.redirects) {
    const params = matchPattern(rule.from, path);
    if (!params) continue;
    // Without force, an existing file shadows the rule (Netlify's default).
    if (!rule.force && exists(path)) return null;
    const to = rule.to.replace(/:splat|:([A-Za-z_]\w*)/g, (token, name?: string) =>
      token === ":splat" ? (params["splat"] ?? "") : (params[name ?? ""] ?? token),
    );
    return { to, status: rule.status };
  }
  return null;
}
