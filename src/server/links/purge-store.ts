/** Never-confirmed sign-ups, in SQL: what the daily purge (and `waitlist purge-pending`) counts and deletes. */
import type { Db } from "../db/types";

export const PURGE_SQL = {
  /**
   * Pending entries whose last sign-up or confirmation e-mail is older than $1 hours, and none of whose
   * confirmation links still works (whatever the age asked for): counted, and deleted (their tokens with them)
   * when $2 is true.
   */
  purgePending: `WITH old AS (
      SELECT id FROM waitlist w WHERE status = 'pending'
        AND greatest(created_at, coalesce(confirmation_sent_at, created_at)) < now() - make_interval(hours => $1::int)
        AND NOT EXISTS (
          SELECT 1 FROM waitlist_token t WHERE t.waitlist_id = w.id AND t.purpose = 'confirm' AND t.expires_at > now()
        )
    ), purged AS (
      DELETE FROM waitlist WHERE $2::boolean AND id IN (SELECT id FROM old) RETURNING id
    )
    SELECT (SELECT count(*)::int FROM old) AS matched, (SELECT count(*)::int FROM purged) AS purged`,
} as const;

export function createPurgeStore(db: Db) {
  return {
    async purgePending(hours: number, apply: boolean): Promise<{ matched: number; purged: number }> {
      const [row] = await db.query<{ matched: number; purged: number }>(PURGE_SQL.purgePending, [hours, apply]);
      return { matched: Number(row?.matched ?? 0), purged: Number(row?.purged ?? 0) };
    },
  };
}
