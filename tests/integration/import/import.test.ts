/**
 * Importing a list from another tool (src/server/import/), on the embedded Postgres and (when 127.0.0.1:5432
 * answers) PostgreSQL directly and through Neon's HTTP protocol, with DATA_KEY set: the dry run changes nothing;
 * rows are sealed and keyed like every sign-up, at their place from the file; a listed address is left as it is;
 * consent is never invented; unsubscribes and bounces are suppressed; refused rows are named by line; a killed
 * import goes on, and a second run adds nobody and mails nobody twice.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import { rootKey } from "../../../src/server/crypto/keys";
import { parseDataKey } from "../../../src/server/data-key";
import { formatEntries } from "../../../src/server/export/rows";
import { type ImportFile, importFile, sendImportConfirmations } from "../../../src/server/import";
import { createSmtpMailer } from "../../../src/server/mail/mailer";
import { suppressedMailer } from "../../../src/server/suppression";
import { backends, useBackend } from "../../support/backends";
import { startSmtp } from "../../support/smtp";

const FIXTURES = join(import.meta.dirname, "../../support/fixtures/import");
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const KEYS = { current: parseDataKey(Buffer.alloc(32, 7).toString("base64")), previous: null };
const NOW = new Date("2026-11-29T12:00:00Z");

async function* chunksOf(bytes: Uint8Array, size = 64) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const fileOf = (name: string, bytes: Uint8Array): ImportFile => ({ name, open: () => chunksOf(bytes) });

/** Mailchimp's export: its three CSVs in a ZIP, with a member named to climb out of any folder (only a label). */
const mailchimpZip = () =>
  zipSync({
    "subscribed_members_export_1a2b3c.csv": fixture("subscribed_members_export_1a2b3c.csv"),
    "../../unsubscribed_members_export_1a2b3c.csv": fixture("unsubscribed_members_export_1a2b3c.csv"),
    "cleaned_members_export_1a2b3c.csv": fixture("cleaned_members_export_1a2b3c.csv"),
    "__MACOSX/._subscribed_members_export_1a2b3c.csv": new Uint8Array([0, 5, 22, 7]),
  });

/** Every table an import may write, whole: equal before and after means nothing changed. */
const TABLES = ["waitlist", "mail_suppression", "waitlist_import", "waitlist_import_row", "waitlist_audit"];

