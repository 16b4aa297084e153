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
  /**
   * The console's view: like `page`, but each action once — a start whose end is recorded is left out (its end
   * says what was done), by the index on details.started (migration 0014), probed once per row read: without the
   * OFFSET 0 the planner hashes every end of the log first (75–110 ms at 100,000 ends, 0.2 ms probed). An end
   * carries its start's details under its own (what was asked, such as an update's subject, beside what was done).
   */
  actions: `SELECT a.id, a.at, a.actor, a.action, coalesce(s.details, '{}'::jsonb) || a.details AS details
    FROM waitlist_audit a
    LEFT JOIN waitlist_audit s ON a.details ? 'started' AND s.id = (a.details ->> 'started')::bigint
    WHERE ($2::bigint IS NULL OR a.id < $2::bigint)
      AND NOT (a.details ->> 'phase' = 'started' AND EXISTS (
        SELECT 1 FROM waitlist_audit e WHERE e.details ? 'started' AND (e.details ->> 'started')::bigint = a.id
          OFFSET 0))
    ORDER BY a.id DESC LIMIT $1`,
  /** The only deletion the table allows: entries older than `$1` days (1 at least), through the database's function. */
  purge: "SELECT waitlist_audit_purge($1::int) AS removed",
} as const;

export function createAuditLog(db: Db) {
  const read = async (sql: string, limit: number, before: number | null): Promise<AuditEntry[]> => {
    const rows = await db.query<{ id: number; at: unknown; actor: string; action: string; details: unknown }>(sql, [
      limit,
      before,
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at as string).toISOString(),
      actor: r.actor,
      action: r.action,
      details: (typeof r.details === "string" ? JSON.parse(r.details) : r.details) as Record<string, unknown>,
    }));
  };
  return {
    /** The new entry's id. */
    async append(actor: string, action: string, details: Record<string, unknown> = {}): Promise<number> {
      const [row] = await db.query<{ id: number }>(AUDIT_SQL.append, [actor, action, JSON.stringify(details)]);
      return Number(row?.id);
    },
    /** Every entry, newest first: a start and its end are two. */
    async page(limit: number, before: number | null): Promise<AuditEntry[]> {
      return read(AUDIT_SQL.page, limit, before);
    },
    /**
     * Each action once, newest first (the console): an action that ended shows what was asked and what it did,
     * with no trace of its phases; one that started and has no end says so (still running, or stopped half-way).
     */
    async actions(limit: number, before: number | null): Promise<AuditEntry[]> {
      return (await read(AUDIT_SQL.actions, limit, before)).map((entry) => {
        const { phase, started: _started, ...details } = entry.details;
        if (phase === "started") return { ...entry, details: { ...details, state: "started, no end recorded" } };
        return phase === "ended" ? { ...entry, details } : entry;
      });
    },

    async purge(days: number): Promise<number> {
      const [row] = await db.query<{ removed: number }>(AUDIT_SQL.purge, [days]);
      return Number(row?.removed ?? 0);
    },
  };
}
