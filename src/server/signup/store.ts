/**
 * A sign-up's SQL: the row added unless its address is listed, in one statement, counted against its network's
 * allowance in the same statement when it has no proof of work (store/allowance.ts decides the verdict).
 */
import { ATTRIBUTION_FIELDS, NO_ATTRIBUTION } from "../../lib/waitlist/attribution";
import { addressKeys, columnsOf, type DataKeys, type PersonalData, STORED_PERSON_FIELDS } from "../data-key";
import { namedParams, type Params } from "../db/params";
import type { Db } from "../db/types";
import type { EntryStatus, WaitlistEntry } from "../entry";
import { RECORD_REFERRAL } from "../referrals";
import {
  HIT,
  PREVIOUS,
  PRUNE,
  RATE_PARAMS,
  type RateRow,
  RETRY,
  rateCount,
  rateParams,
  VERDICT,
} from "../store/allowance";
import type { createSealing } from "../store/sealing";
import type { RateCount, RateWindow } from "../store/types";

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
const jsonText = (value: object | null | undefined) => (value ? JSON.stringify(value) : null);
/**
 * Adds the row unless its address is listed under any of its keys (`listedKeys`: hashed under this key or the previous
 * one, or plain), so a row not yet sealed still refuses its duplicate; and, unless it is sealed (`sealsRow`), only
 * while no row is.
 */
const insertRow = (p: Params, from = "") => `INSERT INTO waitlist (${ROW_COLUMNS.join(", ")})
      SELECT ${ROW_COLUMNS.map((column) => p.$(column, JSON_COLUMNS.has(column) ? "jsonb" : "text")).join(", ")} ${from}
      ${from ? "AND" : "WHERE"} NOT EXISTS (SELECT 1 FROM waitlist WHERE lower(email) = ANY(${p.$("listedKeys", "text[]")}))
      AND (${p.$("sealsRow", "boolean")} OR NOT EXISTS (${SEALED_ROWS}))
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id`;

/** The referral of the row `added` (referrals/count.ts), by the row's own mailbox_key. */
const referralOf = (p: Params) =>
  RECORD_REFERRAL("added", p.$("referrerId"), p.$("mailbox_key"), p.$("referralOutcome"));

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
 * MANY_COLUMNS and MANY_EXTRA, and `sealsRow` (insertManyValues). Two CTEs, for the caller's statement to go on
 * from: `input` (every row given, with part and line) and `added` (id and k: the k1 of each row added). The other
 * keys are looked up as `= ANY`, which only the address index answers: as two equalities the planner hashed the
 * whole list for each batch, a cost growing with the list (an import of 100,000 rows read it 200 times).
 */
export function insertMany(p: Params): string {
  const names = [...MANY_COLUMNS, ...MANY_EXTRA];
  const arrays = names.map((name) => p.$(name, name === "part" || name === "line" ? "int[]" : "text[]"));
  const sealedFlag = p.$("sealsRow", "boolean");
  return `input AS (SELECT * FROM unnest(${arrays.join(", ")}) AS i(${names.join(", ")})),
    added AS (INSERT INTO waitlist (${MANY_COLUMNS.join(", ")})
      SELECT ${MANY_COLUMNS.map(castOf).join(", ")} FROM input i
      WHERE NOT EXISTS (SELECT 1 FROM waitlist w WHERE lower(w.email) = ANY(ARRAY[i.k2, i.k3]))
        AND (${sealedFlag} OR NOT EXISTS (${SEALED_ROWS}))
      ORDER BY i.created_at::timestamptz, i.part, i.line
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id, lower(email) AS k)`;
}

/** One imported sign-up: the entry, its status, its dates, and where it was in its file. */
export interface ImportedEntry {
  entry: WaitlistEntry;
  status: EntryStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  part: number;
  line: number;
}

