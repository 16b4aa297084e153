/**
 * The suppression list in SQL (migration 0016): who must not be mailed and why, what was sent (to correlate what
 * comes back), and what came back (once per provider event). Every statement is one statement, so two events for
 * one mailbox at once, or one event delivered twice, change things once. Keys are mailbox keys (mailbox.ts): no
 * address is ever stored here.
 */
import type { Db } from "../db/types";

/** `imported`: brought from another tool's unsubscribes or bounces (src/server/import/, migration 0022). */
export type SuppressionReason = "hard_bounce" | "complaint" | "soft_bounces" | "operator" | "imported";
export type MailEventKind = "hard_bounce" | "soft_bounce" | "complaint";

/** Soft bounces within this many days that suppress a mailbox, and the count. */
export const SOFT_BOUNCE_DAYS = 30;
export const SOFT_BOUNCES = 3;

export interface Suppression {
  reason: SuppressionReason;
  evidence: string;
  source: string;
  suppressedAt: string;
  liftedAt: string | null;
  liftedBy: string | null;
}

/** A sent message found again by an event: its mailbox and the update it belongs to. */
export interface SentMessage {
  mailboxKey: string;
  updateId: number | null;
}

export interface UpdateReputation {
  sent: number;
  hardBounces: number;
  softBounces: number;
  complaints: number;
}

