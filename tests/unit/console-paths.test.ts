/**
 * The console's function answers exactly the console's paths: netlify/functions/admin.ts lists them literally
 * (Netlify reads that object without running the module), src/server/console/paths.ts names them for the code. A
 * page added to one and not the other is a 404 on Netlify and under npm start.
 */
import { expect, it } from "vitest";
import { config } from "../../netlify/functions/admin";
import { CONSOLE_PATHS } from "../../src/server/console/paths";

it("lists every console path, and nothing else", () => {
  expect([...(config.path as string[])].sort()).toEqual([...new Set(Object.values(CONSOLE_PATHS))].sort());
});
