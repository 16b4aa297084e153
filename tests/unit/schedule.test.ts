/**
 * `npm start`'s scheduler (dev/local-netlify/schedule.ts): when a schedule is next due, in UTC as Netlify runs it,
 * equal to what Netlify's own tools compute; what it refuses; and the timers, on vitest's fake clock (no real
 * waits): a run at each due time, a tick skipped while the previous run goes on, nothing after stop().
 */
import { CronExpressionParser } from "cron-parser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { limitsWith } from "../../dev/local-netlify/limits";
import { nextDue, parseSchedule, type ScheduledFunction, startSchedules } from "../../dev/local-netlify/schedule";

const at = (iso: string) => new Date(iso);

describe("nextDue", () => {
  // 2026-11-26 is a Thursday; 2026-11-30 the Monday after.
  it.each([
    ["* * * * *", "2026-11-26T12:00:30Z", "2026-11-26T12:01:00.000Z"],
    ["* * * * *", "2026-11-26T12:01:00Z", "2026-11-26T12:02:00.000Z"],
    ["@daily", "2026-11-26T16:00:00Z", "2026-11-27T00:00:00.000Z"],
    ["@midnight", "2026-11-26T16:00:00Z", "2026-11-27T00:00:00.000Z"],
    ["@hourly", "2026-11-26T16:00:00Z", "2026-11-26T17:00:00.000Z"],
    ["@hourly", "2026-11-26T16:59:59Z", "2026-11-26T17:00:00.000Z"],
    ["@weekly", "2026-11-26T16:00:00Z", "2026-11-29T00:00:00.000Z"],
    ["@monthly", "2026-11-26T16:00:00Z", "2026-12-01T00:00:00.000Z"],
    ["@yearly", "2026-11-26T16:00:00Z", "2027-01-01T00:00:00.000Z"],
    ["*/15 * * * *", "2026-11-26T12:07:00Z", "2026-11-26T12:15:00.000Z"],
    ["*/15 * * * *", "2026-11-26T12:45:00Z", "2026-11-26T13:00:00.000Z"],
    ["0 9 * * 1", "2026-11-26T16:00:00Z", "2026-11-30T09:00:00.000Z"],
    ["0 9 * * mon", "2026-11-30T08:59:00Z", "2026-11-30T09:00:00.000Z"],
    ["5,35 8-10 * * *", "2026-11-26T10:35:00Z", "2026-11-27T08:05:00.000Z"],
    ["0 0 29 2 *", "2026-11-26T16:00:00Z", "2028-02-29T00:00:00.000Z"],
  ])("%s after %s is %s", (schedule, after, due) => {
    expect(nextDue(schedule, at(after)).toISOString()).toBe(due);
  });

  // @netlify/dev (functions-dev's getNextRun) computes a function's next run with this call; ours must agree.
  it.each(["* * * * *", "@daily", "@hourly", "@weekly", "@monthly", "@yearly", "*/15 * * * *", "0 9 * * 1"])(
    "%s: the same as Netlify's own tools",
    (schedule) => {
      for (const after of ["2026-11-26T12:00:30Z", "2026-12-31T23:59:59Z", "2028-02-28T09:00:00Z"]) {
        const netlify = CronExpressionParser.parse(schedule, { tz: "Etc/UTC", currentDate: at(after) }).next();
        expect(nextDue(schedule, at(after))).toEqual(netlify.toDate());
      }
    },
  );
});

