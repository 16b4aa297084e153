/**
 * No circles: no file of src/ imports itself through others, and no folder of src/server/ imports another that
 * imports it back (a feature uses what is beneath it, never the reverse). Imports are read with the TypeScript
 * compiler's own scanner (type-only and dynamic imports count too); a cycle fails here, naming its path.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
type Graph = Map<string, Set<string>>;

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });

/** The file a relative specifier names (`./x` → x.ts, x.tsx or x/index.ts), from the root; null for a package. */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(ROOT, dirname(from), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find(
    (path) => existsSync(path) && statSync(path).isFile(),
  );
  return found ? relative(ROOT, found).replaceAll("\\", "/") : null;
}

function fileGraph(files: string[]): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
    const targets = importedFiles.map((imported) => target(file, imported.fileName));
    graph.set(file, new Set(targets.filter((path): path is string => path !== null)));
  }
  return graph;
}

/** The same edges between src/server/'s folders (src/server/x.ts files belong to none). */
function folderGraph(files: Graph): Graph {
  const folderOf = (file: string) => /^src\/server\/([^/]+)\//.exec(file)?.[1];
  const graph: Graph = new Map();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    for (const to of [...targets].map(folderOf)) {
      if (!from || !to || from === to) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every cycle a depth-first walk meets, each as its path ("a → b → a"): none when there is none. */
function cyclesOf(graph: Graph): string[] {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next].join(" → "));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

const files = fileGraph(sources("src"));

describe("imports", () => {
  it("form no cycle between files of src/", () => {
    expect(files.size).toBeGreaterThan(250);
    expect(cyclesOf(files)).toEqual([]);
  });

  it("form no cycle between folders of src/server/", () => {
    const folders = folderGraph(files);
    expect(folders.get("signup")).toContain("store");
    expect(cyclesOf(folders)).toEqual([]);
  });

  it("are walked so that a cycle is found: a pair, and one edge added to the real graph", () => {
    expect(
      cyclesOf(
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["a"])],
        ]),
      ),
    ).toEqual(["a → b → a"]);
    const withCycle: Graph = new Map(files);
    withCycle.set("src/server/db/types.ts", new Set(["src/server/signup/handler.ts"]));
    const found = cyclesOf(withCycle);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((cycle) => cycle.includes("src/server/db/types.ts → src/server/signup/handler.ts"))).toBe(true);
  });
});
