/**
 * GET /join: the built page with the referring site in its form (src/server/signup/join-page.ts says why a function).
 * The page ships beside this module (netlify.toml's included_files for this function), at the same place relative
 * to it as in the repository, so one URL finds it under `npm start` and on Netlify.
 */
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { createJoinPageHandler } from "../../src/server/signup/join-page";

export default configured(createJoinPageHandler(new URL("../../dist/join.html", import.meta.url)));

export const config: Config = { path: "/join" };
