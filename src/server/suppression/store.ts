/**
 * The suppression list in SQL (migration 0016): who must not be mailed and why, what was sent (to correlate what
 * comes back), and what came back (once per provider event). Every statement is one statement, so two events for
 * one address at once, or one event delivered twice, change things once. Keys are address keys (mail/mailbox.ts,
 * migration 0021: the exact address, never its whole mailbox), and evidence names nobody (evidence.ts): no address
 * is ever stored here. A row of before 0021 holds a whole mailbox's key (whole_mailbox) and still suppresses it.
 */
import type { Db } from "../db/types";

/** `imported`: brought from another tool's unsubscribes or bounces (src/server/import/, migration 0023). */
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

/** An address as the list looks it up: its own key, and its mailbox's (for the rows of before 0021). */
export interface ListKeys {
  address: string;
  mailbox: string;
}

/** A sent message found again by an event: its address (null: sent before 0021), mailbox and update. */
export interface SentMessage {
  addressKey: string | null;
  mailboxKey: string;
  updateId: number | null;
}

/** Rows of `keys` ($1 the address's key, $2 its mailbox's): the address's own, or a whole-mailbox row of before 0021. */
const OF_KEYS = "((address_key = $1 AND NOT whole_mailbox) OR (address_key = $2 AND whole_mailbox))";

export interface UpdateReputation {
  sent: number;
  hardBounces: number;
  softBounces: number;
  complaints: number;
}

