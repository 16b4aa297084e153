/**
 * docs/sql/: every SQL statement the server sends, whole, as sent (fragments from allowance.ts, referrals/count.ts
 * and data-key.ts put in place), one file per module, so a statement is read in one place instead of assembled in
 * the head from three. The statements are the values of each module's exported `…_SQL` (or `SQL`) object, read
 * after the module has built them. Fails when a file is stale, missing or left over, and when a module writes a
 * statement outside such an object (it would be missing here). Regenerate with:
 *   UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const DOCS = join(ROOT, "docs/sql");
const SERVER = join(ROOT, "src/server");
const REGENERATE = "UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts";
/** A statement's first word, at the start of a string or template literal. */
const STATEMENT_START = /["`]\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\s/g;
/**
 * The database floor's own statements, not the features': the transaction around each migration (BEGIN, COMMIT,
 * ROLLBACK, in db/migrations.ts) and the migration files themselves (netlify/database/migrations/, read whole).
 */
const NOT_DOCUMENTED = new Set(["db/migrations.ts"]);

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [relative(SERVER, join(dir, entry.name))]
        : [],
  );

/** The statements of one module: each exported SQL object's string values, by name, in the order written. */
async function statementsOf(file: string): Promise<Array<[string, string]>> {
  const module = (await import(join(SERVER, file))) as Record<string, unknown>;
  // Only the objects this module defines: a feature's index.ts re-exports its SQL for other features.
  const source = readFileSync(join(SERVER, file), "utf8");
  return Object.entries(module)
    .filter(([name]) => name === "SQL" || name.endsWith("_SQL"))
    .filter(([name]) => new RegExp(`export const ${name}\\b`).test(source))
    .flatMap(([name, value]) =>
      typeof value === "string"
        ? [[name, value] as [string, string]]
        : Object.entries(value as Record<string, unknown>)
            .filter((entry): entry is [string, string] => typeof entry[1] === "string")
            .map(([key, text]) => [`${name}.${key}`, text] as [string, string]),
    );
}

/** docs/sql/<folder>-<module>.sql for src/server/<folder>/<module>.ts. */
const docName = (file: string) => `${file.replace(/\.ts$/, "").replaceAll("/", "-")}.sql`;

const render = (file: string, statements: Array<[string, string]>) =>
  [
    `-- src/server/${file}: each statement as it is sent ($1, $2, … its parameters), by its name in the code.`,
    `-- Written by tests/unit/sql-docs.test.ts; regenerate: ${REGENERATE}`,
    ...statements.map(([name, text]) => `\n-- ${name}\n${text.trim()};`),
    "",
  ].join("\n");

const files = sourceFiles(SERVER).filter((file) => !NOT_DOCUMENTED.has(file));
const documented = new Map<string, string>();
const everything: string[] = [];
for (const file of files) {
  const statements = await statementsOf(file);
  if (statements.length === 0) continue;
  documented.set(docName(file), render(file, statements));
  everything.push(...statements.map(([, text]) => text));
}

describe("docs/sql", () => {
  it("holds every module's statements as sent, and nothing else", () => {
    if (process.env["UPDATE_DOCS"] === "1") {
      rmSync(DOCS, { recursive: true, force: true });
      mkdirSync(DOCS, { recursive: true });
      for (const [name, text] of documented) writeFileSync(join(DOCS, name), text);
    }
    expect(existsSync(DOCS), `docs/sql/ is missing: ${REGENERATE}`).toBe(true);
    expect(readdirSync(DOCS).sort(), `docs/sql/ lists other modules: ${REGENERATE}`).toEqual(
      [...documented.keys()].sort(),
    );
    for (const [name, text] of documented) {
      expect(readFileSync(join(DOCS, name), "utf8"), `docs/sql/${name} is stale: ${REGENERATE}`).toBe(text);
    }
  });

  it("misses no statement: each one the server's code starts is in an exported SQL object", () => {
    const missing = files.flatMap((file) => {
      const source = readFileSync(join(SERVER, file), "utf8");
      return [...source.matchAll(STATEMENT_START)].flatMap((match) => {
        // The literal's text up to its first interpolation or line end: found within some documented statement.
        const start = (match.index ?? 0) + 1;
        const head =
          source
            .slice(start, start + 200)
            .split(/\$\{|\n|["`]/)[0]
            ?.trim() ?? "";
        return everything.some((text) => text.includes(head)) ? [] : [`src/server/${file}: ${head}`];
      });
    });
    expect(missing).toEqual([]);
  });

  it("names the sign-up's insert whole, with the fragments of three modules in place", () => {
    const signup = documented.get("signup-store.sql") ?? "";
    expect(signup).toContain("-- SIGNUP_SQL.insert\nWITH added AS (INSERT INTO waitlist (");
    // The referral's row (referrals/count.ts) and the sealed rows' check (signup/store.ts), no `${` left anywhere.
    expect(signup).toContain("INSERT INTO waitlist_referral (referred_id, referrer_id, mailbox_key, outcome)");
    expect([...documented.values()].filter((text) => text.includes("${"))).toEqual([]);
  });
});
