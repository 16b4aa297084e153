/**
 * What a person's page reads, in one place: their row (status, dates, sources, consent), who brought them, the
 * referrals they brought (counted, and taken back: migration 0020), the updates they were sent, their reminders,
 * their address's suppression (by its keys, as waitlist.address_key and mailbox_key) and their latest webhook events. Every read is by their id (or their referrer's, or
 * their mailbox's key), so the page costs the same at any size of the list.
 */
import type { ServerConfig } from "../../config";
import { databaseKey } from "../../crypto/keys";
import { PERSON_COLUMNS, type PersonalData, personOf, type StoredPerson } from "../../data-key";
import { withTimeout } from "../../http/timeout";
import type { Mailer } from "../../mail/mailer";
import { createReminderStore } from "../../reminders";
import type { Store } from "../../store/types";
import { createSuppressionStore, listKeysOf, type Suppression } from "../../suppression";
import { createWebhookStore, type EventRow } from "../../webhooks";

/** What a person's page and its actions are given: the store, the config, who is signed in, and the posted fields. */
export interface PersonVisit {
  store: Store;
  config: ServerConfig;
  admin: string;
  origin: string;
  mailer: Mailer | null;
  fields: Record<string, string>;
}

/** The most referrals (counted, and taken back) the timeline lists; the page says how many more there are. */
export const TIMELINE_REFERRALS = 100;
/** The person's latest webhook events on their page (the Webhooks page has them all). */
export const PERSON_EVENTS = 20;

const columnsOf = (table: string) =>
  PERSON_COLUMNS.split(", ")
    .map((c) => `${table}.${c}`)
    .join(", ");

export const PERSON_SQL = {
  person: `SELECT w.id, ${columnsOf("w")}, w.status, w.created_at, w.confirmed_at, w.invited_at, w.joined_at,
      w.source, w.medium, w.campaign, w.referrer, w.page, w.terms_version, w.updates_consent, w.updates_consent_at,
      w.updates_consent_words, w.referral_code, w.referrals, w.choices, r.outcome AS referral_outcome,
      r.referrer_id AS referred_by
    FROM waitlist w LEFT JOIN waitlist_referral r ON r.referred_id = w.id
    WHERE w.id = $1`,
  /** Who brought them, to name and link (only when a referral row names someone still on the list). */
  referrer: `SELECT id, ${PERSON_COLUMNS}, referral_code FROM waitlist WHERE id = $1`,
  /** The referrals of theirs that count, newest first, with whom each brought. */
  counted: `SELECT r.referred_id, r.counted_at, ${columnsOf("p")} FROM waitlist_referral r
    JOIN waitlist p ON p.id = r.referred_id
    WHERE r.referrer_id = $1 AND r.outcome = 'counted' ORDER BY r.counted_at DESC LIMIT $2`,
  /** Their referrals taken back (the person brought left), newest first. */
  revoked: `SELECT counted_at, revoked_at FROM waitlist_referral_revoked WHERE referrer_id = $1
    ORDER BY revoked_at DESC LIMIT $2`,
  revokedCount: "SELECT count(*)::int AS n FROM waitlist_referral_revoked WHERE referrer_id = $1",
  /** The updates they were sent, and what became of each. */
  updates: `SELECT u.subject, r.state, r.done_at FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
    WHERE r.waitlist_id = $1 ORDER BY u.id`,
} as const;

export type PersonStatus = "pending" | "confirmed" | "invited" | "joined";

/** Their row, as the page reads it (dates as ISO strings). */
export interface PersonRow {
  id: number;
  status: PersonStatus;
  createdAt: string;
  confirmedAt: string | null;
  invitedAt: string | null;
  joinedAt: string | null;
  sources: Record<"source" | "medium" | "campaign" | "referrer" | "page", string | null>;
  termsVersion: string | null;
  updatesConsent: boolean | null;
  updatesConsentAt: string | null;
  updatesConsentWords: string | null;
  /** Their choice answers as stored (jsonb), read with answers.ts beside the text answers. */
  choices: unknown;
  referralCode: string;
  referrals: number;
  /** Whether they came by someone's share link: that referral's outcome, and the referrer's id (null: they left). */
  referral: { outcome: string; referrerId: number | null } | null;
}