describe.each(backends("import"))("import, on %s", (_name, available, open) => {
  const backend = useBackend(available, async () => {
    const opened = await open();
    return { ...opened, store: createStore(opened.store.db, KEYS) };
  });
  const db = () => backend.store.db;
  const run = (file: ImportFile, more: Partial<Parameters<typeof importFile>[0]> = {}) =>
    importFile({
      store: backend.store,
      file,
      consent: "ask",
      source: null,
      apply: true,
      actor: "CLI",
      now: NOW,
      ...more,
    });
  const dump = async () => {
    const all: Record<string, unknown> = {};
    for (const table of TABLES) all[table] = await db().query(`SELECT * FROM ${table} ORDER BY 1, 2`);
    return JSON.stringify(all);
  };
  const rowOf = async (email: string) => {
    const people = await formatEntries(await backend.store.list(), "json");
    return (JSON.parse(people) as Array<Record<string, unknown>>).find((p) => p["email"] === email);
  };

  it.runIf(available)("a dry run counts, names the first refused lines, and changes nothing", async () => {
    const before = await dump();
    const report = await run(fileOf("messy.csv", fixture("messy.csv")), { apply: false });
    expect(report.formats).toEqual([
      { file: "messy.csv", format: "a CSV with an email column", reads: expect.any(Array) },
    ]);
    expect([report.added, report.existing, report.suppressed, report.refused]).toEqual([4, 0, 0, 4]);
    expect(report.firstReasons).toEqual([
      { file: "messy.csv", line: 5, reason: "invalid address" },
      { file: "messy.csv", line: 7, reason: "the same address as line 2" },
      { file: "messy.csv", line: 8, reason: "invalid address" },
      { file: "messy.csv", line: 10, reason: "name is longer than 100 characters" },
    ]);
    expect(await dump()).toBe(before);
  });

  it.runIf(available)(
    "Mailchimp's ZIP: confirmed with its times, sealed, unsubscribes and bounces suppressed",
    async () => {
      // Ada is on the list already, signed up here: her row, date and consent stay hers.
      await backend.store.add({ name: "Ada here", email: "ADA@example.com", message: null }, "pending");
      const [ada] = await db().query<{ created_at: unknown }>("SELECT created_at FROM waitlist");
      const report = await run(fileOf("mailchimp.zip", mailchimpZip()), { consent: "confirmed" });
      expect(report.formats.map((f) => [f.file, f.format])).toEqual([
        ["subscribed_members_export_1a2b3c.csv", "Mailchimp (subscribed)"],
        ["unsubscribed_members_export_1a2b3c.csv", "Mailchimp (unsubscribed)"],
        ["cleaned_members_export_1a2b3c.csv", "Mailchimp (cleaned)"],
      ]);
      expect([report.added, report.existing, report.suppressed, report.refused]).toEqual([1, 1, 2, 0]);
      const grace = await rowOf("grace@example.com");
      expect(grace).toMatchObject({
        name: "Grace Hopper",
        status: "confirmed",
        created_at: "2023-11-20T14:00:00.000Z",
        confirmed_at: "2023-11-20T14:00:00.000Z",
        source: "import",
        medium: "import",
        terms_version: null,
      });
      expect(await rowOf("ADA@example.com")).toMatchObject({ name: "Ada here", status: "pending", confirmed_at: null });
      const [still] = await db().query<{ created_at: unknown }>(
        "SELECT created_at FROM waitlist WHERE name IS NULL ORDER BY id LIMIT 1",
      );
      expect(String(still?.created_at)).toBe(String(ada?.created_at));
      // Sealed and keyed like every sign-up: no address or name in clear.
      const stored = await db().query<Record<string, unknown>>("SELECT email, name, key_id, mailbox_key FROM waitlist");
      for (const row of stored) {
        expect(String(row["email"])).toMatch(/^hmac:[0-9a-f]{64}$/);
        expect(row["name"]).toBeNull();
        expect(row["key_id"]).toBe(KEYS.current.id);
      }
      const consent = await db().query(
        "SELECT part, line, consent_evidence FROM waitlist_import_row WHERE outcome = 'added'",
      );
      expect(consent).toEqual([{ part: 0, line: 3, consent_evidence: "Mailchimp OPTIN_TIME" }]);
      const suppressed = await db().query("SELECT reason, evidence, source FROM mail_suppression ORDER BY evidence");
      expect(suppressed).toEqual([
        { reason: "imported", evidence: "imported: Mailchimp: cleaned (bounced)", source: "import" },
        { reason: "imported", evidence: "imported: Mailchimp: unsubscribed (No longer interested)", source: "import" },
      ]);
    },
  );

  it.runIf(available)("--consent confirmed refuses rows without evidence; a second run adds nobody", async () => {
    const file = fileOf("buttondown.csv", fixture("buttondown.csv"));
    const first = await run(file, { consent: "confirmed" });
    expect([first.added, first.suppressed, first.refused]).toEqual([1, 1, 1]);
    expect(first.firstReasons).toEqual([
      { file: "buttondown.csv", line: 3, reason: "no evidence of consent in the file (--consent confirmed needs it)" },
    ]);
    const people = await backend.store.count();
    const second = await run(file, { consent: "confirmed" });
    expect(second.alreadyDone).toBe(true);
    expect(await backend.store.count()).toBe(people);
    const audits = await db().query<{ details: Record<string, unknown> }>(
      "SELECT details FROM waitlist_audit WHERE action = 'import' AND details->>'file' = 'buttondown.csv' ORDER BY id",
    );
    expect(audits.map((a) => a.details["phase"])).toEqual(["started", "ended"]);
    expect(audits[1]?.details).toMatchObject({ added: 1, existing: 0, suppressed: 1, refused: 1 });
    await expect(run(file, { consent: "ask" })).rejects.toThrow(/imported on .* with --consent confirmed/);
  });

  it.runIf(available)("killed half-way, the same file goes on: every row once", async () => {
    const lines = ["email,name,signed_up_at"];
    for (let i = 0; i < 5000; i++) lines.push(`p${i}@bulk.example,Person ${i},2020-01-01T00:00:00Z`);
    const bytes = Buffer.from(lines.join("\n"));
    let opens = 0;
    const dying: ImportFile = {
      name: "bulk.csv",
      async *open() {
        opens++;
        let given = 0;
        for await (const chunk of chunksOf(bytes, 4096)) {
          yield chunk;
          given += chunk.length;
          // The third read is the rows' (the first hashes, the second looks for a ZIP): killed after about 4,000 rows (read ahead of the parser by up to 64 KB).
          if (opens === 3 && given > 4000 * 36) throw new Error("killed");
        }
      },
    };
    await expect(run(dying)).rejects.toThrow("killed");
    const [partial] = await db().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM waitlist WHERE source = 'import' AND created_at = '2020-01-01T00:00:00Z'",
    );
    expect(Number(partial?.n)).toBeGreaterThanOrEqual(1000);
    expect(Number(partial?.n)).toBeLessThan(5000);
    const report = await run(dying);
    expect([report.added, report.existing, report.refused]).toEqual([5000, 0, 0]);
    const [all] = await db().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM waitlist WHERE created_at = '2020-01-01T00:00:00Z'",
    );
    expect(Number(all?.n)).toBe(5000);
  });

  it.runIf(available)("asking consent: one confirmation each, never twice, never to a suppressed address", async () => {
    const smtp = await startSmtp();
    try {
      await db().query("UPDATE waitlist_webhook_state SET enabled = true");
      const config = readConfig({
        SMTP_URL: smtp.url,
        MAIL_FROM: "Noosphere <hello@example.com>",
        SITE_URL: "https://waitlist.example",
      });
      const report = await run(fileOf("kit.csv", fixture("kit.csv")));
      expect([report.added, report.suppressed, report.unmailed]).toEqual([2, 2, 2]);
      const events = await db().query<{ type: string }>(
        "SELECT type FROM waitlist_webhook_event WHERE occurred_at >= (SELECT started_at FROM waitlist_import WHERE file_name = 'kit.csv') ORDER BY occurred_at, id",
      );
      expect(events.map((e) => e.type).filter((t) => t === "waitlist.signed_up")).toHaveLength(2);
      // Val is suppressed on this list already (an operator stopped mail to her): she is added, never mailed.
      const mailer = suppressedMailer(
        createSmtpMailer(config.mail as NonNullable<typeof config.mail>),
        config,
        async () => backend.store,
      );
      // Each added row is keyed by its exact address (migration 0021), as a sign-up's is.
      const unkeyed = await db().query<{ n: number }>(
        "SELECT count(*)::int AS n FROM waitlist WHERE source = 'import' AND address_key IS NULL",
      );
      expect(unkeyed[0]?.n).toBe(0);
      const { databaseKey } = await import("../../../src/server/crypto/keys");
      const { addressKey } = await import("../../../src/server/mail/mailbox");
      const key = addressKey(await databaseKey(backend.store), "val@example.com");
      await db().query(
        "INSERT INTO mail_suppression (address_key, reason, evidence, source) VALUES ($1, 'operator', 'test', 'test')",
        [key],
      );
      const marked = await db().query<{ s: boolean }>(
        "SELECT mail_suppressed AS s FROM waitlist WHERE address_key = $1",
        [key],
      );
      expect(marked.map((row) => row.s)).toEqual([true]);
      const root = await rootKey(config, backend.store);
      const send = () =>
        sendImportConfirmations(Number(report.importId), {
          store: backend.store,
          mailer,
          root,
          site: "https://waitlist.example",
          owner: `test-${process.pid}`,
          ratePerSecond: 0,
        });
      const first = await send();
      expect(first).toEqual({ sent: 2, skipped: 0, remaining: 0 });
      expect(await smtp.waitFor("ivy@example.com", 1)).toHaveLength(1);
      const again = await send();
      expect(again).toBeNull();
      mailer.close();
      expect(smtp.messages.map((m) => m.to)).toEqual(["ivy@example.com"]);
    } finally {
      await smtp.close();
    }
  });

  it.runIf(available)("a formula cell is stored as text and exported neutralised", async () => {
    await run(fileOf("messy.csv", fixture("messy.csv")), { source: "old-sheet" });
    const stored = await rowOf("formula@example.com");
    expect(stored?.["name"]).toBe('=HYPERLINK("http://evil.test","x")');
    expect(stored?.["source"]).toBe("old-sheet");
    const csv = await formatEntries(await backend.store.list(), "csv");
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect((await rowOf("nodate@example.com"))?.["created_at"]).toBe(NOW.toISOString());
  });
});
