/**
 * The names the audit log's sentences need (audit/names.ts), read for one page of entries at once: the updates,
 * waves, webhook events and people its entries name by id, each by its primary key, so a page of 50 costs four small
 * reads at any size of the list.
 */
import type { AuditEntry } from "../../audit";
import type { AuditNames } from "../../audit/words";
import type { Db } from "../../db/types";

export const SQL = {
  updates: `SELECT id, subject, sent, failed, finished_at IS NOT NULL AS finished FROM waitlist_update
    WHERE id = ANY($1::bigint[])`,
  waves: `SELECT id, size, invited, finished_at IS NOT NULL AS finished FROM waitlist_invite_wave
    WHERE id = ANY($1::bigint[])`,
  events: "SELECT id, type FROM waitlist_webhook_event WHERE id = ANY($1::text[])",
  /** Which of the people named are still on the list (their page can be linked). */
  people: "SELECT id FROM waitlist WHERE id = ANY($1::bigint[])",
} as const;

const ids = (entries: readonly AuditEntry[], pick: (d: Record<string, unknown>) => unknown) => [
  ...new Set(entries.map((e) => pick(e.details)).filter((v): v is number => typeof v === "number")),
];

/** The names the entries' sentences need, and which of the people they name are still on the list. */
export async function auditNames(
  db: Db,
  entries: readonly AuditEntry[],
): Promise<AuditNames & { people: ReadonlySet<number> }> {
  const job = (kind: string) => (d: Record<string, unknown>) => (d["kind"] === kind ? d["id"] : undefined);
  const updateIds = [...new Set([...ids(entries, (d) => d["update"]), ...ids(entries, job("update"))])];
  const waveIds = [...new Set([...ids(entries, (d) => d["wave"]), ...ids(entries, job("wave"))])];
  const eventIds = [
    ...new Set(entries.map((e) => e.details["event"]).filter((v): v is string => typeof v === "string")),
  ];
  const personIds = ids(entries, (d) => d["person"]);
  const [updates, waves, events, people] = await Promise.all([
    updateIds.length
      ? db.query<{ id: number; subject: string; sent: number; failed: number; finished: boolean }>(SQL.updates, [
          updateIds,
        ])
      : [],
    waveIds.length
      ? db.query<{ id: number; size: number; invited: number; finished: boolean }>(SQL.waves, [waveIds])
      : [],
    eventIds.length ? db.query<{ id: string; type: string }>(SQL.events, [eventIds]) : [],
    personIds.length ? db.query<{ id: number }>(SQL.people, [personIds]) : [],
  ]);
  return {
    updates: new Map(
      updates.map((u) => [
        Number(u.id),
        { subject: u.subject, sent: Number(u.sent), failed: Number(u.failed), finished: u.finished },
      ]),
    ),
    waves: new Map(
      waves.map((w) => [Number(w.id), { size: Number(w.size), invited: Number(w.invited), finished: w.finished }]),
    ),
    events: new Map(events.map((e) => [e.id, e.type])),
    people: new Set(people.map((p) => Number(p.id))),
  };
}
