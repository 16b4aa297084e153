/**
 * Functions a reader can hold (issue 49, point 4): no function in src/server/ or scripts/ is over 60 lines, measured
 * on the TypeScript compiler's own syntax tree, from the line its node starts on to the line it ends on. Every
 * function-like node with a body counts: declarations, arrows, function expressions, methods, accessors and
 * constructors, nested ones on their own too. The one exception is a JSX view that is one piece of markup: a body
 * that is a single JSX element or fragment (an arrow's expression body, or a block whose only statement returns it),
 * parentheses allowed around it: the markup then counts as one line, and the lines around it (its signature, the
 * return) still count. Anything before the return, or a condition around the markup, and every line counts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const LIMIT = 60;

interface Long {
  line: number;
  name: string;
  lines: number;
}

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });

const unwrap = (node: ts.Node): ts.Node => (ts.isParenthesizedExpression(node) ? unwrap(node.expression) : node);
const isMarkup = (node: ts.Node | undefined) =>
  node !== undefined && (ts.isJsxElement(node) || ts.isJsxFragment(node) || ts.isJsxSelfClosingElement(node));

/** A view's one piece of markup, when its body is that and nothing else: `=> (<…/>)`, or `{ return (<…/>); }`. */
function oneMarkup(body: ts.Node): ts.Node | null {
  const returned = ts.isBlock(body) ? onlyReturned(body) : body;
  const markup = returned && unwrap(returned);
  return markup && isMarkup(markup) ? markup : null;
}
const onlyReturned = (block: ts.Block) => {
  const [only, ...rest] = block.statements;
  return only && rest.length === 0 && ts.isReturnStatement(only) ? (only.expression ?? null) : null;
};

/** What a reader would call the function: its own name, the variable or property it is given to, else its enclosure. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  const named =
    node.name ??
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)
      ? parent.name
      : undefined);
  if (named) return named.getText(file);
  for (let up: ts.Node | undefined = parent; up; up = up.parent) {
    if (ts.isFunctionLike(up) && !ts.isFunctionTypeNode(up))
      return `(anonymous, in ${nameOf(up as ts.FunctionLikeDeclaration, file)})`;
  }
  return "(anonymous)";
}

/** Every function of one source over the limit, with the line it starts on (1-based), its name and its length. */
function longFunctions(fileName: string, text: string, limit = LIMIT): Long[] {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  const found: Long[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = lineOf(node.getStart(file));
      const lines = lineOf(node.end) - first + 1;
      // A one-piece view's markup may run long (counted as one line); its signature and the rest still count.
      const markup = oneMarkup(node.body);
      const counted = markup ? lines - (lineOf(markup.end) - lineOf(markup.getStart(file))) : lines;
      if (counted > limit) found.push({ line: first + 1, name: nameOf(node, file), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The repository's long functions, each as `file:line name N lines`, keyed without the line by `file name`. */
const walked = ["src/server", "scripts"].flatMap(sources);
const offenders = walked.flatMap((path) =>
  longFunctions(path, readFileSync(join(ROOT, path), "utf8")).map((long) => ({
    key: `${path} ${long.name}`,
    text: `${path}:${long.line} ${long.name} ${long.lines} lines`,
  })),
);

/** `count` lines of a body: statements, or list items of markup. */
const lines = (count: number) => Array.from({ length: count }, (_, index) => `  const v${index} = ${index};`);
const markupLines = (count: number) => Array.from({ length: count }, (_, index) => `      <li>{${index}}</li>`);
const table: Array<{ what: string; source: string; long: boolean }> = [
  { what: "a 61-line function", source: ["function f() {", ...lines(59), "}"].join("\n"), long: true },
  { what: "a 60-line function", source: ["function f() {", ...lines(58), "}"].join("\n"), long: false },
  {
    what: "a 61-line arrow in a method",
    source: ["class C {", "  m() {", "    return () => {", ...lines(59), "    };", "  }", "}"].join("\n"),
    long: true,
  },
  {
    what: "a long view whose body is one return of markup",
    source: ["function View() {", "  return (", "    <ul>", ...markupLines(70), "    </ul>", "  );", "}"].join("\n"),
    long: false,
  },
  {
    what: "a long arrow view whose body is markup",
    source: ["const View = () => (", "    <>", ...markupLines(70), "    </>", ");"].join("\n"),
    long: false,
  },
  {
    what: "a one-line view whose signature takes 61 lines",
    source: [
      "function View({",
      ...Array.from({ length: 59 }, (_, i) => `  p${i},`),
      "}: Props) { return <br />; }",
    ].join("\n"),
    long: true,
  },
  {
    what: "a long view with logic before its return",
    source: [
      "function View() {",
      "  const n = 1;",
      "  return (",
      "    <ul>",
      ...markupLines(70),
      "    </ul>",
      "  );",
      "}",
    ].join("\n"),
    long: true,
  },
  {
    what: "a long view whose markup is under a condition",
    source: [
      "const View = (p: { a: boolean }) =>",
      "  p.a ? (",
      "    <ul>",
      ...markupLines(70),
      "    </ul>",
      "  ) : null;",
    ].join("\n"),
    long: true,
  },
];

describe("functions", () => {
  it.each(table)("are measured so that $what is long: $long", ({ source, long }) => {
    expect(longFunctions("case.tsx", source).length > 0).toBe(long);
  });

  it("are measured from the first line of the node to its last, and named", () => {
    const source = ["// header", "export const make = () => {", ...lines(60), "};"].join("\n");
    expect(longFunctions("case.ts", source)).toEqual([{ line: 2, name: "make", lines: 62 }]);
  });

  it("in src/server/ and scripts/ are 60 lines at most", () => {
    expect(walked.length).toBeGreaterThan(250);
    expect(offenders.map((offender) => offender.text)).toEqual([]);
  });
});
