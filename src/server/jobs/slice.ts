/**
 * A run's share of a long job (a wave of invitations, an update to the list): the console sends for a bounded time
 * per request, so a function call always ends within Netlify's 60 s, and pauses the job for the next request to
 * continue. Beneath the features that send in slices.
 */

/**
 * A run's share of a wave: it stops starting e-mails once `ms` have passed (`now`: the clock, which tests drive)
 * or `people` have been dealt with, and pauses the wave. At least one person is dealt with, so every run gets on.
 */
export interface WaveSlice {
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

export const budgetOf = (slice: WaveSlice | undefined): Budget | null => {
  if (!slice) return null;
  const now = slice.now ?? Date.now;
  return { due: now() + slice.ms, people: slice.people ?? Number.POSITIVE_INFINITY, now, dealt: 0 };
};

/** Whether the run must stop before the next person: its slice spent, once it has dealt with someone. */
export const spent = (budget: Budget | null) =>
  budget !== null && budget.dealt > 0 && (budget.dealt >= budget.people || budget.now() >= budget.due);
