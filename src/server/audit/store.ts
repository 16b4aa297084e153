/**
 * The team's audit log in SQL: an entry per action (who, when, what, details), appended, never changed; the daily
 * purge deletes entries older than AUDIT_DAYS. The database holds it to that (migration 0013): an UPDATE, a
 * TRUNCATE or any other DELETE of an entry is refused. Details never hold a signed-up person's address.
 */
import type { Db } from "../db/types";

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  details: Record<string, unknown>;
}

export const AUDIT_SQL = {
  append: "INSERT INTO waitlist_audit (actor, action, details) VALUES ($1, $2, $3::jsonb) RETURNING id",
  /** Up to `$1` entries older than entry `$2` (null: from the newest), newest first. */
  page: `SELECT id, at, actor, action, details FROM waitlist_audit
    WHERE ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $1`,
  /** The only deletion the table allows: entries older than `$1` days (1 at least), through the database's function. */
  purge: "SELECT waitlist_audit_purge($1::int) AS removed",
} as const;

export function createAuditLog(db: Db) {
  return {
    /** The new entry's id. */
    async append(actor: string, action: string, details: Record<string, unknown> = {}): Promise<number> {
      const [row] = await db.query<{ id: number }>(AUDIT_SQL.append, [actor, action, JSON.stringify(details)]);
      return Number(row?.id);
    },
    async page(limit: number, before: number | null): Promise<AuditEntry[]> {
      const rows = await db.query<{ id: number; at: unknown; actor: string; action: string; details: unknown }>(
        AUDIT_SQL.page,
        [limit, before],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        at: new Date(r.at as string).toISOString(),
        actor: r.actor,
        action: r.action,
        details: (typeof r.details === "string" ? JSON.parse(r.details) : r.details) as Record<string, unknown>,
      }));
    },
    async purge(days: number): Promise<number> {
      const [row] = await db.query<{ removed: number }>(AUDIT_SQL.purge, [days]);
      return Number(row?.removed ?? 0);
    },
  };
}
