/** What the store answers with, and the store itself: the one interface every feature is given. */

import type { Attribution } from "../../lib/waitlist/attribution";
import type { Answers } from "../../lib/waitlist/rules";
import type { DataKeys, PersonalData } from "../data-key";
import type { Db } from "../db/types";
import type { EntryStatus, WaitlistEntry } from "../entry";
import type { InviteStore } from "./invite-types";
import type { Line } from "./line";
import type { ReferralStore } from "./referral-types";

export type {
  InviteStore,
  RedeemOutcome,
  UnfinishedWave,
  WaveMember,
  WavePreview,
} from "./invite-types";
export type { ReferralStore, ReferralSummary, StatusView } from "./referral-types";

export interface ExportedEntry extends PersonalData, Attribution {
  created_at: string;
  status: EntryStatus;
  invited_at: string | null;
  joined_at: string | null;
  /** The consent record: the terms agreed to at created_at, and when the address was confirmed. */
  terms_version: string | null;
  confirmed_at: string | null;
  /** Their share code; the address of whoever shared the link they came by (null: none); their counted referrals. */
  referral_code: string;
  referred_by: string | null;
  referrals: number;
  /** Choice and multiple answers by question id (the text ones are `answers`, from PersonalData). */
  choices?: Answers | null;
}

/** Which rows are plain and which sealed, under which key (by id). */
export interface Sealing {
  plain: number;
  sealed: Record<string, number>;
}

export type BreakdownField = "source" | "medium" | "campaign" | "referrer";
export const BREAKDOWN_FIELDS: readonly BreakdownField[] = ["source", "medium", "campaign", "referrer"];

export type StatusCounts = Record<EntryStatus, number> & { total: number };

/** The allowance's verdict on an attempt (decided by the statement that counted it), and the counts behind it. */
export interface RateCount {
  allowed: boolean;
  attempts: number;
  previous: number;
  /** When an attempt would be accepted, in whole seconds (≥ 1), decided by the same statement (store/allowance.ts: RETRY). */
  retryAfter: number;
}

/** One window of the sliding rate limit (http/rate-limit.ts: rateWindow). */
export interface RateWindow {
  start: Date;
  windowMs: number;
  previousWeight: number;
}

export interface Store {
  readonly db: Db;
  /** DATA_KEY's keys, or null: rows are written plain. */
  readonly dataKeys: DataKeys | null;
  /** Confirmation and removal links (links/consent-store.ts). */
  readonly consent: ConsentStore;
  /** Waves of invitations and the product's redemption of their codes (invitations/invite-store.ts). */
  readonly invites: InviteStore;
  /** Share codes, status links and what the console shows of referrals (referrals/store.ts). */
  readonly referrals: ReferralStore;
  /**
   * Adds an entry; a repeated address (any case) adds nothing. Resolves to whether a row was added. An entry that
   * came by a share link records its referral in the same statement (`entry.referral`).
   */
  add(entry: WaitlistEntry, status?: EntryStatus): Promise<boolean>;
  /** Every entry, whatever its status. */
  count(): Promise<number>;
  /** Entries by status (every status, 0 when none), and their total. */
  countByStatus(): Promise<StatusCounts>;
  /** Sign-ups of the last `days` days by source, medium, campaign and referring site (null: none known), most first. */
  breakdown(
    days: number,
    limit: number,
  ): Promise<Record<BreakdownField, Array<{ value: string | null; count: number }>>>;
  /** The server's random secret, made once by the database (migration 0005), read once per store. */
  secret(): Promise<Buffer>;
  /** Deletes the entry of `email` (any case) and its tokens: an erasure request. Resolves to whether there was one. */
  erase(email: string): Promise<boolean>;
  /** Every entry, oldest first; only those created on or after `since`, or only confirmed ones, when asked. */
  list(since?: Date, options?: ListOptions): Promise<ExportedEntry[]>;
  /** Up to `limit` entries after the one with id `after` (0: from the first), and the id to go on from (null: done). */
  listPage(after: number, limit: number, since?: Date | undefined, options?: ListOptions): Promise<ListPage>;
  /** How many rows are plain and how many sealed under each key. */
  sealing(): Promise<Sealing>;
  /**
   * Throws a DataKeyError when a stored row is sealed under a key this process does not have. Checked once (until
   * it passes) before the first write: a wrong key never writes a row the right one cannot open.
   */
  checkDataKey(): Promise<void>;
  /** Seals up to `limit` rows not yet under the current key; resolves to how many it sealed and how many it read. */
  sealNext(limit: number): Promise<{ sealed: number; read: number }>;
  /** Pending entries untouched for `hours` hours: how many, and (only with `apply`) deletes them. */
  purgePending(hours: number, apply: boolean): Promise<{ matched: number; purged: number }>;
  /** Sign-ups per day for the last `days` days (UTC), today included, days without sign-ups as 0. */
  perDay(days: number): Promise<Array<{ day: string; count: number }>>;
  /**
   * Counts one sign-up attempt of `clientKey` in `window` and adds `entry` only while the client's sliding
   * estimate is within `allowance`, in one statement. Resolves to that statement's verdict and whether a row was
   * added: the caller acts on the verdict, never on a count of its own.
   */
  hitAndAdd(
    clientKey: string,
    window: RateWindow,
    allowance: number,
    entry: WaitlistEntry,
    status?: EntryStatus,
  ): Promise<RateCount & { added: boolean }>;
  /** Counts one attempt of `clientKey` in `window` (nothing else); resolves to the allowance's verdict and its counts. */
  hit(clientKey: string, window: RateWindow, allowance: number): Promise<RateCount>;
  /**
   * The verdict `hit` would give `clientKey`'s next attempt in `window`, counting nothing; `attempts` is this
   * window's so far, and `retryAfter` when a peek passes again.
   */
  peek(clientKey: string, window: RateWindow, allowance: number): Promise<RateCount>;
  /**
   * A feature's own store over this database and keys, made on first use and kept: every feature reaches its SQL
   * through the Store (`store.of(createUpdateStore)`), never by building one from `store.db` itself.
   */
  of<T>(make: StoreFactory<T>): T;
  /** The line (store/line.ts) as `places` per counted referral move people in it. */
  line(places: number): Line;
  close(): Promise<void>;
}

