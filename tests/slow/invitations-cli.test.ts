/**
 * `npm run waitlist -- invite` and `count` as the team runs them, in child processes, against a real SMTP server on
 * 127.0.0.1: the dry run, a missing EARLY_ACCESS_URL, a wave SIGKILLed right after its first e-mail and run again,
 * the CSV with mail off, and (when 127.0.0.1:5432 answers) two waves started at the same moment on PostgreSQL.
 * Slow: every command is a process of its own.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createPgDb } from "../../src/server/db/pg";
import { openPgliteDb } from "../../src/server/db/pglite";
import { createStore, type Store } from "../../src/server/store";
import { migratedDataDir } from "../integration/helpers";
import { createMigratedDatabase, postgresReachable } from "../integration/postgres";
import { startSmtp, type TestSmtp } from "../integration/smtp";

const exec = promisify(execFile);
const NODE = "node_modules/.bin/node";
const ACCESS = "https://app.noosphere.test/signup";
const BASE_ENV = { DATABASE_URL: "", NETLIFY_DB_URL: "", SMTP_URL: "", MAIL_FROM: "", EARLY_ACCESS_URL: ACCESS };

type Env = Record<string, string>;
const cli = (env: Env, ...args: string[]) =>
  exec(NODE, ["--import", "tsx", "scripts/waitlist.ts", ...args], { env: { ...process.env, ...BASE_ENV, ...env } });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

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

const statuses = async (store: Store) =>
  Object.fromEntries(
    (await store.db.query<{ email: string; status: string }>("SELECT email, status FROM waitlist ORDER BY id")).map(
      (row) => [row.email, row.status],
    ),
  );

/** The wave an SMTP server kills: the child it SIGKILLs, and the promise of that child's exit. */
const killed: { child?: ChildProcess; exited?: Promise<unknown> } = {};

/** An SMTP server that SIGKILLs the wave once it has its first message whole, and answers only when it is gone. */
const startKillingSmtp = () =>
  startSmtp({
    beforeAnswer: (count) => {
      if (count !== 1) return;
      killed.child?.kill("SIGKILL");
      return killed.exited;
    },
  });

/**
 * Runs `invite --next 3 --yes`, which the SMTP server SIGKILLs when the first e-mail (to ada@example.com) has
 * reached it whole but before its answer, then the same command again; checks that each of the three oldest got
 * exactly one e-mail. Resolves to what the second run printed.
 */