export const SUPPRESSION_SQL = {
  /** Whether any of `$1` (mailbox keys) is suppressed and not lifted. */
  suppressed: "SELECT 1 FROM mail_suppression WHERE mailbox_key = ANY($1::text[]) AND lifted_at IS NULL LIMIT 1",
  /**
   * Suppresses `$1` for `$2` with evidence `$3` from `$4`: a new row, or a lifted one suppressed again; one already
   * suppressed keeps its first reason. True when this statement suppressed it.
   */
  suppress: `INSERT INTO mail_suppression (mailbox_key, reason, evidence, source) VALUES ($1, $2, $3, $4)
    ON CONFLICT (mailbox_key) DO UPDATE SET reason = EXCLUDED.reason, evidence = EXCLUDED.evidence,
      source = EXCLUDED.source, suppressed_at = now(), lifted_at = NULL, lifted_by = NULL
    WHERE mail_suppression.lifted_at IS NOT NULL
    RETURNING mailbox_key`,
  /**
   * Records a soft bounce for `$1` (evidence `$2`) and says how many it has within SOFT_BOUNCE_DAYS since its last
   * lift (this one counted); older ones are pruned by the same statement.
   */
  softBounce: `WITH pruned AS (DELETE FROM mail_soft_bounce WHERE mailbox_key = $1
      AND at < now() - make_interval(days => ${SOFT_BOUNCE_DAYS})),
    added AS (INSERT INTO mail_soft_bounce (mailbox_key, evidence) VALUES ($1, $2) RETURNING at)
    SELECT 1 + count(*)::int AS bounces FROM mail_soft_bounce b
    WHERE b.mailbox_key = $1 AND b.at >= now() - make_interval(days => ${SOFT_BOUNCE_DAYS})
      AND b.at > coalesce((SELECT lifted_at FROM mail_suppression s WHERE s.mailbox_key = $1), '-infinity')`,
  /** Records an e-mail as accepted: Message-ID `$1`, the server's id `$2`, mailbox `$3`, kind `$4`, update `$5`. */
  sent: `INSERT INTO mail_sent (message_id, provider_id, mailbox_key, kind, update_id) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (message_id) DO UPDATE SET provider_id = EXCLUDED.provider_id, sent_at = now()`,
  /** The message an event names, by its Message-ID (with or without <>) or the provider's id. */
  message: `SELECT mailbox_key, update_id FROM mail_sent
    WHERE message_id = ANY($1::text[]) OR provider_id = ANY($1::text[]) ORDER BY sent_at DESC LIMIT 1`,
  /** Records event `$2` of `$1` once: false when it was recorded already (a provider's retry). */
  event: `INSERT INTO mail_event (provider, event_id, kind, mailbox_key, update_id, evidence)
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
  get: `SELECT reason, evidence, source, suppressed_at, lifted_at, lifted_by FROM mail_suppression
    WHERE mailbox_key = $1`,
  /** Lifts `$1` (by `$2`): true when it was suppressed. */
  lift: `UPDATE mail_suppression SET lifted_at = now(), lifted_by = $2 WHERE mailbox_key = $1 AND lifted_at IS NULL
    RETURNING mailbox_key`,
  /** An update's messages accepted and what came back for them. */
  reputation: `SELECT (SELECT count(*)::int FROM waitlist_update_recipient WHERE update_id = $1 AND state = 'sent') AS sent,
    count(*) FILTER (WHERE kind = 'hard_bounce')::int AS hard,
    count(*) FILTER (WHERE kind = 'soft_bounce')::int AS soft,
    count(*) FILTER (WHERE kind = 'complaint')::int AS complaints
    FROM mail_event WHERE update_id = $1`,
  /** Withdraws consent to updates from everyone of mailbox `$1` who had given it, in words `$2`; how many. */
  withdraw: `UPDATE waitlist SET updates_consent = false, updates_consent_at = now(), updates_consent_words = $2
    WHERE mailbox_key = $1 AND updates_consent IS DISTINCT FROM false RETURNING id`,
  /** Messages sent before 90 days ago are no longer looked for. */
  prune: "DELETE FROM mail_sent WHERE sent_at < now() - interval '90 days'",
} as const;

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

export function createSuppressionStore(db: Db) {
  return {
    async isSuppressed(keys: string[]): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.suppressed, [keys])).length > 0;
    },
    async suppress(key: string, reason: SuppressionReason, evidence: string, source: string): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.suppress, [key, reason, evidence, source])).length > 0;
    },
    async softBounce(key: string, evidence: string): Promise<number> {
      const [row] = await db.query<{ bounces: number }>(SUPPRESSION_SQL.softBounce, [key, evidence]);
      return Number(row?.bounces ?? 1);
    },
    async sent(
      messageId: string,
      providerId: string | null,
      key: string,
      kind: string,
      updateId: number | null,
    ): Promise<void> {
      await db.query(SUPPRESSION_SQL.sent, [messageId, providerId, key, kind, updateId]);
    },
    async message(ids: string[]): Promise<SentMessage | null> {
      const wanted = ids.flatMap((id) => {
        const bare = id.replace(/^<|>$/g, "");
        return bare ? [bare, `<${bare}>`] : [];
      });
      if (wanted.length === 0) return null;
      const [row] = await db.query<{ mailbox_key: string; update_id: unknown }>(SUPPRESSION_SQL.message, [wanted]);
      return row
        ? { mailboxKey: row.mailbox_key, updateId: row.update_id === null ? null : Number(row.update_id) }
        : null;
    },
    async event(
      provider: string,
      eventId: string,
      kind: MailEventKind,
      key: string | null,
      updateId: number | null,
      evidence: string,
    ): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.event, [provider, eventId, kind, key, updateId, evidence])).length > 0;
    },
    async get(key: string): Promise<Suppression | null> {
      const [row] = await db.query<Record<string, unknown>>(SUPPRESSION_SQL.get, [key]);
      if (!row) return null;
      return {
        reason: row["reason"] as SuppressionReason,
        evidence: String(row["evidence"]),
        source: String(row["source"]),
        suppressedAt: iso(row["suppressed_at"]) ?? "",
        liftedAt: iso(row["lifted_at"]),
        liftedBy: (row["lifted_by"] as string | null) ?? null,
      };
    },
    async lift(key: string, by: string): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.lift, [key, by])).length > 0;
    },
    async reputation(updateId: number): Promise<UpdateReputation> {
      const [row] = await db.query<Record<string, number>>(SUPPRESSION_SQL.reputation, [updateId]);
      return {
        sent: Number(row?.["sent"] ?? 0),
        hardBounces: Number(row?.["hard"] ?? 0),
        softBounces: Number(row?.["soft"] ?? 0),
        complaints: Number(row?.["complaints"] ?? 0),
      };
    },
    async withdrawConsent(key: string, words: string): Promise<number> {
      return (await db.query(SUPPRESSION_SQL.withdraw, [key, words])).length;
    },
    async prune(): Promise<void> {
      await db.query(SUPPRESSION_SQL.prune);
    },
  };
}

export type SuppressionStore = ReturnType<typeof createSuppressionStore>;
