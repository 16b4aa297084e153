/**
 * Downloads in parts Netlify can serve (src/server/export/parts.ts), on the embedded Postgres and (when
 * 127.0.0.1:5432 answers) PostgreSQL directly and through Neon's HTTP protocol: a row is charged at least the bytes
 * it becomes in every format, even the longest and most escaped rows; parts are cut when the page is made (a
 * sign-up after it is in no part, no row is in two); and the HTTP export walks its parts by cursor, with
 * `Link: rel="next"` until the last, 400 for a cursor it did not make, gzip for a reader that accepts it.
 */
import { gunzipSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createExportHandler } from "../../../src/server/export/handler";
import { nextPart, PART_BYTES, PART_ROWS, planParts, ROW_COST } from "../../../src/server/export/parts";
import { type ExportFormat, formatEntries, openExport } from "../../../src/server/export/rows";
import { backends, useBackend } from "../../support/backends";

const TOKEN = "parts-token-0123456789abcdef0123456789";
const FORMATS: ExportFormat[] = ["csv", "mail-csv", "json"];
const MS = 5000;

type Row = Record<string, string | null>;

/** Every column at its limit (rules.ts LIMITS, attribution.ts), in emoji where the field allows them. */
const emoji = (n: number) => "😀".repeat(n);
function withMessage(row: Row): Row {
  const parts = [
    ["Organization: ", row["organization"]],
    ["Why: ", row["why"]],
    ["Connect: ", row["connect"]],
  ];
  return { ...row, message: parts.map(([prefix, text]) => `${prefix}${text}`).join("\n\n") };
}
const LONGEST = withMessage({
  name: emoji(100),
  email: `${"a-".repeat(121)}a@example.com`,
  organization: emoji(200),
  why: emoji(1000),
  connect: emoji(1000),
  source: emoji(100),
  medium: emoji(100),
  campaign: emoji(100),
  referrer: `${"a-".repeat(126)}a`,
  page: `/${emoji(199)}`,
});
/** Quotes before formula characters: doubled in CSV, with the guard's `'`; escaped in JSON. */
const QUOTED = withMessage({
  name: '"='.repeat(50),
  email: `${"-".repeat(200)}@example.com`,
  organization: '"+'.repeat(100),
  why: '"@'.repeat(500),
  connect: '"-'.repeat(500),
  source: '"='.repeat(50),
  medium: ",=".repeat(50),
  campaign: ";@".repeat(50),
  referrer: `a${"-".repeat(251)}a`,
  page: `/${'"='.repeat(99)}"`,
});
/** Line breaks, tabs and backslashes, which JSON escapes and the CSV guard marks. */
const BROKEN = withMessage({
  name: "\\".repeat(100),
  email: "tabs@example.com",
  organization: "\\=".repeat(100),
  why: '\n\t\\"'.repeat(250),
  connect: "\r\n\t=".repeat(250),
  source: null,
  medium: null,
  campaign: null,
  referrer: null,
  page: null,
});

