/**
 * Reading another tool's file (src/server/import/read.ts, formats.ts): the format each tool's export shows by its
 * header row, and the records of awkward files with the line each starts on (the header is line 1).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recogniseFormat } from "../../src/server/import/formats";
import { readRecords } from "../../src/server/import/read";

const FIXTURES = join(import.meta.dirname, "../support/fixtures/import");
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

async function records(bytes: Uint8Array, size = 7) {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const found: Array<[number, string[]]> = [];
  for await (const record of readRecords(chunks())) found.push([record.line, record.cells]);
  return found;
}

describe("the format a header row shows", () => {
  it.each([
    ["subscribed_members_export_1a2b3c.csv", "Mailchimp (subscribed)"],
    ["unsubscribed_members_export_1a2b3c.csv", "Mailchimp (unsubscribed)"],
    ["cleaned_members_export_1a2b3c.csv", "Mailchimp (cleaned)"],
    ["buttondown.csv", "Buttondown"],
    ["listmonk.csv", "listmonk"],
    ["getwaitlist.csv", "GetWaitlist"],
    ["waitlister.csv", "Waitlister"],
    ["kit.csv", "Kit"],
    ["bom-semicolon.csv", "a CSV with an email column"],
    ["messy.csv", "a CSV with an email column"],
  ])("%s is read as %s", async (name, label) => {
    const [header] = await records(fixture(name));
    expect(recogniseFormat(header?.[1] ?? [])?.label).toBe(label);
  });

  it("a file without an address column is no format", () => {
    expect(recogniseFormat(["name", "phone"])).toBeNull();
  });
});

describe("records, whatever the file's encoding, separator and line ends", () => {
  it("a byte-order mark and ';' separators: the BOM is not in the first column's name", async () => {
    expect(await records(fixture("bom-semicolon.csv"))).toEqual([
      [1, ["email", "name", "signed_up_at", "source", "organization"]],
      [2, ["zoe@example.com", "Zoë Ünal", "2024-07-01", "newsletter", "Acme, Inc"]],
      [3, ["yan@example.com", "Yan; the second", "2024-07-02 10:00", "", ""]],
    ]);
  });

  it("quoted line breaks, an empty line, mixed line ends and a last row without a break", async () => {
    const lines = (await records(fixture("messy.csv"))).map(([line, cells]) => [line, cells[0]]);
    expect(lines).toEqual([
      [1, "email"],
      [2, "first@example.com"],
      [5, "not-an-address"],
      [7, "FIRST@example.com"],
      [8, "=cmd|' /C calc'!A0@example.com"],
      [9, "formula@example.com"],
      [10, "long@example.com"],
      [11, "nodate@example.com"],
      [12, "last@example.com"],
    ]);
  });

  it("Excel's Unicode text: UTF-16 little-endian with a BOM, tab-separated", async () => {
    const text = "email\tname\r\nåsa@example.com\tÅsa 😀\r\n";
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    expect(await records(bytes, 5)).toEqual([
      [1, ["email", "name"]],
      [2, ["åsa@example.com", "Åsa 😀"]],
    ]);
  });

  it("a quote left open is refused with its line", async () => {
    await expect(records(Buffer.from('email,name\na@example.com,"open\n'))).rejects.toThrow(/cannot be read as CSV/);
  });
});
