/**
 * The setup check (issue 53): every setting as a finding, and the live checks, for `npm run waitlist -- doctor` and
 * the console's Overview, in the same words. What other features may use.
 */
import type { ServerConfig } from "../config";
import { type Finding, setupHolds } from "./findings";
import { liveChecks, type OpenEmbedded } from "./live";
import { type SetupReport, setupReport } from "./report";
import { settingFindings } from "./settings";

export type { Check, Finding, Level } from "./findings";
export { DEPLOYING_DOCS, docsLink, setupHolds } from "./findings";
export { renderJson, renderText, type SetupReport } from "./report";
export { PLAIN_TEXT_AT_REST, settingFindings } from "./settings";

/** The settings and the live checks, as one report (`doctor`). */
export async function checkSetup(config: ServerConfig, openEmbedded: OpenEmbedded): Promise<SetupReport> {
  return setupReport(settingFindings(config), await liveChecks(config, openEmbedded));
}

/** What the console's Overview opens with until setup holds: the required settings not made, in doctor's words. */
export function missingRequired(config: ServerConfig): Finding[] {
  const findings = settingFindings(config);
  return setupHolds(findings) ? [] : findings.filter((f) => !f.ok && f.level === "required");
}
