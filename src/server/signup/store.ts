/**
 * A sign-up's SQL: the row added unless its address is listed, in one statement, counted against its network's
 * allowance in the same statement when it has no proof of work (store/allowance.ts decides the verdict).
 */
import { ATTRIBUTION_FIELDS, NO_ATTRIBUTION } from "../../lib/waitlist/attribution";
import { addressKeys, columnsOf, type DataKeys, type PersonalData, STORED_PERSON_FIELDS } from "../data-key";
import type { Db } from "../db/types";
import type { EntryStatus, WaitlistEntry } from "../entry";
import { RECORD_REFERRAL } from "../referrals";
import { HIT, PREVIOUS, PRUNE, type RateRow, RETRY, rateCount, rateParams, VERDICT } from "../store/allowance";
import type { createSealing } from "../store/sealing";
import type { RateCount, RateWindow } from "../store/types";

/** The entry's attribution as the five statement parameters, in ATTRIBUTION_FIELDS order. */
const sources = (entry: WaitlistEntry) =>
  ATTRIBUTION_FIELDS.map((field) => (entry.attribution ?? NO_ATTRIBUTION)[field]);

/** The entry's person as its stored columns, in STORED_PERSON_FIELDS order: sealed under DATA_KEY when it is set. */
function personColumns(dataKeys: DataKeys | null, entry: WaitlistEntry) {
  const person: PersonalData = {
    name: entry.name,
    email: entry.email,
    message: entry.message,
    organization: entry.organization ?? null,
    why: entry.why ?? null,
    connect: entry.connect ?? null,
    answers: entry.answers ?? null,
  };
  const stored = columnsOf(dataKeys, person);
  return STORED_PERSON_FIELDS.map((field) => (field === "answers" ? jsonText(stored.answers) : stored[field]));
}

/**
 * Whether any row is sealed: a process without DATA_KEY then writes nothing in clear beside them (the sign-up's
 * last parameter says whether it seals). Read from the tally, so it costs the insert nothing.
 */
const SEALED_ROWS = "SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0";

/** The columns a sign-up writes, in the order of its statement parameters. */
const ROW_COLUMNS = [
  ...STORED_PERSON_FIELDS,
  "terms_version",
  "status",
  ...ATTRIBUTION_FIELDS,
  "mailbox_key",
  "address_key",
  "choices",
];
/** The columns that hold JSON (sent as its text); every other is text. */
const JSON_COLUMNS = new Set(["answers", "choices"]);
/** The sign-up's values as parameters $first…, one per ROW_COLUMNS. */
const rowValues = (first: number) =>
  ROW_COLUMNS.map((column, i) => `$${first + i}::${JSON_COLUMNS.has(column) ? "jsonb" : "text"}`).join(", ");
const jsonText = (value: object | null | undefined) => (value ? JSON.stringify(value) : null);
/**
 * Adds the row unless its address is listed under any of its keys ($keys: hashed under this key or the previous
 * one, or plain), so a row not yet sealed still refuses its duplicate; and, unless it is sealed (the parameter
 * after its values), only while no row is.
 */
const insertRow = (keys: number, first: number, from = "") => `INSERT INTO waitlist (${ROW_COLUMNS.join(", ")})
      SELECT ${rowValues(first)} ${from}
      ${from ? "AND" : "WHERE"} NOT EXISTS (SELECT 1 FROM waitlist WHERE lower(email) = ANY($${keys}::text[]))
      AND ($${first + ROW_COLUMNS.length}::boolean OR NOT EXISTS (${SEALED_ROWS}))
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id`;

/**
 * The referral of the row `added` (referrals/count.ts): after the row's values and its sealing flag come the
 * referrer's id and the referral's outcome; its mailbox is the row's own mailbox_key.
 */
const referralOf = (first: number) => {
  const after = first + ROW_COLUMNS.length + 1;
  return RECORD_REFERRAL("added", `$${after}`, `$${first + ROW_COLUMNS.indexOf("mailbox_key")}`, `$${after + 1}`);
};

/** The columns an imported sign-up writes (src/server/import/): a sign-up's, and its own dates from the other tool. */
const MANY_COLUMNS = [...ROW_COLUMNS, "created_at", "confirmed_at"];
/** Beside the columns, one array each: the address's keys (addressKeys: first, second, third or null), part, line. */
const MANY_EXTRA = ["k1", "k2", "k3", "part", "line"];
const castOf = (column: string) => {
  if (column === "created_at" || column === "confirmed_at") return `i.${column}::timestamptz`;
  return JSON_COLUMNS.has(column) ? `i.${column}::jsonb` : `i.${column}`;
};

/**
 * Many sign-ups in one statement, for an import: the same columns, sealing and duplicate rule as `insert` (an address
 * listed under any of its keys adds nothing, and a process without DATA_KEY writes nothing in clear beside sealed
 * rows), each row with its own created_at (its place in line) and confirmed_at. Parameters: one array per
 * MANY_COLUMNS, then k1, k2, k3, part and line, then the sealing flag. Two CTEs, for the caller's statement to go on
 * from: `input` (every row given, with part and line) and `added` (id and k: the k1 of each row added).
 */