/** The row's values by column name: its person sealed as every sign-up is (columnsOf). */
function rowValues(dataKeys: DataKeys | null, entry: WaitlistEntry, status: EntryStatus): Record<string, unknown> {
  const person = personColumns(dataKeys, entry);
  const attribution = entry.attribution ?? NO_ATTRIBUTION;
  return {
    ...Object.fromEntries(STORED_PERSON_FIELDS.map((field, i) => [field, person[i]])),
    terms_version: entry.termsVersion ?? null,
    status,
    ...Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, attribution[field]])),
    mailbox_key: entry.mailboxKey ?? null,
    address_key: entry.addressKey ?? null,
    choices: jsonText(entry.choices),
  };
}

/** insertMany's values for `rows`, by name: one array per column, keyed as every sign-up is (addressKeys). */
export function insertManyValues(dataKeys: DataKeys | null, rows: readonly ImportedEntry[]): Record<string, unknown> {
  const columns: Record<string, unknown[]> = Object.fromEntries(
    [...MANY_COLUMNS, ...MANY_EXTRA].map((name) => [name, []]),
  );
  for (const row of rows) {
    const [k1 = null, k2 = null, k3 = null] = addressKeys(dataKeys, row.entry.email);
    const values: Record<string, unknown> = {
      ...rowValues(dataKeys, row.entry, row.status),
      created_at: row.createdAt.toISOString(),
      confirmed_at: row.confirmedAt?.toISOString() ?? null,
      k1,
      k2,
      k3,
      part: row.part,
      line: row.line,
    };
    for (const [name, list] of Object.entries(columns)) list.push(values[name]);
  }
  return { ...columns, sealsRow: dataKeys !== null };
}

const INSERT = namedParams();
const HIT_AND_INSERT = namedParams<string>(RATE_PARAMS);

export const SIGNUP_SQL = {
  /** Adds a row (see insertRow) and its referral; says whether it did, and whether any row is sealed. */
  insert: `WITH added AS (${insertRow(INSERT)}), referral AS (${referralOf(INSERT)})
    SELECT (SELECT count(*)::int FROM added) AS added, EXISTS (${SEALED_ROWS}) AS sealed_rows`,
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $5) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), verdict AS (${VERDICT}),
    ${RETRY("hit.attempts")}, added AS (${insertRow(HIT_AND_INSERT, "FROM verdict WHERE verdict.allowed")}),
    referral AS (${referralOf(HIT_AND_INSERT)})
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after,
      (SELECT count(*)::int FROM added) AS added,
      EXISTS (${SEALED_ROWS}) AS sealed_rows`,
} as const;

export function createSignupStore(db: Db, dataKeys: DataKeys | null, sealing: ReturnType<typeof createSealing>) {
  const { keyChecked, refusedInClear } = sealing;
  /** The sign-up's values by parameter name: its row, keys, sealing and referral. */
  const signupValues = (entry: WaitlistEntry, status: EntryStatus) => ({
    ...rowValues(dataKeys, entry, status),
    listedKeys: addressKeys(dataKeys, entry.email),
    sealsRow: dataKeys !== null,
    referrerId: entry.referral?.referrerId ?? null,
    referralOutcome: entry.referral?.outcome ?? null,
  });
  return {
    async add(entry: WaitlistEntry, status: EntryStatus = "confirmed"): Promise<boolean> {
      await keyChecked();
      const params = INSERT.values(signupValues(entry, status));
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
      const rates = rateParams(key, window, allowance);
      const params = HIT_AND_INSERT.values({
        ...Object.fromEntries(RATE_PARAMS.map((name, i) => [name, rates[i]])),
        ...signupValues(entry, status),
      });
      const [row] = await db.query<RateRow & { added: number; sealed_rows: boolean }>(SIGNUP_SQL.hitAndInsert, params);
      const count = { ...rateCount(row), added: Number(row?.added ?? 0) === 1 };
      if (count.allowed && !count.added) await refusedInClear(row?.sealed_rows);
      return count;
    },
  };
}
