import { existsSync, readFileSync, writeFileSync } from "node:fs";

const DOC = "docs/performance.md";

/** Replaces the block between `<!-- name:start -->` and `<!-- name:end -->` in docs/performance.md. */
export function writeSection(name: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : "";
  const block = `${start}\n${body.trim()}\n${end}`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  writeFileSync(
    DOC,
    a >= 0 && b > a ? doc.slice(0, a) + block + doc.slice(b + end.length) : `${doc.trimEnd()}\n\n${block}\n`,
  );
}
