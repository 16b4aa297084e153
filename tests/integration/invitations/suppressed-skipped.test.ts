/**
 * Suppressed people are never handed out for mailing (issue 48, item 6): of 25 confirmed, the first 5 in line
 * hard-bounced or complained. The mail-csv export leaves them out and says so (5), the wave preview counts only
 * whom it will really invite (20 of 20 asked), and a mail-off wave of 5 writes and invites 5 others. On every backend.
 */
import { describe, expect, it } from "vitest";
import { openExport, suppressedLeftOut } from "../../../src/server/export";
import { earlyAccessBase, previewWave, runWave } from "../../../src/server/invitations";
import { backends, useBackend } from "../../support/backends";
import { ACCESS, ORIGIN } from "../../support/invitations-harness";

const person = (n: number) => `p${String(n).padStart(2, "0")}@example.com`;

describe.each(backends("suppressedskip"))("the suppressed are left out of mailing, on %s", (_n, available, open) => {
  const backend = useBackend(available, open);
  const seed = async () => {
    const db = backend.store.db;
    await db.query(`INSERT INTO waitlist (email, status, created_at, address_key)
      SELECT 'p' || lpad(n::text, 2, '0') || '@example.com', 'confirmed', '2026-03-01'::timestamptz + n * interval '1 minute', 'key-' || n
      FROM generate_series(1, 25) n`);
    await db.query(`INSERT INTO mail_suppression (address_key, reason, evidence, source)
      SELECT 'key-' || n, CASE WHEN n % 2 = 0 THEN 'complaint' ELSE 'hard_bounce' END, 'smtp: 550', 'smtp'
      FROM generate_series(1, 5) n`);
  };

  it.runIf(available)("mail-csv: 20 rows, 5 left out and said so", async () => {
    await seed();
    const body = await openExport(backend.store, "mail-csv", { timeoutMs: 10_000 });
    const lines = (await new Response(body).text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe("email,name");
    expect(lines[1]).toBe("p06@example.com,");
    expect(lines.some((line) => /^p0[1-5]@/.test(line))).toBe(false);
    expect(await suppressedLeftOut(backend.store.db, {})).toBe(5);
    // The full CSV still lists everyone: it is the team's record, not a mailing list.
    const all = await new Response(await openExport(backend.store, "csv", { timeoutMs: 10_000 })).text();
    expect(all.split("\r\n").filter(Boolean)).toHaveLength(26);
  });

  it.runIf(available)("the preview of a wave of 20 names 20 who will be invited, none suppressed", async () => {
    const preview = await previewWave(backend.store, 20);
    expect(preview).toMatchObject({ count: 20, available: 20, interrupted: 0 });
    expect(preview.first).toBe("2026-03-01T00:06:00.000Z");
    expect(preview.last).toBe("2026-03-01T00:25:00.000Z");
  });

  it.runIf(available)(
    "with mail off, a wave of 5 writes and invites 5 others; the suppressed stay confirmed",
    async () => {
      let csv = "";
      const report = await runWave({
        store: backend.store,
        next: 5,
        delivery: {
          kind: "csv",
          write: async (text) => {
            csv += text;
          },
        },
        accessUrl: earlyAccessBase(ACCESS),
        siteUrl: ORIGIN,
        ttlDays: 30,
      });
      expect(report).toMatchObject({ invited: 5, refused: 0 });
      expect(
        csv
          .split("\r\n")
          .filter(Boolean)
          .map((row) => row.split(",")[0]),
      ).toEqual([6, 7, 8, 9, 10].map(person));
      const rows = await backend.store.db.query<{ status: string; n: number }>(
        "SELECT status, count(*)::int AS n FROM waitlist WHERE mail_suppressed GROUP BY status",
      );
      expect(rows).toEqual([{ status: "confirmed", n: 5 }]);
    },
  );
});
