/**
 * What the slow tests of `npm run waitlist` as a child process share (segments-cli, updates-cli, invitations-cli):
 * its command line, its environment for sending e-mail from the embedded database, a folder for the files its
 * arguments name, and a failed run as a value.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { HeldStep, TestSmtp } from "./smtp";

const exec = promisify(execFile);

export const NODE = "node_modules/.bin/node";

/** node's arguments to run the CLI with `args`, each of `hooks` imported first (e.g. questions-hook.mjs). */
export const cliArgs = (args: readonly string[], hooks: readonly string[] = []) => [
  "--import",
  "tsx",
  ...hooks.flatMap((hook) => ["--import", hook]),
  "scripts/waitlist.ts",
  ...args,
];

/** Runs the CLI with `args` in `env` to its end: its output; an exit other than 0 rejects. */
export const runCli = (env: NodeJS.ProcessEnv, args: readonly string[], hooks: readonly string[] = []) =>
  exec(NODE, cliArgs(args, hooks), { env });

/**
 * Starts the CLI with `args` as its own process group and SIGKILLs the whole group (as a terminal's Ctrl-\\ or a
 * container's stop would) while `smtp` holds its reply at `step` for `to`: RCPT TO, or the final "." of their
 * message. The reply is released only once the group is gone, so it is never read. Resolves to the signal the
 * process ended by.
 */
export async function killWhileHeld(
  smtp: TestSmtp,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  [step, to]: [HeldStep, string],
) {
  const held = smtp.hold(step, to);
  const child = spawn(NODE, cliArgs(args), { env, stdio: "ignore", detached: true });
  const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await held.reached;
  process.kill(-(child.pid ?? 0), "SIGKILL");
  const signal = await exited;
  held.release();
  return signal;
}

/** A run that failed, as its exit code and output; one that succeeded, as null. */
export const failureOf = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

/** The CLI's environment for sending e-mail through `smtp` (before it starts: none) from the embedded database. */
export const mailingEnv = (dataDir: string, smtp: TestSmtp | undefined) => ({
  ...process.env,
  DATABASE_URL: "",
  NETLIFY_DB_URL: "",
  DATA_DIR: dataDir,
  SMTP_URL: smtp?.url ?? "",
  MAIL_FROM: "Noosphere <hello@noosphere.test>",
  SITE_URL: "https://noosphere.test",
  MAIL_RATE_PER_SECOND: "unlimited",
});

/** A folder of a test file's own: `file(name, text)` writes one there and gives its path. */
export function inputFiles(prefix: string) {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  return (name: string, text: string) => {
    writeFileSync(join(folder, name), text);
    return join(folder, name);
  };
}

/** The words of the updates the CLI tests send. */
export const UPDATE_TEXT = "Hello from the team.\n\nThe graph view is in.\n";
