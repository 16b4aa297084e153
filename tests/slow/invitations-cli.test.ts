/**
 * `npm run waitlist -- invite` and `count` as the team runs them, in child processes, against a real SMTP server on
 * 127.0.0.1: the dry run, a missing EARLY_ACCESS_URL, a wave SIGKILLed (its process group) while the server holds
 * its answer to RCPT TO or to the final "." and run again,
 * the CSV with mail off, and (when 127.0.0.1:5432 answers) two waves started at the same moment on PostgreSQL.
 * Slow: every command is a process of its own.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../src/server/app/store";
import { createAuditLog } from "../../src/server/audit";
import { createPgDb } from "../../src/server/db/pg";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../support/helpers";
import { createMigratedDatabase, postgresReachable } from "../support/postgres";
import { type HeldStep, startSmtp, type TestSmtp } from "../support/smtp";
import { failureOf as failure, killWhileHeld, runCli } from "../support/waitlist-cli";

const ACCESS = "https://app.noosphere.test/signup";
const BASE_ENV = { DATABASE_URL: "", NETLIFY_DB_URL: "", SMTP_URL: "", MAIL_FROM: "", EARLY_ACCESS_URL: ACCESS };

type Env = Record<string, string>;
const cli = (env: Env, ...args: string[]) => runCli({ ...process.env, ...BASE_ENV, ...env }, args);

/** People with these statuses (and sources), one a day from 2026-01-01, in this order. */
async function seed(store: Store, people: Array<[string, string, string?]>) {
  for (const [index, [email, status, source]] of people.entries()) {
    await store.db.query(
      "INSERT INTO waitlist (name, email, status, source, created_at) VALUES ($1, $2, $3, $4, $5::timestamptz)",
      [
        email.startsWith("formula") ? "=HYPERLINK(1)" : email.split("@")[0],
        email,
        status,
        source ?? null,
        `2026-01-${String(index + 1).padStart(2, "0")}T09:00:00Z`,
      ],
    );
  }
}

/** Who has each status, in sign-up order: an @example.com address by its name alone. */
const statuses = async (store: Store) => {
  const rows = await store.db.query<{ email: string; status: string }>(
    "SELECT email, status FROM waitlist ORDER BY id",
  );
  const people: Record<string, string[]> = {};
  for (const { email, status } of rows)
    people[status] = [...(people[status] ?? []), email.replace(/@example\.com$/, "")];
  return people;
};

/** Runs `invite --next <next> --yes`, SIGKILLed while the SMTP server holds its reply at `step` for `to`. */
async function killInviteWhileHeld(smtp: TestSmtp, env: Env, step: HeldStep, to: string, next: number) {
  const invite = ["invite", "--next", String(next), "--yes"];
  expect(await killWhileHeld(smtp, { ...process.env, ...BASE_ENV, ...env }, invite, [step, to])).toBe("SIGKILL");
}

const mailOf = (env: Env, smtp: TestSmtp) => ({
  ...env,
  SMTP_URL: smtp.url,
  MAIL_FROM: "Noosphere <hello@noosphere.test>",
});

/**
 * Kills `invite --next 3 --yes` while the server holds its answer to ada's whole message, then runs it again: ada
 * is mailed a second time (no answer was heard, so nothing says she was invited), and all three are invited.
 * Resolves to what the second run printed.
 */
async function killAtFirstAnswerThenRerun(smtp: TestSmtp, env: Env): Promise<string> {
  await killInviteWhileHeld(smtp, mailOf(env, smtp), "data", "ada@example.com", 3);
  expect(smtp.messages.map((m) => m.to)).toEqual(["ada@example.com"]);
  const again = await cli(mailOf(env, smtp), "invite", "--next", "3", "--yes");
  expect(smtp.messages.map((m) => m.to)).toEqual([
    "ada@example.com",
    "ada@example.com",
    "grace@example.com",
    "linus@example.com",
  ]);
  return again.stdout;
}

