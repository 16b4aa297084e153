/**
 * The audit log is append-only in the database itself (migration 0013): an UPDATE, a DELETE or a TRUNCATE of it is
 * refused whoever sends it; only the purge deletes, and only entries older than AUDIT_DAYS (a day at least). On
 * PGlite, PostgreSQL and Neon's HTTP protocol, where each statement is its own transaction.
 */
import { describe, expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { backends, useBackend } from "../../support/backends";

describe.each(backends("audit_append"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);

  const refusal = (sql: string) =>
    backend.store.db.query(sql).then(
      () => "done",
      (error: Error) => error.message,
    );
  const actions = async () =>
    (await backend.store.db.query<{ action: string }>("SELECT action FROM waitlist_audit ORDER BY id")).map(
      (r) => r.action,
    );

  it.skipIf(!available)(
    "an entry cannot be changed, deleted or truncated; the purge removes only old ones",
    async () => {
      const log = createAuditLog(backend.store.db);
      await log.append("ops@example.com", "sign-in", { by: "link" });
      await backend.store.db.query(
        `INSERT INTO waitlist_audit (at, actor, action) VALUES (now() - interval '400 days', 'CLI', 'old-wave'),
        (now() - interval '30 days', 'CLI', 'month-old'), (now() - interval '2 hours', 'CLI', 'hours-old')`,
      );
      expect(await refusal("UPDATE waitlist_audit SET actor = 'someone else'")).toBe(
        "waitlist_audit is append-only: UPDATE refused (entries older than AUDIT_DAYS go by waitlist_audit_purge)",
      );
      expect(await refusal("DELETE FROM waitlist_audit WHERE action = 'sign-in'")).toBe(
        "waitlist_audit is append-only: DELETE refused (entries older than AUDIT_DAYS go by waitlist_audit_purge)",
      );
      // Old is not enough: a DELETE of its own is refused too.
      expect(await refusal("DELETE FROM waitlist_audit WHERE action = 'old-wave'")).toBe(
        "waitlist_audit is append-only: DELETE refused (entries older than AUDIT_DAYS go by waitlist_audit_purge)",
      );
      expect(await refusal("TRUNCATE waitlist_audit")).toBe(
        "waitlist_audit is append-only: TRUNCATE refused (entries older than AUDIT_DAYS go by waitlist_audit_purge)",
      );
      expect(await actions()).toEqual(["sign-in", "old-wave", "month-old", "hours-old"]);

      expect(await log.purge(365)).toBe(1);
      expect(await actions()).toEqual(["sign-in", "month-old", "hours-old"]);
      // AUDIT_DAYS=1: a day old goes; an entry of hours stays, whatever days the purge is given.
      expect(await log.purge(1)).toBe(1);
      expect(await log.purge(0)).toBe(0);
      expect(await actions()).toEqual(["sign-in", "hours-old"]);
      // The purge's permission ended with it.
      expect(await refusal("DELETE FROM waitlist_audit")).toBe(
        "waitlist_audit is append-only: DELETE refused (entries older than AUDIT_DAYS go by waitlist_audit_purge)",
      );
    },
  );
});
