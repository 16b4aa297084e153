import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "../../src/server/csv";

describe("CSV (RFC 4180)", () => {
  it("quotes fields with commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell("cr\r\nlf")).toBe('"cr\r\nlf"');
    expect(csvCell(null)).toBe("");
  });

  it("neutralises spreadsheet formulas with a leading quote", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      const cell = csvCell(`${start}SUM(A1:A9)`);
      expect(cell.replace(/^"/, "").startsWith(`'${start}`), JSON.stringify(start)).toBe(true);
    }
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("ends every record with CRLF and keeps column order", () => {
    const csv = toCsv(
      ["name", "email"],
      [
        { email: "a@example.com", name: "A, B" },
        { email: "=cmd|' /C calc'!A0", name: null },
      ],
    );
    expect(csv).toBe("name,email\r\n\"A, B\",a@example.com\r\n,'=cmd|' /C calc'!A0\r\n");
  });
});