export const SUPPRESSION_SQL = {
  /** Whether address `$1` (or its mailbox `$2`, by a row of before 0021) is suppressed and not lifted. */
  suppressed: `SELECT 1 FROM mail_suppression WHERE ${OF_KEYS} AND lifted_at IS NULL LIMIT 1`,
  /**
   * Suppresses `$1` for `$2` with evidence `$3` from `$4` (`$5`: `$1` is a whole mailbox's key, for a message of
   * before 0021): a new row, or a lifted one suppressed again; one already suppressed keeps its first reason. True
   * when this statement suppressed it.
   */
  suppress: `INSERT INTO mail_suppression (address_key, reason, evidence, source, whole_mailbox)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (address_key) DO UPDATE SET reason = EXCLUDED.reason, evidence = EXCLUDED.evidence,
      source = EXCLUDED.source, suppressed_at = now(), lifted_at = NULL, lifted_by = NULL
    WHERE mail_suppression.lifted_at IS NOT NULL
    RETURNING address_key`,
  /**
   * Records a soft bounce for `$1` (evidence `$2`) and says how many it has within SOFT_BOUNCE_DAYS since its last
   * lift (this one counted); older ones are pruned by the same statement.
   */
  softBounce: `WITH pruned AS (DELETE FROM mail_soft_bounce WHERE address_key = $1
      AND at < now() - make_interval(days => ${SOFT_BOUNCE_DAYS})),
    added AS (INSERT INTO mail_soft_bounce (address_key, evidence) VALUES ($1, $2) RETURNING at)
    SELECT 1 + count(*)::int AS bounces FROM mail_soft_bounce b
    WHERE b.address_key = $1 AND b.at >= now() - make_interval(days => ${SOFT_BOUNCE_DAYS})
      AND b.at > coalesce((SELECT lifted_at FROM mail_suppression s WHERE s.address_key = $1), '-infinity')`,
  /**
   * Records an e-mail as accepted: Message-ID `$1`, the server's id `$2`, mailbox `$3`, kind `$4`, update `$5`,
   * address `$6`.
   */
  sent: `INSERT INTO mail_sent (message_id, provider_id, mailbox_key, kind, update_id, address_key)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (message_id) DO UPDATE SET provider_id = EXCLUDED.provider_id, sent_at = now()`,
  /** The message an event names, by its Message-ID (with or without <>) or the provider's id. */
  message: `SELECT address_key, mailbox_key, update_id FROM mail_sent
    WHERE message_id = ANY($1::text[]) OR provider_id = ANY($1::text[]) ORDER BY sent_at DESC LIMIT 1`,
  /** Records event `$2` of `$1` once: false when it was recorded already (a provider's retry). */
  event: `INSERT INTO mail_event (provider, event_id, kind, address_key, update_id, evidence)
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
  /** The address's row, else its mailbox's of before 0021; a suppressing one first. */
  get: `SELECT reason, evidence, source, suppressed_at, lifted_at, lifted_by FROM mail_suppression
    WHERE ${OF_KEYS} ORDER BY lifted_at IS NULL DESC, whole_mailbox LIMIT 1`,
  /** Lifts address `$1` (and its mailbox `$2`'s row of before 0021), by `$3`: true when it was suppressed. */
  lift: `UPDATE mail_suppression SET lifted_at = now(), lifted_by = $3 WHERE ${OF_KEYS} AND lifted_at IS NULL
    RETURNING address_key`,
  /** An update's messages accepted and what came back for them. */
  reputation: `SELECT (SELECT count(*)::int FROM waitlist_update_recipient WHERE update_id = $1 AND state = 'sent') AS sent,
    count(*) FILTER (WHERE kind = 'hard_bounce')::int AS hard,
    count(*) FILTER (WHERE kind = 'soft_bounce')::int AS soft,
    count(*) FILTER (WHERE kind = 'complaint')::int AS complaints
    FROM mail_event WHERE update_id = $1`,
  /**
   * Withdraws consent to updates from the person of address `$1` (or, for a message of before 0021 found by no
   * address, everyone of mailbox `$3`), in words `$2`; how many.
   */
  withdraw: `UPDATE waitlist SET updates_consent = false, updates_consent_at = now(), updates_consent_words = $2
    WHERE (address_key = $1 OR mailbox_key = $3) AND updates_consent IS DISTINCT FROM false RETURNING id`,
  /** Messages sent before 90 days ago are no longer looked for. */
  prune: "DELETE FROM mail_sent WHERE sent_at < now() - interval '90 days'",
} as const;

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

/** The list itself: whether an address is on it, putting it there (at once, or by soft bounces), its row, lifting. */
function theList(db: Db) {
  return {
    async isSuppressed(keys: ListKeys): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.suppressed, [keys.address, keys.mailbox])).length > 0;
    },
    async suppress(
      key: string,
      reason: SuppressionReason,
      evidence: string,
      source: string,
      wholeMailbox = false,
    ): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.suppress, [key, reason, evidence, source, wholeMailbox])).length > 0;
    },
    async softBounce(key: string, evidence: string): Promise<number> {
      const [row] = await db.query<{ bounces: number }>(SUPPRESSION_SQL.softBounce, [key, evidence]);
      return Number(row?.bounces ?? 1);
    },
    async get(keys: ListKeys): Promise<Suppression | null> {
      const [row] = await db.query<Record<string, unknown>>(SUPPRESSION_SQL.get, [keys.address, keys.mailbox]);
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
    async lift(keys: ListKeys, by: string): Promise<boolean> {
      return (await db.query(SUPPRESSION_SQL.lift, [keys.address, keys.mailbox, by])).length > 0;
    },
  };
}

/** Messages sent, kept 90 days so that what comes back can be matched to them. */
function sentMessages(db: Db) {
  return {
    async sent(
      messageId: string,
      providerId: string | null,
      keys: ListKeys,
      kind: string,
      updateId: number | null,
    ): Promise<void> {
      await db.query(SUPPRESSION_SQL.sent, [messageId, providerId, keys.mailbox, kind, updateId, keys.address]);
    },
    async message(ids: string[]): Promise<SentMessage | null> {
      const wanted = ids.flatMap((id) => {
        const bare = id.replace(/^<|>$/g, "");
        return bare ? [bare, `<${bare}>`] : [];
      });
      if (wanted.length === 0) return null;
      type Row = { address_key: string | null; mailbox_key: string; update_id: unknown };
      const [row] = await db.query<Row>(SUPPRESSION_SQL.message, [wanted]);
      if (!row) return null;
      const updateId = row.update_id === null ? null : Number(row.update_id);
      return { addressKey: row.address_key, mailboxKey: row.mailbox_key, updateId };
    },
    async prune(): Promise<void> {
      await db.query(SUPPRESSION_SQL.prune);
    },
  };
}

/** What came back: each provider event once, an update's reputation, and the consent a complaint withdraws. */
function mailEvents(db: Db) {
  return {
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
    async reputation(updateId: number): Promise<UpdateReputation> {
      const [row] = await db.query<Record<string, number>>(SUPPRESSION_SQL.reputation, [updateId]);
      return {
        sent: Number(row?.["sent"] ?? 0),
        hardBounces: Number(row?.["hard"] ?? 0),
        softBounces: Number(row?.["soft"] ?? 0),
        complaints: Number(row?.["complaints"] ?? 0),
      };
    },
    /** `mailbox`: only for a message of before 0021 that names no address (its whole mailbox, as then). */
    async withdrawConsent(address: string | null, words: string, mailbox: string | null = null): Promise<number> {
      return (await db.query(SUPPRESSION_SQL.withdraw, [address, words, mailbox])).length;
    },
  };
}

/** The store, by concern. */
export function createSuppressionStore(db: Db) {
  return { ...theList(db), ...sentMessages(db), ...mailEvents(db) };
}

export type SuppressionStore = ReturnType<typeof createSuppressionStore>;
