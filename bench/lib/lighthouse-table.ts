/** What `npm run bench -- lighthouse` reads from a Lighthouse report, and the medians' table it writes. */
import type lighthouse from "lighthouse";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/** The most a public page's first paint may take, as a multiple of the minimal page's (issue 54, point 13). */
export const FCP_LIMIT = 1.2;

export type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];
export type Metrics = Record<string, number>;
export interface Row {
  preset: string;
  site: string;
  page: string;
  metrics: Metrics;
}

export function metricsOf(lhr: Lhr): Metrics {
  const requests = (lhr.audits["network-requests"]?.details as { items?: Array<Record<string, unknown>> } | undefined)
    ?.items;
  const js = (requests ?? [])
    .filter((r) => r["resourceType"] === "Script")
    .reduce((sum, r) => sum + Number(r["transferSize"] ?? 0), 0);
  return {
    ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
    fcp: lhr.audits["first-contentful-paint"]?.numericValue ?? Number.NaN,
    lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
    tbt: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
    js,
  };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

/** Each metric's median over the runs. */
export const medianOf = (runs: Metrics[]): Metrics =>
  Object.fromEntries(Object.keys(runs[0] ?? {}).map((k) => [k, median(runs.map((r) => r[k] ?? Number.NaN))]));

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The table: one row a page, its first paint also as a multiple of the minimal page's in the same preset. */
export function table(rows: Row[], floor: (preset: string) => number, shown: (page: string) => string): string {
  const line = ({ preset, site, page, metrics: m }: Row) =>
    `| ${preset} | ${site} | ${shown(page)} | ${CATEGORIES.map((c) => m[c]).join(" / ")} | ${s(m["fcp"] ?? 0)} | ` +
    `×${((m["fcp"] ?? 0) / floor(preset)).toFixed(2)} | ${s(m["lcp"] ?? 0)} | ${Math.round(m["tbt"] ?? 0)} ms | ` +
    `${(m["cls"] ?? 0).toFixed(3)} | ${((m["js"] ?? 0) / 1000).toFixed(1)} KB |`;
  return (
    "| preset | site | page | perf / a11y / BP / SEO | FCP | FCP ÷ minimal | LCP | TBT | CLS | JS transferred |\n" +
    "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n" +
    rows.map(line).join("\n")
  );
}