/** Everything their page shows. */
export interface PersonFile {
  row: PersonRow;
  person: PersonalData;
  referredBy: { id: number; email: string; code: string } | null;
  counted: Array<{ id: number; email: string; countedAt: string }>;
  revoked: Array<{ countedAt: string | null; revokedAt: string }>;
  /** How many taken back in all (the list above stops at TIMELINE_REFERRALS). */
  revokedTotal: number;
  updates: Array<{ subject: string; state: string; doneAt: string | null }>;
  reminders: Array<{ kind: string; sentAt: string }>;
  suppression: Suppression | null;
  events: EventRow[];
}

export const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** The keys the suppression list finds the address by (its own, its mailbox's): under the database's own secret. */
export const listKeysOfPerson = async (store: Store, email: string) => listKeysOf(await databaseKey(store), email);

type Row = StoredPerson & Record<string, unknown> & { id: number };

/** Person `id`'s row and address, or null when nobody has that id. */
export async function readPerson(store: Store, id: number): Promise<{ row: PersonRow; person: PersonalData } | null> {
  const [r] = await store.db.query<Row>(PERSON_SQL.person, [id]);
  if (!r) return null;
  const row: PersonRow = {
    id: Number(r.id),
    status: String(r["status"]) as PersonStatus,
    createdAt: iso(r["created_at"]) ?? "",
    confirmedAt: iso(r["confirmed_at"]),
    invitedAt: iso(r["invited_at"]),
    joinedAt: iso(r["joined_at"]),
    sources: {
      source: text(r["source"]),
      medium: text(r["medium"]),
      campaign: text(r["campaign"]),
      referrer: text(r["referrer"]),
      page: text(r["page"]),
    },
    termsVersion: text(r["terms_version"]),
    updatesConsent: (r["updates_consent"] as boolean | null) ?? null,
    updatesConsentAt: iso(r["updates_consent_at"]),
    updatesConsentWords: text(r["updates_consent_words"]),
    referralCode: String(r["referral_code"] ?? ""),
    referrals: Number(r["referrals"] ?? 0),
    choices: r["choices"] ?? null,
    referral:
      r["referral_outcome"] == null
        ? null
        : {
            outcome: String(r["referral_outcome"]),
            referrerId: r["referred_by"] == null ? null : Number(r["referred_by"]),
          },
  };
  return { row, person: personOf(store.dataKeys, r) };
}

/** Everything on person `id`'s page, or null when nobody has that id; within `timeoutMs` per step. */
export async function readPersonFile(store: Store, id: number, timeoutMs: number): Promise<PersonFile | null> {
  const found = await withTimeout(readPerson(store, id), timeoutMs);
  if (!found) return null;
  const { row } = found;
  const db = store.db;
  const referrerId = row.referral?.referrerId ?? null;
  const [referrer, counted, revoked, revokedCount, updates, reminders, suppression, events] = await withTimeout(
    Promise.all([
      referrerId === null ? [] : db.query<Row>(PERSON_SQL.referrer, [referrerId]),
      db.query<Row>(PERSON_SQL.counted, [id, TIMELINE_REFERRALS]),
      db.query<{ counted_at: unknown; revoked_at: unknown }>(PERSON_SQL.revoked, [id, TIMELINE_REFERRALS]),
      db.query<{ n: number }>(PERSON_SQL.revokedCount, [id]),
      db.query<{ subject: string; state: string; done_at: unknown }>(PERSON_SQL.updates, [id]),
      createReminderStore(db).of(id),
      createSuppressionStore(db).get(await listKeysOfPerson(store, found.person.email)),
      createWebhookStore(db).recent(PERSON_EVENTS, id),
    ]),
    timeoutMs,
  );
  const [by] = referrer;
  return {
    ...found,
    referredBy: by
      ? { id: Number(by.id), email: personOf(store.dataKeys, by).email, code: String(by["referral_code"]) }
      : null,
    counted: counted.map((c) => ({
      id: Number(c["referred_id"]),
      email: personOf(store.dataKeys, c).email,
      countedAt: iso(c["counted_at"]) ?? "",
    })),
    revoked: revoked.map((r) => ({ countedAt: iso(r.counted_at), revokedAt: iso(r.revoked_at) ?? "" })),
    revokedTotal: Number(revokedCount[0]?.n ?? 0),
    updates: updates.map((u) => ({ subject: u.subject, state: u.state, doneAt: iso(u.done_at) })),
    reminders,
    suppression,
    events,
  };
}
