/** The export's SQL: the list in batches by id, oldest first, for the CLI, the HTTP export and the console's parts. */
import { type DataKeys, jsonOf, PERSON_COLUMNS, type PersonalData, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import type { ExportedEntry, ListOptions, ListPage } from "../store/types";

export const EXPORT_SQL = {
  /**
   * A batch of the export: up to $4 entries after id $1, oldest first (since $2; only confirmed ones if $3; none
   * past id $5, when set: the end of a part of a download, export/parts.ts; none suppressed if $6: a file to mail).
   */
  list: `SELECT id, created_at, ${PERSON_COLUMNS}, status, invited_at, joined_at, source, medium, campaign, referrer, page,
      terms_version, confirmed_at, referral_code, referrals, choices, ref.ref_email, ref.ref_key_id, ref.ref_sealed
    FROM waitlist
    LEFT JOIN LATERAL (
      SELECT r.email AS ref_email, r.key_id AS ref_key_id, r.sealed AS ref_sealed
      FROM waitlist_referral rr JOIN waitlist r ON r.id = rr.referrer_id WHERE rr.referred_id = waitlist.id
      -- One row at most (the primary key): LIMIT makes the planner look each one up, never merge-join the table.
      LIMIT 1
    ) ref ON true
    WHERE id > $1::bigint AND ($5::bigint IS NULL OR id <= $5::bigint)
      AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
      AND ($3::boolean IS NOT TRUE OR status = 'confirmed')
      AND ($6::boolean IS NOT TRUE OR NOT mail_suppressed)
    ORDER BY id LIMIT $4::int`,
  /** How many of the same entries (after $1, since $2, confirmed if $3, through $4) are suppressed: waitlist_suppressed_idx. */
  suppressed: `SELECT count(*)::int AS n FROM waitlist WHERE mail_suppressed AND id > $1::bigint
      AND ($4::bigint IS NULL OR id <= $4::bigint) AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
      AND ($3::boolean IS NOT TRUE OR status = 'confirmed')`,
} as const;

/**
 * How many people a mail-csv of these options leaves out for being on the suppression list (a hard bounce, a
 * complaint, an operator's stop): the file says nothing of them, so the CLI and the HTTP answer say how many.
 */
export async function suppressedLeftOut(
  db: Db,
  options: ListOptions & { after?: number; since?: Date | undefined },
): Promise<number> {
  const params = [options.after ?? 0, options.since?.toISOString() ?? null, options.confirmedOnly ?? false];
  const [row] = await db.query<{ n: number }>(EXPORT_SQL.suppressed, [...params, options.through ?? null]);
  return Number(row?.n ?? 0);
}

const NO_PERSON = { name: null, message: null, organization: null, why: null, connect: null } as const;
const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

type ExportRow = StoredPerson &
  Omit<
    ExportedEntry,
    keyof PersonalData | "created_at" | "invited_at" | "joined_at" | "confirmed_at" | "referred_by"
  > & {
    id: number | string;
    created_at: Date | string;
    invited_at: Date | string | null;
    joined_at: Date | string | null;
    confirmed_at: Date | string | null;
    ref_email: string | null;
    ref_key_id: string | null;
    ref_sealed: string | null;
    choices: ExportedEntry["choices"] | string;
  };

/** The address of whoever shared the link the entry came by (opened when sealed), or null. */
const referrerOf = (dataKeys: DataKeys | null, r: ExportRow) =>
  r.ref_email === null
    ? null
    : personOf(dataKeys, { ...NO_PERSON, email: r.ref_email, key_id: r.ref_key_id, sealed: r.ref_sealed }).email;

/** One row as the export writes it: opened, its times as ISO strings, its referrer's address. */
const entryOf = (dataKeys: DataKeys | null, r: ExportRow): ExportedEntry => ({
  created_at: new Date(r.created_at).toISOString(),
  ...personOf(dataKeys, r),
  status: r.status,
  invited_at: iso(r.invited_at),
  joined_at: iso(r.joined_at),
  source: r.source,
  medium: r.medium,
  campaign: r.campaign,
  referrer: r.referrer,
  page: r.page,
  terms_version: r.terms_version,
  confirmed_at: iso(r.confirmed_at),
  referral_code: r.referral_code,
  referred_by: referrerOf(dataKeys, r),
  referrals: Number(r.referrals),
  choices: jsonOf(r.choices),
});

/** Up to `limit` entries after id `after`, and the id to go on from (null: that was the last). */
async function exportPage(
  db: Db,
  dataKeys: DataKeys | null,
  after: number,
  limit: number,
  since?: Date,
  options: ListOptions = {},
): Promise<ListPage> {
  const params = [
    after,
    since?.toISOString() ?? null,
    options.confirmedOnly ?? false,
    limit,
    options.through ?? null,
    options.mailable ?? false,
  ];
  const rows = await db.query<ExportRow>(EXPORT_SQL.list, params);
  return {
    rows: rows.map((r) => entryOf(dataKeys, r)),
    next: rows.length === limit ? Number(rows[rows.length - 1]?.id) : null,
  };
}

export function createExportStore(db: Db, dataKeys: DataKeys | null) {
  const page = (after: number, limit: number, since?: Date, options: ListOptions = {}) =>
    exportPage(db, dataKeys, after, limit, since, options);
  return {
    listPage: page,
    async list(since?: Date, options: ListOptions = {}): Promise<ExportedEntry[]> {
      const all: ExportedEntry[] = [];
      for (let after: number | null = 0; after !== null; ) {
        const { rows, next } = await page(after, 1000, since, options);
        all.push(...rows);
        after = next;
      }
      return all;
    },
  };
}
