/**
 * The setup check for people (a table: required, recommended, optional, then the live checks, then a verdict) and
 * for machines (`--json`). The words are the findings' own; nothing here adds a value.
 */
import { type Check, type Finding, type Level, setupHolds } from "./findings";

export interface SetupReport {
  ok: boolean;
  settings: Finding[];
  checks: Check[];
}

export const setupReport = (settings: Finding[], checks: Check[]): SetupReport => ({
  ok: setupHolds(settings, checks),
  settings,
  checks,
});

const NAME_WIDTH = 36;
const HEADINGS: Record<Level, string> = {
  required: "Required",
  recommended: "Recommended",
  optional: "Optional",
};
const mark = (ok: boolean | null) => (ok === null ? "–" : ok ? "✓" : "✗");

/** A row: the mark and the name, then what it does; under it, what it says (an arrow when something is to do). */
function row(ok: boolean | null, name: string, lines: string[]): string[] {
  const head = `  ${mark(ok)} ${name}`;
  const indent = " ".repeat(NAME_WIDTH + 4);
  const [first, ...rest] = lines;
  const joined =
    head.length < NAME_WIDTH + 4 ? [`${head.padEnd(NAME_WIDTH + 4)}${first}`] : [head, `${indent}${first}`];
  return [...joined, ...rest.map((line) => `${indent}${line}`)];
}

export function renderText(report: SetupReport): string {
  const out = ["Setup check: every setting, then what answers. No secret's value is shown.", ""];
  for (const level of ["required", "recommended", "optional"] as const) {
    out.push(HEADINGS[level]);
    for (const f of report.settings.filter((s) => s.level === level)) {
      const say = f.ok ? f.say : `→ ${f.say} (docs/deploying.md#${f.docs})`;
      out.push(...row(f.ok, f.name, [f.does, say]));
    }
    out.push("");
  }
  out.push("Live checks");
  for (const c of report.checks) out.push(...row(c.ok, c.name, [c.say]));
  out.push("", verdict(report));
  return `${out.join("\n")}\n`;
}

function verdict(report: SetupReport): string {
  const missing = report.settings.filter((f) => !f.ok && f.level === "required").length;
  const failing = report.checks.filter((c) => c.ok === false && c.blocking).length;
  if (report.ok) return "Ready: nothing required is missing or failing.";
  const parts = [
    missing ? `${missing} required setting${missing === 1 ? "" : "s"} to make` : "",
    failing ? `${failing} live check${failing === 1 ? "" : "s"} failing` : "",
  ].filter(Boolean);
  return `Not ready: ${parts.join(", ")}. Step by step: docs/deploying.md#the-first-deploy-step-by-step`;
}

export const renderJson = (report: SetupReport): string =>
  `${JSON.stringify(
    { ...report, settings: report.settings.map((f) => ({ ...f, docs: `docs/deploying.md#${f.docs}` })) },
    null,
    2,
  )}\n`;
