/**
 * Every locked package runs on the Node the project runs on: the `node` dev dependency's version, which `npm run`
 * puts first on PATH. `npm install` on an older system Node (20 here) warns EBADENGINE for the 35 packages that
 * need 22.12+, because npm checks engines against the Node it runs on itself; the README says so and this test is
 * why those lines may be passed over: an engine the project's own Node does not satisfy fails here instead.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// semver is npm's own range check (locked, beneath several dependencies); it ships no types, hence the cast.
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
};

interface Locked {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}
const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, Locked>;
};
const projectNode = lock.packages["node_modules/node"]?.version ?? "";

describe("the locked packages' engines", () => {
  it("name the Node the project runs on: the node dev dependency, a 24", () => {
    expect(projectNode).toMatch(/^24\.\d+\.\d+$/);
    // The tests themselves run on it (npx and npm run put node_modules/.bin first).
    expect(process.version).toBe(`v${projectNode}`);
  });

  it("are all satisfied by that Node, the project's own included", () => {
    const unmet = Object.entries(lock.packages).flatMap(([path, locked]) => {
      const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
      if (!range || locked.optional) return [];
      return semver.satisfies(projectNode, range, { includePrerelease: true }) ? [] : [`${path || "."}: ${range}`];
    });
    expect(unmet).toEqual([]);
  });

  it("hold the project's own to what Astro 7 asks, which Node 20 falls short of", () => {
    const own = lock.packages[""]?.engines;
    const range = Array.isArray(own) ? "" : (own?.node ?? "");
    expect(range).toBe(">=22.12");
    // Not vacuous: the same check refuses the system's Node 20, the one npm's warnings name.
    expect(semver.satisfies("20.20.2", range, { includePrerelease: true })).toBe(false);
  });
});
