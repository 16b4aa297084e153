import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RateLimitRule } from "./rate-limit";
import type { ScheduledFunction } from "./schedule";
import type { FetchHandler, FunctionRoute } from "./site-server";
import { refuseFunctionConfig } from "./unsupported";

interface FunctionModule {
  default: FetchHandler;
  config?: {
    path?: string | string[];
    method?: string | string[];
    schedule?: string;
    rateLimit?: RateLimitRule;
  } & Record<string, unknown>;
}

type Load = (file: string) => Promise<unknown>;
const importFile: Load = (file) => import(/* @vite-ignore */ pathToFileURL(file).href);

/**
 * Loads every Netlify Function in `dir` and routes it at its `config.path` (else /.netlify/functions/NAME),
 * for its `config.method`s only (others fall through to the files). A scheduled function has no URL on Netlify,
 * and none here. A config this host would route otherwise than Netlify is refused (./unsupported.ts).
 */
export async function loadFunctions(dir = "netlify/functions", load: Load = importFile): Promise<FunctionRoute[]> {
  return (await loadAllFunctions(dir, load)).routes;
}

/**
 * The routes, as loadFunctions gives them, and the scheduled functions beside them, for a server that runs those
 * on their schedules (./schedule.ts; `npm start`'s does, the test servers' need not).
 */
export async function loadAllFunctions(
  dir = "netlify/functions",
  load: Load = importFile,
): Promise<{ routes: FunctionRoute[]; scheduled: ScheduledFunction[] }> {
  const routes: FunctionRoute[] = [];
  const scheduled: ScheduledFunction[] = [];
  for (const file of readdirSync(dir).filter((name) => /\.(ts|mts|js|mjs)$/.test(name))) {
    const mod = (await load(resolve(join(dir, file)))) as FunctionModule;
    const name = file.replace(/\.\w+$/, "");
    refuseFunctionConfig(name, mod.config ?? {});
    if (mod.config?.schedule) {
      scheduled.push({ name, schedule: mod.config.schedule, handler: mod.default });
      continue;
    }
    const paths = mod.config?.path ?? `/.netlify/functions/${name}`;
    const method = mod.config?.method;
    const methods =
      method === undefined ? undefined : (Array.isArray(method) ? method : [method]).map((m) => m.toUpperCase());
    for (const path of Array.isArray(paths) ? paths : [paths]) {
      const { windowLimit, windowSize } = mod.config?.rateLimit ?? {};
      const rateLimit = windowLimit && windowSize ? { rateLimit: { windowLimit, windowSize } } : {};
      routes.push({ name, path, handler: mod.default, ...(methods ? { methods } : {}), ...rateLimit });
    }
  }
  return { routes, scheduled };
}