describe.each(backends("parts"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const config = readConfig({ WAITLIST_ADMIN_TOKEN: TOKEN, RATE_LIMIT_MAX: "1000" });
  const small = { bytes: 1_000_000_000, rows: 4 };
  const handler = createExportHandler({ store: async () => backend.store, config: () => config, partSize: small });
  const get = (query = "", headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://localhost/api/waitlist/export${query}`, {
        headers: { Authorization: `Bearer ${TOKEN}`, ...headers },
      }),
    );

  /** Rows with every column set, ids from 1. */
  async function seed(rows: Row[]) {
    await backend.store.db.query("DELETE FROM waitlist");
    await backend.store.db.query("ALTER TABLE waitlist ALTER COLUMN id RESTART");
    for (const row of rows) await insert(row);
  }
  async function insert(row: Row) {
    const columns = Object.keys(row);
    await backend.store.db.query(
      `INSERT INTO waitlist (${columns.join(", ")}, terms_version, status, created_at, confirmed_at, invited_at, joined_at)
       VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")}, '2d81b8fd62c70c2e', 'joined', $${columns.length + 1},
         $${columns.length + 1}, $${columns.length + 1}, $${columns.length + 1})`,
      [...Object.values(row), "2026-01-01T00:00:00.000Z"],
    );
  }
  /** `n` copies of `row`, alike but for the first letter of their address (one entry per address). */
  const copies = (row: Row, n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...row, email: `${String.fromCharCode(97 + i)}${row["email"]?.slice(1)}` }));
  const people = (n: number, from = 1) =>
    Array.from({ length: n }, (_, i) => ({ name: `Person ${from + i}`, email: `p${from + i}@example.com` }));
  const emails = (text: string) => text.match(/p\d+@example\.com/g) ?? [];

  beforeEach(async () => {
    if (available) await backend.store.db.query("DELETE FROM waitlist_rate_limit");
  });

  it.runIf(available)("charges the longest row what the arithmetic in export-parts.ts says", async () => {
    await seed(copies(LONGEST, 3));
    // Its text: 20,553 bytes, and 252 characters that may grow (the address's and host's dashes, its @, the
    // message's four line breaks); then each format's cost of a row.
    const text = 20_553 + 252;
    for (const format of FORMATS) {
      const charge = text + ROW_COST[format];
      const part = (bytes: number) => nextPart(backend.store, format, 0, 3, MS, { bytes, rows: PART_ROWS });
      expect(await part(3 * charge)).toEqual({ from: 0, to: 3, rows: 3 });
      expect(await part(3 * charge - 1)).toEqual({ from: 0, to: 2, rows: 2 });
    }
    // At the limits every row could reach (21,068 bytes of text), a part of 16 MB still holds 741 of them.
    expect(Math.floor(PART_BYTES / (21_068 + ROW_COST.json))).toBe(741);
  });

  it.runIf(available)("charges every row at least the bytes it becomes, in every format", async () => {
    for (const row of [LONGEST, QUOTED, BROKEN]) {
      await seed(copies(row, 2));
      const [entry] = await backend.store.list();
      for (const format of FORMATS) {
        // One more row of the file: its line, or its object and the `,\n` before it.
        const one = await formatEntries([entry as NonNullable<typeof entry>], format);
        const two = await formatEntries(
          [entry as NonNullable<typeof entry>, entry as NonNullable<typeof entry>],
          format,
        );
        const bytes = Buffer.byteLength(two) - Buffer.byteLength(one);
        // Two rows fit only if two charges do: so one row alone here means each was charged at least `bytes`.
        const part = await nextPart(backend.store, format, 0, 2, MS, { bytes: 2 * bytes - 1, rows: PART_ROWS });
        expect(part?.rows, `${format}: ${bytes} bytes a row`).toBe(1);
      }
    }
  });

  it.runIf(available)("cuts parts when the page is made: a later sign-up is in none, no row in two", async () => {
    await seed(people(10));
    const { through, parts } = await planParts(backend.store, "csv", MS, small);
    expect(through).toBe(10);
    expect(parts).toEqual([
      { from: 0, to: 4, rows: 4 },
      { from: 4, to: 8, rows: 4 },
      { from: 8, to: 10, rows: 2 },
    ]);
    // After the page: a sign-up arrives, and one listed is removed.
    await insert(people(1, 11)[0] as Row);
    await backend.store.erase("p6@example.com");
    const files = [];
    for (const part of parts) {
      const options = { timeoutMs: MS, after: part.from, through: part.to };
      files.push(await new Response(await openExport(backend.store, "csv", options)).text());
    }
    for (const file of files) expect(file.startsWith("created_at,name,email,message,status,")).toBe(true);
    expect(files.map(emails)).toEqual([
      ["p1@example.com", "p2@example.com", "p3@example.com", "p4@example.com"],
      ["p5@example.com", "p7@example.com", "p8@example.com"],
      ["p9@example.com", "p10@example.com"],
    ]);
  });

  it.runIf(available)(
    "the HTTP export walks the parts by cursor, Link after Link, to the ceiling of its start",
    async () => {
      await seed(people(10));
      const first = await get();
      expect(first.status).toBe(200);
      expect(first.headers.get("link")).toBe('</api/waitlist/export?after=4-10>; rel="next"');
      // Arriving during the walk: beyond the ceiling the first answer fixed, so in no part.
      await insert(people(1, 11)[0] as Row);
      const second = await get("?after=4-10");
      expect(second.headers.get("link")).toBe('</api/waitlist/export?after=8-10>; rel="next"');
      const last = await get("?after=8-10");
      expect(last.headers.get("link")).toBeNull();
      const texts = [await first.text(), await second.text(), await last.text()];
      for (const text of texts) expect(text.split("\r\n")[0]).toMatch(/^created_at,name,email,/);
      expect(texts.flatMap(emails)).toEqual(people(10).map((p) => p.email));

      // The request's other parameters go on in the link; JSON parts are whole arrays.
      const json = await get("?format=json&confirmed-only");
      expect(json.headers.get("link")).toBe(
        '</api/waitlist/export?format=json&confirmed-only=&after=4-11>; rel="next"',
      );
      expect(await json.json()).toEqual([]);
      const joined = await get("?format=json");
      expect(joined.headers.get("link")).toBe('</api/waitlist/export?format=json&after=4-11>; rel="next"');
      expect((await joined.json()).map((e: { email: string }) => e.email)).toEqual(emails(texts[0] ?? ""));
    },
  );

  it.runIf(available)("a cursor it did not make is a 400 that reads nothing", async () => {
    await seed(people(3));
    for (const cursor of ["abc", "5", "5-", "-5", "4-3", "01-5", "1-1234567890123456", "1-2-3", "1.5-9"]) {
      const res = await get(`?after=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(await res.json()).toEqual({
        error: "after must be a cursor from this export's Link header, as given (such as 1200-50000).",
      });
    }
    // Past the end (a cursor from an export whose rest was removed): the header alone, and no next.
    const end = await get("?after=3-3");
    expect(end.headers.get("link")).toBeNull();
    expect(await end.text()).toBe(
      "created_at,name,email,message,status,invited_at,joined_at,source,medium,campaign,referrer,page,organization,why,connect,terms_version,confirmed_at,referral_code,referred_by,referrals\r\n",
    );
  });

  it.runIf(available)("compresses a part for a reader that accepts gzip, and only then", async () => {
    await seed(people(10));
    const plain = await get("", { "Accept-Encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const text = await plain.text();
    const zipped = await get("", { "Accept-Encoding": "br, gzip;q=0.8" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("link")).toBe('</api/waitlist/export?after=4-10>; rel="next"');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString("utf8")).toBe(text);
    expect((await get("", { "Accept-Encoding": "gzip;q=0" })).headers.get("content-encoding")).toBeNull();
  });
});
