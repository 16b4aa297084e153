/**
 * Everyone a People filter matches (any combination: answers, source, status, search…), as a wave or an update
 * takes them, for the console's "Invite everyone matching" and "Write to everyone matching" and the CLI's
 * `invite --answer` and `update --answer` alike: the same filter (list.ts's MATCH) finds the same people. A wave
 * takes those it may invite (confirmed, in no wave, not suppressed: invitations' AVAILABLE), oldest sign-up first;
 * an update those who said yes to updates. Then how they split by answer, and the first few by name.
 */
import { isChoice, QUESTIONS, type Question } from "../../../lib/waitlist/questions";
import { type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../../data-key";
import type { Db } from "../../db/types";
import { AVAILABLE } from "../../invitations";
import { ANSWER_PARAM, answerRows } from "../../segments";
import { createConsoleList, MATCH } from "./list";
import { type PeopleFilter, peopleParams } from "./people-filter";

/** The most one wave or update by filter takes: past any list this project is built for (bench: a million). */
export const MATCHING_MAX = 10_000_000;

export const MATCHING_SQL = {
  /** The first `$1` people the filter ($2–$17) matches whom a wave may invite, in sign-up order. */
  invitable: `SELECT id FROM waitlist WHERE ${MATCH} AND ${AVAILABLE} ORDER BY created_at, id LIMIT $1`,
  /**
   * How many a wave may invite, up to `$1`: unordered, so that a rare answer is counted from 0030's index of the
   * invitable people's choices rather than by walking everyone confirmed in sign-up order.
   */
  invitableCount: `SELECT count(*)::int AS count FROM (SELECT 1 FROM waitlist WHERE ${MATCH} AND ${AVAILABLE} LIMIT $1) AS s`,
  /** The first `$1` people the filter matches who would be sent an update (confirmed, said yes). */
  writable: `SELECT id FROM waitlist WHERE ${MATCH} AND status = 'confirmed' AND updates_consent
    ORDER BY id LIMIT $1`,
  /** People `$1` by their answers to questions `$2`: how many gave each value. */
  split: `SELECT a.question, v.value, count(*)::int AS count FROM waitlist w ${answerRows("w")}
    WHERE w.id = ANY($1::bigint[]) AND a.question = ANY($2::text[]) GROUP BY a.question, v.value`,
  /** People `$1`, as a confirmation names them. */
  named: `SELECT id, ${PERSON_COLUMNS}, created_at FROM waitlist WHERE id = ANY($1::bigint[]) ORDER BY created_at, id`,
} as const;

export type Purpose = "invite" | "update";

/**
 * The filter as an address writes it, every answer value included (the CLI's ORs too) and in one order: what an
 * update to it records, so the same words to the same filter are one update, from the console or the CLI.
 */
export function filterKey(filter: PeopleFilter): string {
  const params = new URLSearchParams(peopleParams({ ...filter, answers: {} }));
  for (const [id, values] of Object.entries(filter.answers))
    for (const v of values) params.append(`${ANSWER_PARAM}${id}`, v);
  params.sort();
  return params.toString();
}

/** How the people split by one question's answers: each value given, with how many gave it, in the file's order. */
export interface AnswerSplit {
  question: Question;
  values: Array<{ value: string; count: number }>;
}

export function createMatching(db: Db, dataKeys: DataKeys | null) {
  const list = createConsoleList(db, dataKeys);
  return {
    /** The ids of everyone `filter` matches for `purpose`, at most `limit` (a wave's: oldest sign-up first). */
    async ids(filter: PeopleFilter, purpose: Purpose, limit = MATCHING_MAX): Promise<number[]> {
      const sql = purpose === "invite" ? MATCHING_SQL.invitable : MATCHING_SQL.writable;
      const rows = await db.query<{ id: number | string }>(sql, [limit, ...(await list.matchParams(filter))]);
      return rows.map((row) => Number(row.id));
    },
    /** How many `filter` matches whom a wave may invite, at most `limit`. */
    async invitableCount(filter: PeopleFilter, limit: number): Promise<number> {
      const params = [limit, ...(await list.matchParams(filter))];
      const [row] = await db.query<{ count: number }>(MATCHING_SQL.invitableCount, params);
      return Number(row?.count ?? 0);
    },
    /** How people `ids` split by the answers to `questions` (every choice question asked, unless told). */
    async split(ids: readonly number[], questions = QUESTIONS.filter(isChoice)): Promise<AnswerSplit[]> {
      if (questions.length === 0 || ids.length === 0) return [];
      const rows = await db.query<{ question: string; value: string; count: number }>(MATCHING_SQL.split, [
        ids,
        questions.map((q) => q.id),
      ]);
      return questions.map((question) => ({
        question,
        values: question.options.flatMap((value) => {
          const count = Number(rows.find((r) => r.question === question.id && r.value === value)?.count ?? 0);
          return count > 0 ? [{ value, count }] : [];
        }),
      }));
    },
    /** People `ids` by address and name, oldest sign-up first. */
    async named(ids: readonly number[]): Promise<Array<{ id: number; email: string; name: string | null }>> {
      if (ids.length === 0) return [];
      const rows = await db.query<StoredPerson & { id: number }>(MATCHING_SQL.named, [ids]);
      return rows.map((row) => ({ id: Number(row.id), ...personOf(dataKeys, row) }));
    },
  };
}

export type Matching = ReturnType<typeof createMatching>;