describe("npm run waitlist -- invite on the embedded database", () => {
  const dataDir = migratedDataDir("invite-cli-");
  const env = { DATA_DIR: dataDir };
  let smtp: TestSmtp | undefined;
  afterAll(() => smtp?.close());

  it("says how many and from which days without changing anything; refuses without EARLY_ACCESS_URL", async () => {
    const store = createStore(await openPgliteDb(dataDir));
    await seed(store, [
      ["pending@example.com", "pending"],
      ["ada@example.com", "confirmed", "newsletter"],
      ["grace@example.com", "confirmed", "newsletter"],
      ["linus@example.com", "confirmed"],
      ["formula@example.com", "confirmed"],
    ]);
    await store.close();

    const missing = await failure(cli({ ...env, EARLY_ACCESS_URL: "" }, "invite", "--next", "2", "--yes"));
    expect(missing?.code).toBe(2);
    expect(missing?.stderr.trim().split("\n")).toEqual([
      "waitlist: EARLY_ACCESS_URL is not set: set it to the product's sign-up page (e.g. https://app.noosphere.app/signup); nothing was changed.",
    ]);
    const noCount = await failure(cli(env, "invite", "--yes"));
    expect(noCount?.code).toBe(2);
    expect(noCount?.stderr).toContain("invite needs --next");

    const dry = await cli(
      { ...env, SMTP_URL: "smtp://127.0.0.1:1", MAIL_FROM: "x@noosphere.test" },
      "invite",
      "--next",
      "2",
    );
    expect(dry.stdout).toBe(
      `Dry run: would invite 2 of 4 confirmed sign-ups waiting in the embedded database in ${dataDir}/, who signed up from 2026-01-02 to 2026-01-03 (UTC), by e-mail.\nIn sign-up order (REFERRAL_PLACES=0: referrals move nobody).\nRun again with --yes to invite them.\n`,
    );

    const count = await cli(env, "count");
    expect(count.stdout).toContain(
      "Waitlist: 5 sign-ups in the embedded database in " +
        `${dataDir}/\n  pending         1\n  confirmed       4\n  invited         0\n  joined          0\n`,
    );
    // Seeded in January: nothing in the last 14 days, so no source either.
    expect(count.stdout).toContain("Top sources, last 14 days:\n  (no sign-ups)\n");

    const store2 = createStore(await openPgliteDb(dataDir));
    expect(await statuses(store2)).toEqual({ pending: ["pending"], confirmed: ["ada", "grace", "linus", "formula"] });
    await store2.close();
  });

  it("a wave SIGKILLed before it read the answer to its first message mails that person again, and invites all", async () => {
    smtp = await startSmtp();
    const again = await killAtFirstAnswerThenRerun(smtp, env);
    expect(again).toMatch(
      /^Completed an interrupted wave in the embedded database in .*: 3 people invited \(e-mails accepted by the SMTP server\)\. Run again for a new wave\.\n$/,
    );

    const store = createStore(await openPgliteDb(dataDir));
    expect(await statuses(store)).toEqual({
      pending: ["pending"],
      invited: ["ada", "grace", "linus"],
      confirmed: ["formula"],
    });
    expect(await store.db.query("SELECT 1 FROM waitlist_invite_wave WHERE finished_at IS NULL")).toEqual([]);
    await store.close();
  });

  it("a wave SIGKILLed while the server holds its second RCPT TO mails that person when run again", async () => {
    const store = createStore(await openPgliteDb(dataDir));
    await seed(store, [
      ["second-ada@example.com", "confirmed"],
      ["second-grace@example.com", "confirmed"],
    ]);
    await store.db.query("UPDATE waitlist SET created_at = created_at - interval '1 year' WHERE email LIKE 'second-%'");
    await store.close();
    // The process group is killed while the server holds its answer to the second RCPT TO.
    const midway = await startSmtp();
    try {
      const mailEnv = mailOf(env, midway);
      await killInviteWhileHeld(midway, mailEnv, "rcpt", "second-grace@example.com", 2);
      expect(midway.messages.map((m) => m.to)).toEqual(["second-ada@example.com"]);
      // The second e-mail never ended: nothing says it might have arrived, so it is sent now, and only it.
      const again = await cli(mailEnv, "invite", "--next", "2", "--yes");
      expect(again.stdout).toMatch(/^Completed an interrupted wave in the embedded database in .*: 1 person invited/);
      expect(midway.messages.map((m) => m.to)).toEqual(["second-ada@example.com", "second-grace@example.com"]);
    } finally {
      await midway.close();
    }
  });

  it("with mail off, --yes prints email,name,invite_url as CSV: addresses as stored, formulas in names neutralised", async () => {
    const store = createStore(await openPgliteDb(dataDir));
    await seed(store, [["-bob@example.com", "confirmed"]]);
    await store.close();
    const out = await cli(env, "invite", "--next", "5", "--yes");
    const lines = out.stdout.split("\r\n").map((line) => line.replace(/invite=[\w-]{27}$/, "invite=CODE"));
    expect(lines).toEqual([
      "email,name,invite_url",
      "-bob@example.com,'-bob,https://app.noosphere.test/signup?invite=CODE",
      "formula@example.com,'=HYPERLINK(1),https://app.noosphere.test/signup?invite=CODE",
      "",
    ]);
    expect(out.stderr).toContain("Wave in the embedded database in");
    expect(out.stderr).toContain("2 people invited (their rows are above)");
  });
});