async function killAfterFirstThenRerun(smtp: TestSmtp, env: Env): Promise<string> {
  const mailEnv = { ...env, SMTP_URL: smtp.url, MAIL_FROM: "Noosphere <hello@noosphere.test>" };
  const child = spawn(NODE, ["--import", "tsx", "scripts/waitlist.ts", "invite", "--next", "3", "--yes"], {
    env: { ...process.env, ...BASE_ENV, ...mailEnv },
    stdio: "ignore",
  });
  killed.child = child;
  killed.exited = new Promise((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
  expect(await killed.exited).toBe("SIGKILL");
  expect(smtp.messages.map((m) => m.to)).toEqual(["ada@example.com"]);
  const again = await cli(mailEnv, "invite", "--next", "3", "--yes");
  expect(smtp.messages.map((m) => m.to)).toEqual(["ada@example.com", "grace@example.com", "linus@example.com"]);
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
      `Dry run: would invite 2 of 4 confirmed sign-ups waiting in the embedded database in ${dataDir}/, who signed up from 2026-01-02 to 2026-01-03 (UTC), by e-mail.\nRun again with --yes to invite them.\n`,
    );

    const count = await cli(env, "count");
    expect(count.stdout).toContain(
      "Waitlist: 5 sign-ups in the embedded database in " +
        `${dataDir}/\n  pending         1\n  confirmed       4\n  invited         0\n  joined          0\n`,
    );
    // Seeded in January: nothing in the last 14 days, so no source either.
    expect(count.stdout).toContain("Top sources, last 14 days:\n  (no sign-ups)\n");

    const store2 = createStore(await openPgliteDb(dataDir));
    expect(await statuses(store2)).toEqual({
      "pending@example.com": "pending",
      "ada@example.com": "confirmed",
      "grace@example.com": "confirmed",
      "linus@example.com": "confirmed",
      "formula@example.com": "confirmed",
    });
    await store2.close();
  });

  it("a wave SIGKILLed after its first e-mail is completed by running it again; nobody gets two", async () => {
    smtp = await startKillingSmtp();
    const again = await killAfterFirstThenRerun(smtp, env);
    // Ada's e-mail was whole on the server when the wave died: counted as invited, not sent again.
    expect(again).toMatch(
      /^Completed an interrupted wave in the embedded database in .*: 2 people invited \(e-mails accepted by the SMTP server\), and 1 whose e-mail was already on its way when it stopped counted as invited, not mailed again\./,
    );

    const store = createStore(await openPgliteDb(dataDir));
    expect(await statuses(store)).toEqual({
      "pending@example.com": "pending",
      "ada@example.com": "invited",
      "grace@example.com": "invited",
      "linus@example.com": "invited",
      "formula@example.com": "confirmed",
    });
    expect(await store.db.query("SELECT 1 FROM waitlist_invite_wave WHERE finished_at IS NULL")).toEqual([]);
    await store.close();
  });

  it("a wave SIGKILLed while its second e-mail is under way mails that person when run again", async () => {
    const store = createStore(await openPgliteDb(dataDir));
    await seed(store, [
      ["second-ada@example.com", "confirmed"],
      ["second-grace@example.com", "confirmed"],
    ]);
    await store.db.query("UPDATE waitlist SET created_at = created_at - interval '1 year' WHERE email LIKE 'second-%'");
    await store.close();
    // At the second message's RCPT TO the CLI is killed, and the answer waits until it is gone: its message can
    // never end, however late the signal lands.
    let exited: Promise<unknown> = Promise.resolve();
    const midway = await startSmtp({
      onRecipient: (address) => {
        if (address !== "second-grace@example.com") return;
        killed.child?.kill("SIGKILL");
        return exited;
      },
    });
    try {
      const mailEnv = { ...env, SMTP_URL: midway.url, MAIL_FROM: "Noosphere <hello@noosphere.test>" };
      const child = spawn(NODE, ["--import", "tsx", "scripts/waitlist.ts", "invite", "--next", "2", "--yes"], {
        env: { ...process.env, ...BASE_ENV, ...mailEnv },
        stdio: "ignore",
      });
      killed.child = child;
      exited = new Promise((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
      expect(await exited).toBe("SIGKILL");
      expect(midway.messages.map((m) => m.to)).toEqual(["second-ada@example.com"]);
      // The second e-mail never ended: nothing says it might have arrived, so it is sent now, and only it.
      const again = await cli(mailEnv, "invite", "--next", "2", "--yes");
      expect(again.stdout).toMatch(/^Completed an interrupted wave in the embedded database in .*: 1 person invited/);
      expect(midway.messages.map((m) => m.to)).toEqual(["second-ada@example.com", "second-grace@example.com"]);
    } finally {
      await midway.close();
    }
  });

  it("with mail off, --yes prints email,name,invite_url as CSV, formulas neutralised", async () => {
    const out = await cli(env, "invite", "--next", "5", "--yes");
    const lines = out.stdout.split("\r\n");
    expect(lines[0]).toBe("email,name,invite_url");
    expect(lines[1]).toMatch(
      /^formula@example\.com,'=HYPERLINK\(1\),https:\/\/app\.noosphere\.test\/signup\?invite=[\w-]{27}$/,
    );
    expect(lines.slice(2)).toEqual([""]);
    expect(out.stderr).toContain("Wave in the embedded database in");
    expect(out.stderr).toContain("1 person invited (their rows are above)");
  });
});

const reachable = await postgresReachable();

describe.runIf(reachable)("npm run waitlist -- invite on PostgreSQL", () => {
  it("a wave SIGKILLed after its first e-mail is completed by running it again; nobody gets two", async () => {
    const database = await createMigratedDatabase("invite_cli_kill");
    const smtp = await startKillingSmtp();
    try {
      const store = createStore(createPgDb(database.url));
      await seed(store, [
        ["ada@example.com", "confirmed"],
        ["grace@example.com", "confirmed"],
        ["linus@example.com", "confirmed"],
        ["margaret@example.com", "confirmed"],
      ]);
      const again = await killAfterFirstThenRerun(smtp, { DATABASE_URL: database.url });
      expect(again).toMatch(
        /^Completed an interrupted wave in PostgreSQL \(DATABASE_URL\): 2 people invited .*, and 1 whose e-mail was already on its way/,
      );
      expect(await store.countByStatus()).toEqual({ total: 4, pending: 0, confirmed: 1, invited: 3, joined: 0 });
      await store.close();
    } finally {
      await smtp.close();
      await database.drop();
    }
  });

  it("two waves started at the same moment never invite the same person", async () => {
    const database = await createMigratedDatabase("invite_cli");
    const smtp = await startSmtp();
    try {
      const store = createStore(createPgDb(database.url));
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
      await store.close();
    } finally {
      await smtp.close();
      await database.drop();
    }
  });
});
