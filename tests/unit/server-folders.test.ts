/**
 * A room a reader can take in: no folder of src/server/ holds more than 20 files of its own (the console is a folder
 * per area, each with its handler, data and views). A feature that outgrows it splits by idea into subfolders.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const MOST = 20;

const folders = (dir: string): string[] => [
  dir,
  ...readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => folders(`${dir}/${entry.name}`)),
];
const filesIn = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).filter((entry) => entry.isFile()).length;

describe("src/server/'s folders", () => {
  it("each hold at most 20 files of their own", () => {
    const all = folders("src/server");
    expect(all).toContain("src/server/console/people");
    expect(all.filter((dir) => filesIn(dir) > MOST).map((dir) => `${dir}: ${filesIn(dir)} files`)).toEqual([]);
  });
});