/** How a feature makes its store: from the database, and the keys when its rows are sealed. */
export type StoreFactory<T> = (db: Db, dataKeys: DataKeys | null) => T;

export interface ListOptions {
  confirmedOnly?: boolean;
  /** No entry past this id: the last of a part fixed when the download's page was made (export/parts.ts). */
  through?: number | undefined;
  /** Leave out whoever is on the suppression list (a file for mailing: mail-csv). */
  mailable?: boolean;
}
export interface ListPage {
  rows: ExportedEntry[];
  next: number | null;
}

// Confirmation and removal links (src/server/links/consent-store.ts implements them).

/** What a confirmation link did: confirmed now, had been already, expired, or never was (or its entry went). */
export type ConfirmOutcome =
  | "confirmed"
  | "already-confirmed"
  | "already-invited"
  | "already-joined"
  | "expired"
  | "invalid";
export interface ConfirmResult {
  outcome: ConfirmOutcome;
  /** Confirmed now: their address (for the status e-mail), and what became of their referral (null: none). */
  email?: string;
  referral?: string | null;
}
/** What a removal link did: removed now, expired, or never was (or was used: its entry, and it, are gone). */
export type RemoveOutcome = "removed" | "expired" | "invalid";

export interface ConsentStore {
  /** For a pending address due an e-mail: issues its two tokens and resolves to the entry's id; else null. */
  issueConfirmation(email: string, confirmHash: string, removeHash: string): Promise<number | null>;
  /** For a listed address due a removal e-mail: issues the token and resolves to the entry's id; else null. */
  issueRemoval(email: string, removeHash: string): Promise<number | null>;
  /** Undoes an issue whose e-mail could not be sent (its tokens are dropped; a repeat sends again). */
  unsend(id: number, hashes: string[], kind: "confirm" | "remove"): Promise<void>;
  /** Counts an e-mail about to go to `mailboxKey` (mail/mailbox.ts); resolves to how many it is today, this one included. */
  mailboxSent(mailboxKey: string): Promise<number>;
  /**
   * Uses a confirm token. Confirming now issues the person's status link (`statusHash`, when given) and counts
   * their referral (at most `referralsPerDay` a day per referrer: config/index.ts's REFERRALS_PER_DAY, its one default),
   * and tells their address.
   */
  confirm(hash: string, options: { statusHash?: string; referralsPerDay: number }): Promise<ConfirmResult>;
  remove(hash: string): Promise<RemoveOutcome>;
}
