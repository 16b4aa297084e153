/**
 * `npm run waitlist -- update` as the team runs it, in child processes, against a real SMTP server on 127.0.0.1:
 * bad input, the dry run, a send SIGKILLed half-way (the process group, while the server holds its answer to a
 * message) and the same command run again: everyone exactly once, nobody skipped. Slow: each command is a process.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../../src/server/app/store";
import { createAuditLog } from "../../src/server/audit";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../support/helpers";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { failureOf, inputFiles, killWhileHeld, mailingEnv, runCli, UPDATE_TEXT } from "../support/waitlist-cli";

const file = inputFiles("update-cli-");
const BODY = file("body.txt", UPDATE_TEXT);

describe("npm run waitlist -- update on the embedded database", () => {
  const dataDir = migratedDataDir("update-cli-");
  let smtp: TestSmtp | undefined;
  afterAll(() => smtp?.close());
  const env = () => mailingEnv(dataDir, smtp);
  const cli = (...args: string[]) => runCli(env(), args);
  const failure = (...args: string[]) => failureOf(cli(...args));
  const PEOPLE = ["ada", "bob", "cat", "dee", "eve"].map((n) => `${n}@example.com`);
  /** The CLI's update entries in the audit log, oldest first: [actor, action, details]. */
  const auditLog = async () => {
    const store = createStore(await openPgliteDb(dataDir));
    try {
      const entries = await createAuditLog(store.db).page(50, null);
      return entries.reverse().map((e) => [e.actor, e.action, e.details] as const);
    } finally {
      await store.close();
    }
  };

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
    const send = ["update", "--subject", "March news", "--body-file", BODY, "--yes"];
    expect(await killWhileHeld(smtp, env(), send, ["data", "cat@example.com"])).toBe("SIGKILL");
    expect(smtp.messages.map((m) => m.to)).toEqual(["ada@example.com", "bob@example.com", "cat@example.com"]);
    // The killed run is in the audit log: its entry was written before its first e-mail.
    expect(await auditLog()).toEqual([["CLI", "update", { phase: "started", subject: "March news", again: false }]]);

    const again = await cli("update", "--subject", "March news", "--body-file", BODY, "--yes");
    expect(again.stdout).toBe(`Went on with the update in the embedded database in ${dataDir}/: 2 e-mails accepted.\n`);
    expect(smtp.messages.map((m) => m.to).sort()).toEqual(PEOPLE);
    const done = await failure("update", "--subject", "March news", "--body-file", BODY, "--yes");
    expect(done?.stderr).toMatch(
      /^waitlist: this update \("March news"\) was sent on \d{4}-\d{2}-\d{2} to 5 people; everyone who said yes to updates has received it: to send another, change its subject or text\. Nothing was sent\.\n$/,
    );
    expect(smtp.messages).toHaveLength(5);
    // The rerun's entries: its start, and its end with what it did.
    const [, start, end] = await auditLog();
    expect(start).toEqual(["CLI", "update", { phase: "started", subject: "March news", again: false }]);
    expect(end?.[2]).toMatchObject({ phase: "ended", sent: 2, failed: 0, remaining: 0, exit: 0 });

    // Someone says yes since: the same words again are an explicit choice, reaching only them.
    const later = createStore(await openPgliteDb(dataDir));
    await later.db.query(
      "INSERT INTO waitlist (email, status, updates_consent) VALUES ('fay@example.com', 'confirmed', true)",
    );
    await later.close();
    const offered = await failure("update", "--subject", "March news", "--body-file", BODY, "--yes");
    expect(offered?.stderr).toMatch(/--again sends it to the 1 person who has not received it/);
    const dryAgain = await cli("update", "--subject", "March news", "--body-file", BODY, "--again");
    expect(dryAgain.stdout).toBe(
      `Dry run: would send "March news" again to the 1 person who has not received it, in the embedded database in ${dataDir}/. Run again with --yes to send it.\n`,
    );
    const sentAgain = await cli("update", "--subject", "March news", "--body-file", BODY, "--again", "--yes");
    expect(sentAgain.stdout).toBe(
      `Sent again the update in the embedded database in ${dataDir}/: 1 e-mail accepted.\n`,
    );
    expect(smtp.messages.map((m) => m.to).sort()).toEqual([...PEOPLE, "fay@example.com"].sort());
    const nobody = await failure("update", "--subject", "March news", "--body-file", BODY, "--again", "--yes");
    expect(nobody?.stderr).toMatch(/everyone who said yes to updates has received it\. Nothing was sent\.\n$/);
    expect(smtp.messages).toHaveLength(6);
  }, 180_000);
});
