/**
 * Every file a comment names exists: in src/, scripts/, netlify/, dev/ and tests/, a path with a folder (from the
 * repository's root, the comment's own folder, src/server/, src/, src/lib/ or tests/), and a bare file name
 * anywhere in the repository; in docs/, every path written out in backticks. A move or a rename that leaves a
 * comment pointing at nothing fails here, naming the file and the path.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const TOP = ["src", "docs", "tests", "scripts", "netlify", "dev", "bench", "public"];
const FROM_ROOT = new RegExp(`^(${TOP.join("|")})/`);
/** Names that stand for any file of a kind ("a `<digits>_<slug>/` folder's migration.sql", "x.ts"). */
const EXAMPLES = /^(x[./]|migration\.sql$|fn\.mjs$)|\/x\.tsx?$/;

const walk = (dir: string, keep: (name: string) => boolean): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) return [];
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? walk(path, keep) : keep(entry.name) ? [path] : [];
  });
const BASENAMES = new Set([
  ...readdirSync(ROOT),
  ...TOP.flatMap((dir) => walk(dir, () => true)).map((path) => path.split("/").at(-1)),
]);

/** Paths a comment names: a file name with an extension, with or without folders before it. */
const NAMED = /(?<![\w./-])((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:tsx?|mjs|md|sql|json|css|astro))\b/g;

function exists(from: string, path: string): boolean {
  if (EXAMPLES.test(path)) return true;
  if (!path.includes("/")) return BASENAMES.has(path);
  const bases = FROM_ROOT.test(path) ? [""] : [dirname(from), "src/server", "src", "src/lib", "tests"];
  return bases.some((base) => existsSync(join(ROOT, base, path)));
}

describe("paths named in comments and docs", () => {
  it("exist, for every comment of the code and the tests", () => {
    const code = ["src", "scripts", "netlify", "dev", "tests"].flatMap((dir) =>
      walk(dir, (n) => /\.(tsx?|mjs)$/.test(n)),
    );
    const missing = code.flatMap((file) => {
      const comments = readFileSync(join(ROOT, file), "utf8").match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
      return comments
        .flatMap((comment) =>
          [...comment.matchAll(NAMED)].map((match) => match[1] ?? "").filter((path) => !exists(file, path)),
        )
        .map((path) => `${file}: ${path}`);
    });
    expect(code.length).toBeGreaterThan(400);
    expect(missing).toEqual([]);
  });

  it("exist, for every path docs/ writes out", () => {
    const docs = walk("docs", (name) => name.endsWith(".md"));
    const missing = docs.flatMap((doc) =>
      [
        ...readFileSync(join(ROOT, doc), "utf8").matchAll(
          /`((?:src|docs|tests|scripts|netlify|dev|public)\/[^`\s*]+)`/g,
        ),
      ]
        .map((match) => (match[1] ?? "").replace(/[#:].*$/, ""))
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${doc}: ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
