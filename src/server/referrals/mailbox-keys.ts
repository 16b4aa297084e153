/**
 * Mailbox keys for the rows signed up before migration 0011, which added the column empty: until a row has its key,
 * a second spelling of its mailbox (a `+tag`, Gmail's dots) signing up through someone's share link would count as
 * a new person. And address keys for the rows signed up before migration 0021: until a row has one, a suppression
 * of its address does not mark it (waitlist.mail_suppressed), so a wave's preview would count it (the mail guard
 * still never mails it). The key is a keyed hash (mail/mailbox.ts) of an address that may be sealed (DATA_KEY), so neither can
 * be made in SQL: this reads the unkeyed rows in batches by waitlist_unkeyed_idx, opens each address and writes the
 * keys back, and stops when none is left (one index probe) or its time is spent.
 */

import type { DatabaseKey } from "../crypto/keys";
import { DataKeyError, type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import { addressKey, storedMailboxKey } from "../mail/mailbox";

export const MAILBOX_KEYS_SQL = {
  /**
   * The next `$1` rows without an address key (so also every row without a mailbox key) after id `$2`, oldest first. From the last id, not from the start: the rows
   * keyed a moment ago stay in the index as dead entries until a vacuum, and each batch would walk them all again.
   */
  unkeyed: `SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE address_key IS NULL AND id > $2 ORDER BY id LIMIT $1`,
  /** Their keys (`$1` ids, `$2` mailbox keys, `$3` address keys); a key a row has is never overwritten. */
  write: `UPDATE waitlist w SET mailbox_key = coalesce(w.mailbox_key, k.key), address_key = k.address
    FROM unnest($1::bigint[], $2::text[], $3::text[]) AS k(id, key, address)
    WHERE w.id = k.id AND w.address_key IS NULL`,
} as const;

const BATCH = 1000;

export interface KeyingRun {
  db: Db;
  dataKeys: DataKeys | null;
  /** The database's secret, as the sign-up keys its rows with (never SERVER_SECRET): the keys must match. */
  root: DatabaseKey;
  /** When to stop starting batches (ms since the epoch); none: until every row has its key. */
  deadline?: number;
  now?: () => number;
}

export interface KeyingReport {
  keyed: number;
  /** Rows whose address could not be opened (sealed under a key that is not DATA_KEY): left without a key. */
  unreadable: number;
  /** Whether every row was read (false: the time ran out first). */
  done: boolean;
}

/**
 * Gives every unkeyed row its mailbox key, keyed by `root` (the database's own secret, as the sign-up's are). A row
 * it cannot open is passed by and counted, never a reason to stop: the rows after it still get theirs.
 */
export async function keyMailboxes(run: KeyingRun): Promise<KeyingReport> {
  const now = run.now ?? Date.now;
  const report: KeyingReport = { keyed: 0, unreadable: 0, done: false };
  let after = 0;
  for (;;) {
    if (run.deadline !== undefined && now() >= run.deadline) return report;
    const rows = await run.db.query<StoredPerson & { id: number }>(MAILBOX_KEYS_SQL.unkeyed, [BATCH, after]);
    if (rows.length === 0) return { ...report, done: true };
    const ids: number[] = [];
    const keys: string[] = [];
    const addresses: string[] = [];
    for (const row of rows) {
      try {
        const email = personOf(run.dataKeys, row).email;
        keys.push(storedMailboxKey(run.root, email));
        addresses.push(addressKey(run.root, email));
        ids.push(row.id);
      } catch (error) {
        if (!(error instanceof DataKeyError)) throw error;
        report.unreadable++;
      }
    }
    if (ids.length > 0) await run.db.query(MAILBOX_KEYS_SQL.write, [ids, keys, addresses]);
    report.keyed += ids.length;
    after = Number(rows[rows.length - 1]?.id);
  }
}
