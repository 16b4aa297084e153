/**
 * The referrals' part of the store's contract (src/server/referrals/store.ts implements it): a share code's owner,
 * what a status link shows, the link mailed again, leaving, and the console's summary. Re-exported by types.ts.
 */
import type { EntryStatus } from "../entry";

/** What a person's status page shows of them. */
export interface StatusView {
  id: number;
  status: EntryStatus;
  invitedAt: string | null;
  joinedAt: string | null;
  /** When their invitation's code stops working (null: never invited by e-mail, or no code). */
  inviteExpiresAt: string | null;
  /** Their public share code. */
  code: string;
  /** Referrals counted for them. */
  referrals: number;
  /** Their choice about updates (null: never asked). */
  updates: boolean | null;
}

export interface ReferralSummary {
  /** Counted referrals in all, and in the window asked for. */
  counted: number;
  recent: number;
  /** The people with the most referrals counted in that window, most first. */
  top: Array<{ email: string; code: string; counted: number }>;
}

/**
 * Which status link opened the page: a stored one, by its token's hash (made when a person confirms, and when they
 * ask for it), or the one an update carries, derived from its person's id (updates/status-token.ts).
 */
export type StatusLink = { hash: string } | { person: number };

export interface ReferralStore {
  /** The person whose share code this is (their id and address, to tell their own mailbox), or null. */
  referrer(code: string): Promise<{ id: number; email: string } | null>;
  /** What status link `link` shows, or null when no such link works. */
  status(link: StatusLink): Promise<StatusView | null>;
  /** For a listed, confirmed address due one: a new status link (its hash) and the entry's id; else null. */
  issueStatus(email: string, hash: string): Promise<number | null>;
  /** Undoes issueStatus when its e-mail could not go. */
  unsendStatus(id: number, hashes: string[]): Promise<void>;
  /** Deletes the entry whose status link this is; resolves to whether there was one. */
  leave(link: StatusLink): Promise<boolean>;
  /** Counted referrals, and the top referrers of the last `days` days. */
  summary(days: number): Promise<ReferralSummary>;
}