/** How many parameters INSERT_MANY takes: a statement that goes on from it numbers its own after these. */
export const INSERT_MANY_PARAMS = MANY_COLUMNS.length + MANY_EXTRA.length + 1;
export const INSERT_MANY = (() => {
  const names = [...MANY_COLUMNS, ...MANY_EXTRA];
  const arrays = names.map((name, i) => `$${i + 1}::${name === "part" || name === "line" ? "int" : "text"}[]`);
  const sealedFlag = `$${names.length + 1}::boolean`;
  return `input AS (SELECT * FROM unnest(${arrays.join(", ")}) AS i(${names.join(", ")})),
    added AS (INSERT INTO waitlist (${MANY_COLUMNS.join(", ")})
      SELECT ${MANY_COLUMNS.map(castOf).join(", ")} FROM input i
      WHERE NOT EXISTS (SELECT 1 FROM waitlist w WHERE lower(w.email) = i.k2)
        AND NOT EXISTS (SELECT 1 FROM waitlist w WHERE lower(w.email) = i.k3)
        AND (${sealedFlag} OR NOT EXISTS (${SEALED_ROWS}))
      ORDER BY i.created_at::timestamptz, i.part, i.line
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id, lower(email) AS k)`;
})();

/** One imported sign-up: the entry, its status, its dates, and where it was in its file. */
export interface ImportedEntry {
  entry: WaitlistEntry;
  status: EntryStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  part: number;
  line: number;
}

/** INSERT_MANY's parameters for `rows`: sealed as every sign-up is (columnsOf), keyed as every sign-up is. */
export function insertManyParams(dataKeys: DataKeys | null, rows: readonly ImportedEntry[]): unknown[] {
  const columns: unknown[][] = [...MANY_COLUMNS, ...MANY_EXTRA].map(() => []);
  for (const row of rows) {
    const keys = addressKeys(dataKeys, row.entry.email);
    const values = [
      ...personColumns(dataKeys, row.entry),
      row.entry.termsVersion ?? null,
      row.status,
      ...sources(row.entry),
      row.entry.mailboxKey ?? null,
      row.entry.addressKey ?? null,
      jsonText(row.entry.choices),
      row.createdAt.toISOString(),
      row.confirmedAt?.toISOString() ?? null,
      keys[0] ?? null,
      keys[1] ?? null,
      keys[2] ?? null,
      row.part,
      row.line,
    ];
    for (const [i, value] of values.entries()) columns[i]?.push(value);
  }
  return [...columns, dataKeys !== null];
}

export const SIGNUP_SQL = {
  /** Adds a row (see insertRow) and its referral; says whether it did, and whether any row is sealed. */
  insert: `WITH added AS (${insertRow(1, 2)}), referral AS (${referralOf(2)})
    SELECT (SELECT count(*)::int FROM added) AS added, EXISTS (${SEALED_ROWS}) AS sealed_rows`,
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $5) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), verdict AS (${VERDICT}),
    ${RETRY("hit.attempts")}, added AS (${insertRow(6, 7, "FROM verdict WHERE verdict.allowed")}),
    referral AS (${referralOf(7)})
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after,
      (SELECT count(*)::int FROM added) AS added,
      EXISTS (${SEALED_ROWS}) AS sealed_rows`,
} as const;

export function createSignupStore(db: Db, dataKeys: DataKeys | null, sealing: ReturnType<typeof createSealing>) {
  const { keyChecked, refusedInClear } = sealing;
  /** The sign-up's row as statement parameters, in ROW_COLUMNS order; its personal data sealed when a key is set. */
  const rowParams = (entry: WaitlistEntry, status: EntryStatus) => {
    return [
      ...personColumns(dataKeys, entry),
      entry.termsVersion ?? null,
      status,
      ...sources(entry),
      entry.mailboxKey ?? null,
      entry.addressKey ?? null,
      jsonText(entry.choices),
      dataKeys !== null,
      entry.referral?.referrerId ?? null,
      entry.referral?.outcome ?? null,
    ];
  };
  return {
    async add(entry: WaitlistEntry, status: EntryStatus = "confirmed"): Promise<boolean> {
      await keyChecked();
      const params = [addressKeys(dataKeys, entry.email), ...rowParams(entry, status)];
      const [row] = await db.query<{ added: number; sealed_rows: boolean }>(SIGNUP_SQL.insert, params);
      const added = Number(row?.added ?? 0) === 1;
      if (!added) await refusedInClear(row?.sealed_rows);
      return added;
    },
    async hitAndAdd(
      key: string,
      window: RateWindow,
      allowance: number,
      entry: WaitlistEntry,
      status: EntryStatus = "confirmed",
    ): Promise<RateCount & { added: boolean }> {
      await keyChecked();
      const params = [
        ...rateParams(key, window, allowance),
        addressKeys(dataKeys, entry.email),
        ...rowParams(entry, status),
      ];
      const [row] = await db.query<RateRow & { added: number; sealed_rows: boolean }>(SIGNUP_SQL.hitAndInsert, params);
      const count = { ...rateCount(row), added: Number(row?.added ?? 0) === 1 };
      if (count.allowed && !count.added) await refusedInClear(row?.sealed_rows);
      return count;
    },
  };
}