const reachable = await postgresReachable();

describe.runIf(reachable)("npm run waitlist -- invite on PostgreSQL", () => {
  it("a wave SIGKILLed before it read the answer to its first message mails that person again", async () => {
    const database = await createMigratedDatabase("invite_cli_kill");
    const smtp = await startSmtp();
    // Closed before the drop even when an expectation fails: the drop refuses a database still in use.
    const store = createStore(createPgDb(database.url));
    try {
      await seed(store, [
        ["ada@example.com", "confirmed"],
        ["grace@example.com", "confirmed"],
        ["linus@example.com", "confirmed"],
        ["margaret@example.com", "confirmed"],
      ]);
      const again = await killAtFirstAnswerThenRerun(smtp, { DATABASE_URL: database.url });
      expect(again).toMatch(/^Completed an interrupted wave in PostgreSQL \(DATABASE_URL\): 3 people invited /);
      // Both runs are in the audit log from their start (written before the first e-mail): the killed one's entry
      // has no end; the rerun's end says what it did.
      const entries = (await createAuditLog(store.db).page(10, null)).reverse();
      expect(entries.map((e) => [e.actor, e.action, e.details["phase"]])).toEqual([
        ["CLI", "wave", "started"],
        ["CLI", "wave", "started"],
        ["CLI", "wave", "ended"],
      ]);
      expect(entries[2]?.details).toMatchObject({ started: entries[1]?.id, invited: 3, resumed: true, exit: 0 });
      expect(await store.countByStatus()).toEqual({ total: 4, pending: 0, confirmed: 1, invited: 3, joined: 0 });
    } finally {
      await store.close();
      await smtp.close();
      await database.drop();
    }
  });

  it("two waves started at the same moment never invite the same person", async () => {
    const database = await createMigratedDatabase("invite_cli");
    const smtp = await startSmtp();
    const store = createStore(createPgDb(database.url));
    try {
      await seed(
        store,
        Array.from({ length: 30 }, (_, i) => [`p${String(i).padStart(2, "0")}@example.com`, "confirmed"]),
      );
      const env = { DATABASE_URL: database.url, SMTP_URL: smtp.url, MAIL_FROM: "hello@noosphere.test" };
      const [a, b] = await Promise.all([
        cli(env, "invite", "--next", "12", "--yes"),
        cli(env, "invite", "--next", "12", "--yes"),
      ]);
      expect(a.stdout).toContain("12 people invited");
      expect(b.stdout).toContain("12 people invited");
      const recipients = smtp.messages.map((m) => m.to).sort();
      expect(recipients).toHaveLength(24);
      expect(new Set(recipients).size).toBe(24);
      expect(recipients.at(-1)).toBe("p23@example.com");
      expect(await store.countByStatus()).toEqual({ total: 30, pending: 0, confirmed: 6, invited: 24, joined: 0 });
    } finally {
      await store.close();
      await smtp.close();
      await database.drop();
    }
  });
});
