/**
 * What `npm start` says about the server's secret and the data at rest, and that it stops, saying why, with a
 * DATA_KEY that does not open the rows already sealed. The real server (scripts/serve.ts) in a child process.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server-process";
import { createStore } from "../../src/server/app/store";
import { parseDataKey } from "../../src/server/data-key";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../support/helpers";

const KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const OTHER = "QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8=";

/** Runs the server to its end (it exits by itself here), and resolves to its exit code and output. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("node_modules/.bin/node", ["--import", "tsx", "scripts/serve.ts"], {
      env: { ...process.env, PORT: "0", ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("npm start says", () => {
  it("where the secret comes from, and that sign-ups are plain text without DATA_KEY", async () => {
    const server = await startServer({ DATABASE_URL: "", DATA_KEY: "" }, migratedDataDir("start-plain-"));
    try {
      await expect.poll(() => server.output()).toContain("Data at rest:");
      expect(server.output()).toContain(
        "Server secret: the database (made once at random; set SERVER_SECRET to choose one: status pages offer invite codes only with it)",
      );
      expect(server.output()).toContain("Data at rest: plain text (DATA_KEY is not set)");
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("that rows are sealed with DATA_KEY, and which key", async () => {
    const server = await startServer({ DATABASE_URL: "", DATA_KEY: KEY }, migratedDataDir("start-sealed-"));
    try {
      await expect.poll(() => server.output()).toContain("Data at rest:");
      expect(server.output()).toContain(`Data at rest: sealed with DATA_KEY (key ${parseDataKey(KEY).id})`);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("why it stops, with a DATA_KEY that does not open the rows already sealed", async () => {
    const dataDir = migratedDataDir("start-wrong-");
    const store = createStore(await openPgliteDb(dataDir), { current: parseDataKey(KEY), previous: null });
    await store.add({ name: "Ada", email: "ada@example.com", message: null });
    await store.close();
    const { code, output } = await runToExit({ DATABASE_URL: "", DATA_DIR: dataDir, DATA_KEY: OTHER });
    expect(code).toBe(1);
    expect(output).toContain(
      `Data at rest: DATA_KEY does not open the 1 row sealed under key ${parseDataKey(KEY).id}: set the key they were sealed with (while rotating, the old one as DATA_KEY_PREVIOUS). Nothing was written.`,
    );
  }, 60_000);
});
