/**
 * Settings that cannot be read are errors, never defaults (issue 53, item 5): each variable with a form, read once in
 * config, a value it cannot read named in one line with the value's problem and what it accepts; unset or empty is the
 * default (a copied .env.example leaves many empty).
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/server/config";

describe("a value config cannot read", () => {
  it.each([
    [
      "RATE_LIMIT_MAX",
      "ten",
      'RATE_LIMIT_MAX is "ten", which cannot be read: it accepts a whole number from 1 up (unset: 10).',
    ],
    [
      "RATE_LIMIT_MAX",
      "0",
      'RATE_LIMIT_MAX is "0", which cannot be read: it accepts a whole number from 1 up (unset: 10).',
    ],
    [
      "DB_TIMEOUT_MS",
      "5s",
      'DB_TIMEOUT_MS is "5s", which cannot be read: it accepts a whole number from 1 up (unset: 5000).',
    ],
    [
      "REFERRAL_PLACES",
      "-1",
      'REFERRAL_PLACES is "-1", which cannot be read: it accepts a whole number from 0 up (unset: 0).',
    ],
    [
      "MAIL_RATE_PER_SECOND",
      "fast",
      'MAIL_RATE_PER_SECOND is "fast", which cannot be read: it accepts a whole number from 0 up (unset: 10).',
    ],
    [
      "PURGE_PENDING_AFTER_DAYS",
      "two weeks",
      'PURGE_PENDING_AFTER_DAYS is "two weeks", which cannot be read: it accepts a whole number from 1 up (unset: off).',
    ],
    [
      "PAUSE_BOUNCE_RATE",
      "101",
      'PAUSE_BOUNCE_RATE is "101", which cannot be read: it accepts a percentage from 0 to 100, such as 0.3 or 5 (unset: 5).',
    ],
    [
      "CONFIRM_REMINDER_HOURS",
      "1.5",
      'CONFIRM_REMINDER_HOURS is "1.5", which cannot be read: it accepts a whole number from 0 up (unset: 24).',
    ],
    ["SITE_URL", "noosphere.app", 'SITE_URL is "noosphere.app", which cannot be read: it accepts an https:// address.'],
    [
      "EARLY_ACCESS_URL",
      "app/signup",
      'EARLY_ACCESS_URL is "app/signup", which cannot be read: it accepts an https:// address.',
    ],
    ["ALLOW_PREVIEW_WRITES", "yes", 'ALLOW_PREVIEW_WRITES is "yes", which cannot be read: it accepts "1" or "0".'],
    ["DATABASE_DRIVER", "mysql", 'DATABASE_DRIVER is "mysql", which cannot be read: it accepts "neon-http" or "pg".'],
  ])("%s=%s is one line naming it, what is wrong and what it accepts", (name, value, line) => {
    expect(readConfig({ [name]: value }).unreadable).toEqual([line]);
  });

  it("reads what it can as before: defaults when unset or empty, 0 where 0 means off, unlimited", () => {
    const empty = readConfig({ RATE_LIMIT_MAX: "", SITE_URL: " ", PURGE_PENDING_AFTER_DAYS: "" });
    expect(empty.unreadable).toEqual([]);
    expect([empty.rateLimitMax, empty.siteUrl, empty.purgePendingAfterDays]).toEqual([10, null, null]);
    const given = readConfig({
      RATE_LIMIT_MAX: " 25 ",
      REFERRALS_PER_DAY: "0",
      MAIL_RATE_PER_SECOND: "unlimited",
      PAUSE_COMPLAINT_RATE: "0.1",
      PURGE_PENDING_AFTER_DAYS: "14",
      SITE_URL: "https://noosphere.app/ignored",
      ALLOW_PREVIEW_WRITES: "1",
    });
    expect(given.unreadable).toEqual([]);
    expect([
      given.rateLimitMax,
      given.referralsPerDay,
      given.mailRatePerSecond,
      given.reputation.pauseComplaintRate,
      given.purgePendingAfterDays,
      given.siteUrl,
      given.allowPreviewWrites,
    ]).toEqual([25, 0, 0, 0.1, 14, "https://noosphere.app", true]);
  });

  it("never replaces a value it cannot read by the default without saying so", () => {
    const config = readConfig({ RATE_LIMIT_MAX: "ten", PAUSE_COMPLAINT_RATE: "high" });
    expect(config.unreadable.map((line) => line.split(" ")[0])).toEqual(["RATE_LIMIT_MAX", "PAUSE_COMPLAINT_RATE"]);
  });
});
