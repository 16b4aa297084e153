/**
 * `waitlist import FILE` (scripts/lib/import-command.ts) on the embedded Postgres and (when 127.0.0.1:5432 answers)
 * PostgreSQL: the refused rows go to FILE.refused.csv as they are met, on a dry run and an import alike, with the
 * line and reason of each; nothing half-written is left beside it, whether the file is read to its end or refused;
 * and a duplicate in a ZIP's second CSV names the line and file that first had the address.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, describe, expect, it, vi } from "vitest";
import { importCommand } from "../../../scripts/lib/import-command";
import { importFile } from "../../../src/server/import";
import { backends, useBackend } from "../../support/backends";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const LIST = [
  "email,name",
  "ada@example.com,Ada",
  "not-an-address,Broken",
  "ADA@example.com,Again",
  "grace@example.com,Grace",
  "",
].join("\n");
const REFUSED = [
  "file,line,reason,row as read",
  "list.csv,3,invalid address,not-an-address,Broken",
  "list.csv,4,the same address as line 2,ADA@example.com,Again",
  "",
].join("\r\n");

describe.each(backends("import_command").slice(0, 2))("waitlist import, on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const dir = mkdtempSync(join(tmpdir(), "import-command-"));
  dirs.push(dir);
  const command = (file: string, yes: boolean) =>
    importCommand({
      store: backend.store,
      source: "a test database",
      file,
      consent: "ask",
      rowSource: null,
      yes,
      fail: (message) => {
        throw new Error(message);
      },
    });
  const beside = () => readdirSync(dir).sort();

  it.runIf(available)("the refused rows are written as they come, whole once the file is read", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const file = join(dir, "list.csv");
    writeFileSync(file, LIST);
    expect(await command(file, false)).toBe(0);
    expect(readFileSync(`${file}.refused.csv`, "utf8")).toBe(REFUSED);
    expect(await command(file, true)).toBe(0);
    expect(readFileSync(`${file}.refused.csv`, "utf8")).toBe(REFUSED);
    expect(beside()).toEqual(["list.csv", "list.csv.refused.csv"]);
    // The same name, now without a refused row: the old refusals go.
    writeFileSync(file, "email\nlin@example.com\n");
    expect(await command(file, false)).toBe(0);
    expect(beside()).toEqual(["list.csv"]);
    // A file that cannot be read changes nothing, and leaves nothing half-written.
    writeFileSync(file, LIST);
    await command(file, false);
    writeFileSync(file, "name\nAda\n");
    await expect(command(file, true)).rejects.toThrow(/no address column/);
    expect(beside()).toEqual(["list.csv", "list.csv.refused.csv"]);
    expect(readFileSync(`${file}.refused.csv`, "utf8")).toBe(REFUSED);
    vi.restoreAllMocks();
  });

  it.runIf(available)("a duplicate in a ZIP's second CSV names the file that first had the address", async () => {
    const bytes = zipSync({
      "first.csv": strToU8("email\nlin@example.com\nada@example.com\n"),
      "second.csv": strToU8("email\nmae@example.com\nADA@example.com\n"),
    });
    const report = await importFile({
      store: backend.store,
      file: {
        name: "two.zip",
        open: async function* () {
          yield bytes;
        },
      },
      consent: "ask",
      source: null,
      apply: false,
      actor: "CLI",
    });
    expect(report.firstReasons).toEqual([
      { file: "second.csv", line: 3, reason: "the same address as line 3 of first.csv" },
    ]);
  });
});
