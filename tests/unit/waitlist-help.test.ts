/**
 * The CLI's help (scripts/lib/waitlist-help.ts) names every command scripts/waitlist.ts runs, with its webhooks
 * subcommands, and every option it reads; and the reminders, both kinds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, HELP, OPTIONS } from "../../scripts/lib/waitlist-help";

const lines = HELP.split("\n");

describe("npm run waitlist -- --help", () => {
  it("starts a line with every command the CLI runs, and no other", () => {
    const listed = lines.flatMap((line) => /^ {2}([a-z][a-z-]*)\b/.exec(line)?.[1] ?? []);
    expect([...new Set(listed)].sort()).toEqual([...COMMANDS, "help"].sort());
    expect(HELP).toContain("  webhooks deliver");
    expect(HELP).toContain("  webhooks off");
  });

  it("names every option the CLI reads, and its short form", () => {
    const missing = Object.entries(OPTIONS).filter(
      ([name, option]) => !HELP.includes(`--${name}`) || ("short" in option && !HELP.includes(`-${option.short}`)),
    );
    expect(missing).toEqual([]);
  });

  it("runs exactly those commands and options (the CLI takes both lists from the help's file)", () => {
    const cli = readFileSync(join(import.meta.dirname, "../../scripts/waitlist.ts"), "utf8");
    expect(cli).toContain("options: OPTIONS");
    expect(cli).toContain("(COMMANDS as readonly string[]).includes(command)");
  });

  it("says both reminders: to confirm and of an invitation", () => {
    expect(HELP).toContain("CONFIRM_REMINDER_HOURS (24)");
    expect(HELP).toContain("INVITE_REMINDER_DAYS (3)");
  });
});
