/**
 * The map kept true: every file in src/server/, netlify/functions/ and dev/ is named in docs/code-map.md, in its
 * folder's entry; every module a src/server/ entry names exists; every path the README and the code map write out
 * exists; and the README's list of functions is netlify/functions/, whole. A new file, a rename or a removal that
 * leaves the map behind fails here, saying which.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const README = read("README.md");
const MAP = read("docs/code-map.md");

const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : [relative(ROOT, join(ROOT, dir, entry.name)).replaceAll("\\", "/")],
  );

/** The map's tree (its one code block) as entries: the path at the line's start, and its words, continuations too. */
interface Entry {
  indent: number;
  path: string;
  text: string;
}
const tree = /```\n([\s\S]*?)```/.exec(MAP)?.[1] ?? "";
const entries: Entry[] = [];
for (const line of tree.split("\n")) {
  const match = /^( *)(\S+(?:, \S+)*?)(?: {2,}(.*))?$/.exec(line);
  const indent = match?.[1]?.length ?? 0;
  const last = entries.at(-1);
  // A continuation: indented past every path (the description column), or a line of words with no path.
  if (last && (indent >= 20 || !match)) {
    last.text += ` ${line.trim()}`;
    continue;
  }
  if (match) entries.push({ indent, path: match[2] ?? "", text: match[3] ?? "" });
}

/** Each entry's path from the repository's root: an indented entry is under the last folder above it, less indented. */
const located: Array<Entry & { full: string }> = [];
const folders: Array<{ indent: number; full: string }> = [];
for (const entry of entries) {
  while ((folders.at(-1)?.indent ?? -1) >= entry.indent) folders.pop();
  const full = `${folders.at(-1)?.full ?? ""}${entry.path}`;
  located.push({ ...entry, full });
  if (entry.path.endsWith("/")) folders.push({ indent: entry.indent, full });
}
const entryOf = (full: string) => located.find((entry) => entry.full === full);

/** Whether `text` names `name` as a word of its own (not inside a longer name). */
const names = (text: string, name: string) =>
  new RegExp(`(^|[^\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w-])`).test(text);

/** The names a src/server/ entry gives its modules: its list, parentheses and prose dropped. */
function moduleNames(text: string): string[] {
  let flat = text;
  for (let previous = ""; previous !== flat; ) {
    previous = flat;
    flat = flat.replace(/\([^()]*\)/g, "");
  }
  return flat
    .split(/[,+:]/)
    .map((piece) => piece.trim())
    .filter((piece) => /^[a-z][a-z0-9-]*$/.test(piece));
}

describe("docs/code-map.md", () => {
  it("names every file of src/server/, netlify/functions/ and dev/ in its folder's entry", () => {
    const missing = [...filesUnder("src/server"), ...filesUnder("netlify/functions"), ...filesUnder("dev")].filter(
      (file) => {
        const name =
          file
            .split("/")
            .at(-1)
            ?.replace(/\.tsx?$/, "") ?? "";
        const folder = file.slice(0, file.lastIndexOf("/") + 1);
        // src/server/x.ts: the server's root entry; netlify/functions/x.ts: its own line; dev/**: dev/'s entry.
        if (folder === "src/server/") return !names(entryOf("src/server/*.ts")?.text ?? "", name);
        if (folder === "netlify/functions/") return !entryOf(file);
        if (folder.startsWith("dev/"))
          return !names(entryOf("dev/")?.text ?? "", file.startsWith("dev/local-netlify/") ? name : `${name}.ts`);
        // A feature's own subfolder (console/ui/) is named, with its files, in the feature's entry.
        const entry = entryOf(folder) ?? entryOf(folder.replace(/[^/]+\/$/, ""));
        return !names(entry?.text ?? "", name);
      },
    );
    expect(missing).toEqual([]);
  });

  it("names no module of src/server/ that does not exist", () => {
    const ghosts = located
      .filter(
        (entry) => entry.full.startsWith("src/server/") && (entry.full.endsWith("/") || entry.full.endsWith("*.ts")),
      )
      .flatMap((entry) => {
        const folder = entry.full.replace("*.ts", "");
        return moduleNames(entry.text)
          .filter(
            (name) => !existsSync(join(ROOT, folder, `${name}.ts`)) && !existsSync(join(ROOT, folder, `${name}.tsx`)),
          )
          .map((name) => `${folder}${name}`);
      });
    expect(ghosts).toEqual([]);
  });

  it("writes out only paths that exist", () => {
    const written = located.flatMap((entry) =>
      // "client.ts, proof*.ts", "components/waitlist/, ui/": the later names beside the first.
      entry.full
        .split(", ")
        .map((path, i, [first = ""]) =>
          i === 0 ? path : `${first.slice(0, first.replace(/\/$/, "").lastIndexOf("/") + 1)}${path}`,
        )
        .filter((path) => !path.includes("*")),
    );
    expect(written).toContain("src/server/signup/");
    expect(written).toContain("src/lib/waitlist/rules.ts");
    expect(written.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});

describe("README.md", () => {
  it("writes out only paths that exist: in backticks, in links and in its tree", () => {
    const quoted = [...README.matchAll(/`((?:src|docs|tests|scripts|netlify|dev|bench|public)\/[^`\s]*)`/g)].map(
      (match) => match[1] ?? "",
    );
    const linked = [...README.matchAll(/\]\(((?:docs\/)?[\w./-]+\.md)(?:#[\w-]*)?\)/g)].map((match) => match[1] ?? "");
    expect(quoted).toContain("src/server/signup/handler.ts");
    expect(linked).toContain("docs/code-map.md");
    const missing = [...quoted, ...linked].filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it("lists every function in netlify/functions/, by its file's name, and no other", () => {
    const line = /netlify\/\n\s+functions\/\s+thin adapters: ([\s\S]*?)\n\s+database\//.exec(README)?.[1] ?? "";
    const listed = line
      .replace(/\s+/g, " ")
      .split(/,\s*/)
      .map((name) => name.trim().replace(/\.$/, ""));
    const functions = filesUnder("netlify/functions").map((file) => file.split("/").at(-1)?.replace(/\.ts$/, ""));
    expect(listed.sort()).toEqual(functions.sort());
  });
});

describe("README.md's tree", () => {
  it("names every folder of src/server/", () => {
    const tree = /```\n(src\/[\s\S]*?)```/.exec(README)?.[1] ?? "";
    const server = /^ {2}server\/[\s\S]*?(?=\n {2}\S)/m.exec(tree)?.[0] ?? "";
    const folders = readdirSync(join(ROOT, "src/server"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.name}/`);
    expect(folders).toContain("signup/");
    expect(folders.filter((folder) => !names(server, folder))).toEqual([]);
  });
});
