import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "../../src/server/csv";

/**
 * How a spreadsheet reads a CSV line with `separator`: a quote opens a quoted cell only at the cell's start
 * (elsewhere it is text), `""` inside one is a quote. Written from RFC 4180 and spreadsheet behaviour, not
 * from the code under test.
 */
function spreadsheetCells(csv: string, separator: "," | ";"): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i] as string;
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (c === separator || c === "\n" || c === "\r") {
      cells.push(cell);
      cell = "";
      atStart = true;
    } else {
      cell += c;
      atStart = false;
    }
  }
  cells.push(cell);
  return cells;
}

/** A formula (`=`, `+`, `-`, `@`, even behind whitespace), or a tab or lone CR where the cell starts. */
const FORMULA_START = /^[\s"]*[=+\-@]|^\t|^\r(?!\n)/;

describe("CSV (RFC 4180)", () => {
  it("quotes fields with commas, semicolons, quotes and line breaks, doubling quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell(null)).toBe("");
  });

  it("quotes a cell holding a tab, so a reader splitting on tabs keeps it whole", () => {
    expect(csvCell("a\tb")).toBe('"a\tb"');
    expect(csvCell("ACME\t=1+1")).toBe('"ACME\t=1+1"');
  });

  it.each([
    ["-bob@example.com", "-bob@example.com", "'-bob@example.com"],
    ["+1@example.com", "+1@example.com", "'+1@example.com"],
    ["=ada@example.com", "=ada@example.com", "'=ada@example.com"],
    ["o'hara,jr@example.com", '"o\'hara,jr@example.com"', '"o\'hara,jr@example.com"'],
  ])("the mail tools' mode keeps %s exact (the spreadsheet mode guards it)", (address, exact, guarded) => {
    expect(csvCell(address, { exact: true })).toBe(exact);
    expect(csvCell(address)).toBe(guarded);
  });

  it.each(["=", "+", "-", "@", "\t", "\r"])("neutralises a cell starting with %j", (start) => {
    const cell = csvCell(`${start}SUM(A1:A9)`);
    expect(cell.replace(/^"/, "").startsWith(`'${start}`)).toBe(true);
  });

  it.each([
    ["Zoe;=1+1", '"Zoe;\'=1+1"'],
    ["ACME;@SUM(2+2)", '"ACME;\'@SUM(2+2)"'],
    ["a,-2", '"a,\'-2"'],
    ["a=b", "a=b"],
  ])("neutralises what a separator would split off: %j", (field, cell) => {
    expect(csvCell(field)).toBe(cell);
  });

  it("shows control characters instead of sending them to a terminal", () => {
    expect(csvCell("red\u001b[31m alert\u009b2J")).toBe("red\\u001b[31m alert\\u009b2J");
  });

  it.each([",", ";"] as const)("no field yields a formula cell when split on %j (property)", (separator) => {
    const alphabet = fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", ",", ";", '"', "'", " ", "a", "1", "(");
    fc.assert(
      fc.property(fc.array(fc.string({ unit: alphabet, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (fields) => {
        const columns = fields.map((_, i) => `c${i}`);
        const csv = csvRow(columns) + csvRow(fields);
        const bad = spreadsheetCells(csv, separator).filter((cell) => FORMULA_START.test(cell));
        expect(bad).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it("ends every record with CRLF, its cells in the order given", () => {
    const csv = csvRow(["name", "email"]) + csvRow(["A, B", "a@example.com"]) + csvRow([null, "=cmd|' /C calc'!A0"]);
    expect(csv).toBe("name,email\r\n\"A, B\",a@example.com\r\n,'=cmd|' /C calc'!A0\r\n");
  });
});
