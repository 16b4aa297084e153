/**
 * `npm run waitlist -- doctor [--json]`: the setup check (src/server/setup/). Runs before anything else the CLI does,
 * so a configuration the other commands refuse is listed here instead. Exit 0 when nothing required is missing or
 * failing, else 1; nothing is changed, and no secret's value is printed.
 */
import type { ServerConfig } from "../../src/server/config";
import { openPgliteDb } from "../../src/server/db/pglite";
import { checkSetup, renderJson, renderText } from "../../src/server/setup";

export async function doctor(config: ServerConfig, json: boolean): Promise<number> {
  const report = await checkSetup(config, openPgliteDb);
  process.stdout.write(json ? renderJson(report) : renderText(report));
  return report.ok ? 0 : 1;
}
