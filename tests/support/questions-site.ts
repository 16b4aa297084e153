/**
 * The site as a team that edited src/content/questions.json deploys it, for a browser test of other questions than
 * the repository's: a copy of what the build and the server read (src, netlify, dev, scripts, public and the
 * configuration files; node_modules linked), that one file replaced, built there. Its server is `npm start`'s,
 * started from the copy (startServer's `cwd`): the functions find the copy's dist/ beside them (../../dist), and
 * everything, pages, functions and the CLI's code, reads the one questions file. The repository's dist/ and the
 * shared test server are left alone.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** What the build and the server read, copied whole (about 3 MB). */
const COPIED = [
  "src",
  "netlify",
  "dev",
  "scripts",
  "public",
  "astro.config.mjs",
  "netlify.toml",
  "package.json",
  "tsconfig.json",
];

export interface QuestionsSite {
  /** The copy's folder: the working directory its server starts in. */
  root: string;
  remove: () => void;
}

/** Runs `astro build` in `root`; rejects with its output when it fails. */
function build(root: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, "node_modules/astro/bin/astro.mjs"), "build"], {
      cwd: root,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`astro build exited ${code}:\n${output}`))));
  });
}

/** A copy of the site asking `questions` (the file's entries, as a team writes them), built. */
export async function buildQuestionsSite(questions: readonly object[]): Promise<QuestionsSite> {
  const root = mkdtempSync(join(tmpdir(), "questions-site-"));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    for (const entry of COPIED) cpSync(resolve(entry), join(root, entry), { recursive: true });
    symlinkSync(resolve("node_modules"), join(root, "node_modules"));
    writeFileSync(join(root, "src/content/questions.json"), `${JSON.stringify(questions, null, 2)}\n`);
    await build(root);
    return { root, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