describe("parseSchedule refuses what Netlify does not run", () => {
  it.each([
    ["0 * * * * *", /5-field/],
    ["* * * *", /5-field/],
    ["L * * * *", /5-field/],
    ["0 0 ? * 1", /5-field/],
    ["0 0 * * 1#2", /5-field/],
    ["every minute", /5-field/],
    ["", /5-field/],
    ["@annually", /not a shorthand Netlify runs/],
    ["@reboot", /not a shorthand Netlify runs/],
    ["@weekdays", /not a shorthand Netlify runs/],
    ["61 * * * *", /not a valid cron expression/],
    ["0 0 31 2 *", /not a valid cron expression/],
  ])("%j", (schedule, why) => {
    expect(() => parseSchedule("tick", schedule)).toThrow(/^netlify\/functions\/tick: config\.schedule /);
    expect(() => parseSchedule("tick", schedule)).toThrow(why);
  });

  it("before any timer is set", () => {
    vi.useFakeTimers();
    try {
      const ok = { name: "ok", schedule: "* * * * *", handler: () => new Response(null) };
      const bad = { name: "bad", schedule: "@reboot", handler: () => new Response(null) };
      expect(() => startSchedules([ok, bad])).toThrow(/netlify\/functions\/bad/);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("startSchedules", () => {
  /** What the scheduler logged (console.log, warn and error alike), in order, without times. */
  let out: string[] = [];
  const lines = () =>
    out.map((line) => JSON.parse(line) as Record<string, unknown>).map(({ time: _, ms: __, ...rest }) => rest);
  /** A function whose every call waits until the test lets it end. */
  const held = () => {
    const ends: Array<() => void> = [];
    const calls: Request[] = [];
    const fn: ScheduledFunction = {
      name: "webhooks-deliver",
      schedule: "* * * * *",
      handler: (request) => {
        calls.push(request);
        return new Promise((resolve) => ends.push(() => resolve(new Response(null, { status: 204 }))));
      },
    };
    return { fn, calls, end: () => ends.shift()?.() };
  };

  beforeEach(() => {
    vi.useFakeTimers({ now: at("2026-11-26T12:00:30Z") });
    out = [];
    for (const level of ["log", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((line: unknown) => void out.push(String(line)));
    }
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("runs each function at its due times, as Netlify's scheduler calls it, one line a run", async () => {
    const calls: Request[] = [];
    const handler = (request: Request) => {
      calls.push(request);
      return new Response(null);
    };
    const fn = { name: "tick", schedule: "* * * * *", handler };
    const schedules = startSchedules([fn]);
    expect(schedules.registered).toEqual([{ name: "tick", schedule: "* * * * *", next: at("2026-11-26T12:01:00Z") }]);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.headers.get("x-nf-event")).toBe("schedule");
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(calls).toHaveLength(3);
    expect(lines()).toEqual(
      Array(3).fill({ level: "info", event: "local_netlify.scheduled", name: "tick", status: 200 }),
    );
    schedules.stop();
  });

  it("skips a tick while the previous run is still going, and says so", async () => {
    const { fn, calls, end } = held();
    // A limit longer than the minute between ticks: the first run is still inside it at the next tick.
    const schedules = startSchedules([fn], { limits: limitsWith({ scheduledMs: 90_000 }) });
    await vi.advanceTimersByTimeAsync(30_000 + 60_000); // 12:01 runs; 12:02 finds it going
    expect(calls).toHaveLength(1);
    expect(lines()).toEqual([
      {
        level: "warn",
        event: "local_netlify.schedule_skipped",
        name: "webhooks-deliver",
        due: "2026-11-26T12:02:00.000Z",
        reason: "its previous run is still going",
      },
    ]);
    end();
    await vi.advanceTimersByTimeAsync(60_000); // 12:03 runs again
    expect(calls).toHaveLength(2);
    expect(lines()[1]).toEqual({
      level: "info",
      event: "local_netlify.scheduled",
      name: "webhooks-deliver",
      status: 204,
    });
    schedules.stop();
  });

  it("skips a tick while a run past its 30 s limit still goes on (answered 502, never started beside itself)", async () => {
    const { fn, calls, end } = held();
    const schedules = startSchedules([fn]);
    await vi.advanceTimersByTimeAsync(30_000 + 30_000); // 12:01 runs; 12:01:30 cut at Netlify's limit
    expect(lines().map((line) => line["event"])).toEqual(["local_netlify.limit", "local_netlify.scheduled"]);
    expect(lines()[1]?.["status"]).toBe(502);
    await vi.advanceTimersByTimeAsync(30_000); // 12:02: the handler still goes on
    expect(calls).toHaveLength(1);
    expect(lines()[2]?.["event"]).toBe("local_netlify.schedule_skipped");
    end();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2);
    schedules.stop();
  });

  it("logs a run that throws, and runs at the next time all the same", async () => {
    let count = 0;
    const fn = {
      name: "flaky",
      schedule: "* * * * *",
      handler: () => {
        if (++count === 1) throw new TypeError("boom");
        return new Response(null, { status: 204 });
      },
    };
    const schedules = startSchedules([fn]);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(lines()).toEqual([
      { level: "error", event: "local_netlify.scheduled_failed", name: "flaky", error: "TypeError" },
      { level: "info", event: "local_netlify.scheduled", name: "flaky", status: 204 },
    ]);
    schedules.stop();
  });

  it("reaches a time further than setTimeout's 24.8 days (@yearly) without running early", async () => {
    const calls: string[] = [];
    const fn = {
      name: "yearly",
      schedule: "@yearly",
      handler: () => {
        calls.push(new Date().toISOString());
        return new Response(null);
      },
    };
    const schedules = startSchedules([fn]);
    await vi.advanceTimersByTimeAsync(at("2027-01-01T00:00:00Z").getTime() - Date.now() - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(["2027-01-01T00:00:00.000Z"]);
    schedules.stop();
  });

  it("stop() clears every timer: nothing runs after it, and settled() waits for the run going on", async () => {
    const { fn, calls, end } = held();
    const daily = { name: "purge-pending", schedule: "@daily", handler: () => new Response(null) };
    const schedules = startSchedules([fn, daily]);
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000); // 12:01: a run starts
    schedules.stop();
    let settled = false;
    void schedules.settled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(settled).toBe(false);
    end();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(calls).toHaveLength(1);
  });
});
