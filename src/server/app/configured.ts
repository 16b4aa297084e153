/**
 * Every function's first step: a setting that cannot be used (the server's secret: too short, or set under both
 * names and different; a value that cannot be read, config/parse.ts) answers 500 and one log line naming the variable, before the handler runs, so no
 * function works on a setting the deployer must fix. The list of such problems is configProblems.
 */
import type { Context } from "@netlify/functions";
import { getConfig, type ServerConfig } from "../config";
import { log } from "../log";

type Handler = (req: Request, context: Context) => Promise<Response>;

/** The settings this configuration cannot run with, each one line naming its variable. */
export const configProblems = (config: ServerConfig): string[] =>
  [config.serverSecretProblem, ...config.unreadable].filter((problem) => problem !== null);

/** `handler`, answering 500 instead while a setting cannot be used (`config`: the process's, or a test's). */
export function configured<H extends Handler>(handler: H, config: () => ServerConfig = getConfig): H {
  return (async (req: Request, context: Context) => {
    const [problem] = configProblems(config());
    if (problem === undefined) return handler(req, context);
    log("error", "config.unusable", { problem });
    return new Response("This site is misconfigured: its operator has been told what to fix.\n", {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }) as H;
}
