/**
 * The embedded database under the ways a machine can hurt it: many processes taking at once a lock a
 * crash left behind, its folder deleted or replaced under a running server, other local accounts, and a
 * SIGTERM with sign-ups in flight.
 * Longer than 150 lines: four harms to one database folder, each needing its own processes.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server-process";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir, tempDataDir } from "../support/helpers";

const signUp = (url: string, email: string) =>
  fetch(`${url}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, termsAccepted: true }),
  });

/** A pid no process has: the lock of a process that crashed. */
const DEAD_PID = 2 ** 22 + 12_345;

/**
 * A process that loads the lock code and says READY; then, for each line it is sent (a folder), tries to lock
 * that folder and reports OWNER or the error's name. All contenders are told the same folder at the same moment,
 * so each trial is a race between separate processes; started once, they serve every trial (a process start
 * costs more than the race it takes part in).
 */
function contender() {
  const script = `
    import { acquireDirLock } from "./src/server/db/lock.ts";
    import { createInterface } from "node:readline";
    console.log("READY");
    createInterface({ input: process.stdin }).on("line", (dir) => {
      try { acquireDirLock(dir); console.log("OWNER"); }
      catch (error) { console.log(error.name); }
    });
  `;
  const child = spawn("node_modules/.bin/node", ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise<string>((resolve) => lines.once("line", resolve));
  const ready = next();
  return {
    ready,
    race: (dir: string) => {
      const verdict = next();
      child.stdin.write(`${dir}\n`);
      return verdict;
    },
    stop: () => new Promise<void>((resolve) => child.once("exit", () => resolve()).stdin.end()),
  };
}

describe("the folder lock", () => {
  let contenders: Array<ReturnType<typeof contender>> = [];
  beforeAll(async () => {
    contenders = Array.from({ length: 6 }, () => contender());
    await Promise.all(contenders.map((c) => c.ready));
  }, 60_000);
  afterAll(() => Promise.all(contenders.map((c) => c.stop())));

  it.each(Array.from({ length: 20 }, (_, trial) => trial + 1))(
    "trial %i: six processes taking a crash's stale lock at once, exactly one owner",
    async () => {
      const dir = tempDataDir("lock-race-");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "owner.lock"), String(DEAD_PID));
      const verdicts = await Promise.all(contenders.map((c) => c.race(dir)));
      expect(verdicts.filter((v) => v === "OWNER")).toHaveLength(1);
      expect(verdicts.filter((v) => v === "DataDirLockedError")).toHaveLength(5);
    },
    60_000,
  );
});

describe("a running server's folder", () => {
  it.each([
    ["deleted", (folder: string) => rmSync(folder, { recursive: true, force: true })],
    [
      "replaced",
      (folder: string) => {
        renameSync(folder, `${folder}.moved`);
        mkdirSync(folder);
      },
    ],
  ])(
    "%s: sign-ups answer 503 and an error is logged, never a false 201",
    async (_how, harm) => {
      const server = await startServer({}, migratedDataDir("safety-"));
      try {
        expect((await signUp(server.url, "before@example.com")).status).toBe(201);
        harm(join(server.dataDir, "pg"));
        const res = await signUp(server.url, "after@example.com");
        expect(res.status).toBe(503);
        await expect
          .poll(() => server.output())
          .toMatch(/"level":"error","event":"waitlist.store_failed","error":"DataDirGoneError"/);
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});

describe("privacy on a shared machine", () => {
  it("the data folder is 0700 and nothing in it is readable by other accounts", async () => {
    const dir = tempDataDir("perm-");
    const db = await openPgliteDb(dir);
    await db.query("INSERT INTO waitlist (email) VALUES ('private@example.com')");
    await db.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const exposed = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .map((entry) => join(dir, entry))
      .filter((path) => (statSync(path).mode & 0o077) !== 0);
    expect(exposed).toEqual([]);
  }, 60_000);
});

describe("graceful shutdown", () => {
  it("SIGTERM finishes the sign-up in flight, refuses new connections, and the database stays closed", async () => {
    const server = await startServer({}, migratedDataDir("safety-"));
    const { port } = new URL(server.url);
    // A sign-up whose body is still arriving when the signal comes.
    const body = JSON.stringify({ email: "in.flight@example.com", termsAccepted: true });
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "localhost",
          port,
          path: "/api/waitlist",
          method: "POST",
          headers: { "Content-Type": "application/json", "Content-Length": body.length },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      // Once the server has the request, the signal; then the rest of the body.
      setTimeout(() => {
        process.kill(server.pid, "SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });
    expect(await answer).toBe(201);
    await expect(signUp(server.url, "too.late@example.com")).rejects.toThrow();
    await server.stop();
    expect(server.output()).toContain("SIGTERM: finishing 1 request(s) in flight");

    const db = await openPgliteDb(server.dataDir);
    const rows = await db.query<{ email: string }>("SELECT email FROM waitlist ORDER BY id");
    await db.close();
    expect(rows.map((row) => row.email)).toEqual(["in.flight@example.com"]);
  }, 120_000);
});
