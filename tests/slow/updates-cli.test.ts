/**
 * `npm run waitlist -- update` as the team runs it, in child processes, against a real SMTP server on 127.0.0.1:
 * bad input, the dry run, a send SIGKILLed half-way (the process group, while the server holds its answer to a
 * message) and the same command run again: everyone exactly once, nobody skipped. Slow: each command is a process.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../../src/server/app/store";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../integration/helpers";
import { startSmtp, type TestSmtp } from "../integration/smtp";

const exec = promisify(execFile);
const NODE = "node_modules/.bin/node";
const files = mkdtempSync(join(tmpdir(), "update-cli-"));
const file = (name: string, text: string) => {
  writeFileSync(join(files, name), text);
  return join(files, name);
};
const BODY = file("body.txt", "Hello from the team.\n\nThe graph view is in.\n");

describe("npm run waitlist -- update on the embedded database", () => {
  const dataDir = migratedDataDir("update-cli-");
  let smtp: TestSmtp | undefined;
  afterAll(() => smtp?.close());
  const env = () => ({
    ...process.env,
    DATABASE_URL: "",
    NETLIFY_DB_URL: "",
    DATA_DIR: dataDir,
    SMTP_URL: smtp?.url ?? "",
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    SITE_URL: "https://noosphere.test",
    MAIL_RATE_PER_SECOND: "unlimited",
  });
  const cli = (...args: string[]) => exec(NODE, ["--import", "tsx", "scripts/waitlist.ts", ...args], { env: env() });
  const failure = (...args: string[]) =>
    cli(...args).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  const PEOPLE = ["ada", "bob", "cat", "dee", "eve"].map((n) => `${n}@example.com`);

  it("refuses bad input and nobody to reach with one line each, sending nothing", async () => {
    smtp = await startSmtp();
    const store = createStore(await openPgliteDb(dataDir));
    await store.db.query(
      "INSERT INTO waitlist (email, status, updates_consent) SELECT unnest($1::text[]), 'confirmed', false",
      [PEOPLE],
    );
    await store.close();
    const cases: Array<[string[], string]> = [
      [["--subject", "", "--body-file", BODY], "waitlist: Write a subject. Nothing was sent."],
      [
        ["--subject", "Two\nlines", "--body-file", BODY],
        "waitlist: The subject must be one line: remove the line break. Nothing was sent.",
      ],
      [
        ["--subject", "News", "--body-file", file("empty.txt", "\n\n")],
        "waitlist: Write the update's text. Nothing was sent.",
      ],
      [
        ["--subject", "News", "--body-file", file("big.txt", "x".repeat(102_401))],
        "waitlist: The text is 101 KB; an update may be at most 100 KB. Nothing was sent.",
      ],
      [["--subject", "News"], "waitlist: update needs --body-file with the path of the update's text"],
      [
        ["--subject", "News", "--body-file", BODY, "--yes"],
        "waitlist: Nobody would receive this update: no confirmed person on the list has said yes to updates yet. Nothing was sent.",
      ],
    ];
    for (const [args, line] of cases) {
      const refused = await failure("update", ...args);
      expect(refused?.code, line).toBe(2);
      expect(refused?.stderr.trim()).toBe(line);
    }
    expect(smtp.messages).toHaveLength(0);
  });

  it("a send SIGKILLed while the server holds its answer goes on with the same command: each person once", async () => {
    if (!smtp) throw new Error("no SMTP server");
    const store = createStore(await openPgliteDb(dataDir));
    await store.db.query("UPDATE waitlist SET updates_consent = true");
    await store.close();
    const dry = await cli("update", "--subject", "March news", "--body-file", BODY);
    expect(dry.stdout).toBe(
      `Dry run: would send "March news" to 5 people who said yes to updates, in the embedded database in ${dataDir}/. Run again with --yes to send it.\n`,
    );
    // The third message is whole on the server; its answer is held until the process group is gone.
    const held = smtp.hold("data", "cat@example.com");
    const child = spawn(
      NODE,
      ["--import", "tsx", "scripts/waitlist.ts", "update", "--subject", "March news", "--body-file", BODY, "--yes"],
      { env: env(), stdio: "ignore", detached: true },
    );
    const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    await held.reached;
    process.kill(-(child.pid ?? 0), "SIGKILL");
    expect(await exited).toBe("SIGKILL");
    held.release();
    expect(smtp.messages.map((m) => m.to)).toEqual(["ada@example.com", "bob@example.com", "cat@example.com"]);

    const again = await cli("update", "--subject", "March news", "--body-file", BODY, "--yes");
    expect(again.stdout).toBe(`Went on with the update in the embedded database in ${dataDir}/: 2 e-mails accepted.\n`);
    expect(smtp.messages.map((m) => m.to).sort()).toEqual(PEOPLE);
    const done = await failure("update", "--subject", "March news", "--body-file", BODY, "--yes");
    expect(done?.stderr).toMatch(
      /^waitlist: this update \("March news"\) was sent on \d{4}-\d{2}-\d{2} to 5 people; to send another, change its subject or text\. Nothing was sent\.\n$/,
    );
    expect(smtp.messages).toHaveLength(5);
  }, 60_000);
});
