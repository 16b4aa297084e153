/**
 * A run's share of a long job: it stops starting work when its time is up, so it ends within its function's limit
 * (a background run: 13 of Netlify's 15 minutes, RUN_MS in handler.ts; a console request writing a mail-off wave's
 * file: 15 s, within a synchronous function's 60 s), and leaves the rest for the next run.
 */

/**
 * A run's share: it stops starting e-mails once `ms` have passed (`now`: the clock, which tests drive) or `people`
 * have been dealt with. At least one person is dealt with, so every run gets on.
 */
export interface JobSlice {
  ms: number;
  people?: number;
  now?: () => number;
}

/** What is left of a run's slice: when it ends, how many more people it may deal with, and its clock. */
export interface Budget {
  due: number;
  people: number;
  now: () => number;
  /** People dealt with so far by this run. */
  dealt: number;
}

export const budgetOf = (slice: JobSlice | undefined): Budget | null => {
  if (!slice) return null;
  const now = slice.now ?? Date.now;
  return { due: now() + slice.ms, people: slice.people ?? Number.POSITIVE_INFINITY, now, dealt: 0 };
};

/** Whether the run must stop before the next person: its slice spent, once it has dealt with someone. */
export const spent = (budget: Budget | null) =>
  budget !== null && budget.dealt > 0 && (budget.dealt >= budget.people || budget.now() >= budget.due);

/** The same, by the name the waves have used. */
export type WaveSlice = JobSlice;
