/**
 * Netlify's scheduler, for `npm start`: each scheduled function (`config.schedule`) is called at its times, in UTC,
 * as Netlify's scheduler calls it (runScheduled in ./run-function.ts, within the scheduled limit). The times come
 * from cron-parser, the parser Netlify's own tools use (@netlify/config validates a schedule with it, @netlify/dev
 * computes the next run with it in Etc/UTC). What Netlify's docs say it does not run is refused at start, as
 * ./unsupported.ts refuses the rest: it would run here and never deployed
 * (https://docs.netlify.com/build/functions/scheduled-functions/, "Cron expression format").
 */
import { CronExpressionParser } from "cron-parser";
import { describeError, log } from "../../src/server/log";
import { NETLIFY_LIMITS, type NetlifyLimits } from "./limits";
import { type FetchHandler, runScheduled } from "./run-function";

export interface ScheduledFunction {
  name: string;
  /** The function's `config.schedule`, as written. */
  schedule: string;
  handler: FetchHandler;
}

/**
 * crontab's shorthands Netlify runs: "the extensions in the RFC, except for the @reboot and @annually
 * specifications". Spelled out here because cron-parser knows no @midnight and does know @annually (and more of
 * its own: @weekdays, @minutely, @secondly…), which Netlify does not run.
 */
const SHORTHANDS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/**
 * One field of crontab's five: `*`, numbers (or jan…, mon… names), ranges, lists and `/n` steps. cron-parser reads
 * more (a seconds field, L, W, #, ?, H), which a crontab line, and so Netlify's format, does not have.
 */
const VALUE = "(?:\\d+|[a-z]{3})";
const ITEM = `(?:\\*|${VALUE}(?:-${VALUE})?)(?:/\\d+)?`;
const FIELD = new RegExp(`^${ITEM}(?:,${ITEM})*$`, "i");

/** A schedule as five crontab fields, or an Error naming the function and what is wrong with its schedule. */
export function parseSchedule(name: string, schedule: string): string {
  const refuse = (why: string) =>
    new Error(`netlify/functions/${name}: config.schedule ${JSON.stringify(schedule)} ${why}`);
  const trimmed = schedule.trim();
  const cron = trimmed.startsWith("@") ? SHORTHANDS[trimmed.toLowerCase()] : trimmed;
  if (cron === undefined) {
    throw refuse(`is not a shorthand Netlify runs (${Object.keys(SHORTHANDS).join(", ")})`);
  }
  const fields = cron.split(/\s+/);
  if (fields.length !== 5 || !fields.every((field) => FIELD.test(field))) {
    throw refuse("is not a 5-field cron expression (minute hour day-of-month month day-of-week: *, n, a-b, a,b, */n)");
  }
  try {
    // Out-of-range values, unknown names and dates that never come (31 February) are cron-parser's to find.
    CronExpressionParser.parse(cron, { tz: "Etc/UTC" });
  } catch (error) {
    throw refuse(`is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  return cron;
}

/** When a schedule is next due strictly after `after`, in UTC as Netlify runs it. */
export function nextDue(schedule: string, after: Date, name = "schedule"): Date {
  const cron = parseSchedule(name, schedule);
  return CronExpressionParser.parse(cron, { tz: "Etc/UTC", currentDate: after }).next().toDate();
}

export interface ScheduleOptions {
  /** Netlify's limits (./limits.ts): a run is cut at `scheduledMs`; tests shorten or lengthen it. */
  limits?: NetlifyLimits;
  /** The site's address for the functions' context (a function that calls the site, the background function, needs it). */
  siteUrl?: () => string | undefined;
}

export interface Schedules {
  /** The functions and when each is first due. */
  registered: ReadonlyArray<{ name: string; schedule: string; next: Date }>;
  /** Clears every timer: no run starts after it (one going on ends by itself; `settled` waits for it). */
  stop: () => void;
  /** Resolves once no run is going on, and their `context.waitUntil` work has settled. */
  settled: () => Promise<void>;
}

/** setTimeout's longest delay (2^31 - 1 ms, 24.8 days; a longer one fires at once): a later time is reached in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Calls each function at its schedule's times, one timer each (unref'd: the schedules never keep the process
 * alive). Every schedule is checked before the first timer is set, so one Netlify would not run stops the start.
 */
export function startSchedules(functions: readonly ScheduledFunction[], options: ScheduleOptions = {}): Schedules {
  const limits = options.limits ?? NETLIFY_LIMITS;
  const entries = functions.map((fn) => ({ fn, cron: parseSchedule(fn.name, fn.schedule) }));
  const timers = new Map<string, NodeJS.Timeout>();
  /** The run going on for each function: its answer, and the handler's own work after it. */
  const running = new Map<string, Promise<void>>();
  const pending = new Set<Promise<unknown>>();
  let stopped = false;

  const arm = (fn: ScheduledFunction, cron: string, due: number) => {
    if (stopped) return;
    const wait = Math.min(Math.max(due - Date.now(), 0), MAX_DELAY_MS);
    // Checked again when the timer fires: a step towards a far time, or a wall clock set back, is not yet due.
    const timer = setTimeout(() => (Date.now() < due ? arm(fn, cron, due) : fire(fn, cron, due)), wait);
    timer.unref();
    timers.set(fn.name, timer);
  };

  const fire = (fn: ScheduledFunction, cron: string, due: number) => {
    // The next time counts from this one (or from now, after a pause): missed times are not made up, as on Netlify.
    arm(fn, cron, nextDue(cron, new Date(Math.max(due, Date.now())), fn.name).getTime());
    if (running.has(fn.name)) {
      log("warn", "local_netlify.schedule_skipped", {
        name: fn.name,
        due: new Date(due).toISOString(),
        reason: "its previous run is still going",
      });
      return;
    }
    const started = Date.now();
    let work: Promise<unknown> = Promise.resolve();
    // The handler's own promise is waited for too: past the limit runScheduled answers 502, but the function goes
    // on here (Lambda would have stopped it), and a second run must not start beside it.
    const tracked: FetchHandler = (request, context) => {
      const result = Promise.resolve().then(() => fn.handler(request, context));
      work = result.catch(() => {});
      return result;
    };
    const run = (async () => {
      try {
        const response = await runScheduled(tracked, fn.name, limits, pending, options.siteUrl?.());
        await response.body?.cancel();
        log("info", "local_netlify.scheduled", { name: fn.name, status: response.status, ms: Date.now() - started });
      } catch (error) {
        log("error", "local_netlify.scheduled_failed", {
          name: fn.name,
          ms: Date.now() - started,
          ...describeError(error),
        });
      }
      await work;
    })().finally(() => running.delete(fn.name));
    running.set(fn.name, run);
  };

  const registered = entries.map(({ fn, cron }) => {
    const next = nextDue(cron, new Date(), fn.name);
    arm(fn, cron, next.getTime());
    return { name: fn.name, schedule: fn.schedule, next };
  });

  return {
    registered,
    stop: () => {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
    settled: async () => {
      while (running.size || pending.size) await Promise.all([...running.values(), ...pending]);
    },
  };
}
