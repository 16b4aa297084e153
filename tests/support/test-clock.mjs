/**
 * The browser suites' clock, for every process they start (the Playwright workers that seed databases, the servers
 * that render the console): `playwright.config.ts` sets TEST_CLOCK (the instant the run pretends to start at),
 * TEST_CLOCK_REAL_START (when it really started) and loads this file into each Node process through NODE_OPTIONS.
 * Each process then shifts `Date` by the same amount, so they all agree on one clock that moves at the real pace
 * from a fixed day: a chart, a date or a "3 days ago" reads the same whatever day the suite runs on. The embedded
 * database reads the time from `Date.now()` too, so its `now()` is shifted alike. A shift, not a frozen time:
 * leases, expiries and timeouts keep working.
 */
const start = Date.parse(process.env.TEST_CLOCK ?? "");
const realStart = Number(process.env.TEST_CLOCK_REAL_START);

if (Number.isFinite(start) && Number.isFinite(realStart) && !Date.isShifted) {
  const RealDate = Date;
  const offset = start - realStart;
  const now = () => RealDate.now() + offset;
  function ShiftedDate(...args) {
    // Called without `new`, Date gives the time as a string.
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = now;
  ShiftedDate.isShifted = true;
  globalThis.Date = ShiftedDate;
}
