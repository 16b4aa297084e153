/**
 * `invite` and `update` given a filter (`--answer ID=VALUE`, repeated; `--source NAME` for invite): everyone it
 * matches, as the console's "Invite everyone matching" and "Write to everyone matching" take them (one filter,
 * src/server/console/people/matching.ts). The dry run names how many and how they split by answer; a wave takes the
 * oldest sign-ups first when --next bounds it, everyone otherwise.
 */
import { isChoice, QUESTIONS } from "../../src/lib/waitlist/questions";
import type { Store } from "../../src/server/app/store";
import { type AnswerSplit, createMatching, filterKey, type Purpose } from "../../src/server/console/people/matching";
import { NO_FILTER, type PeopleFilter } from "../../src/server/console/people/people-filter";
import { visibleControls } from "../../src/server/csv";
import { describeSegment, type Segment } from "../../src/server/segments";
import type { Audience } from "../../src/server/updates";
import { invite, inviteHow, plural } from "./waitlist-commands";

/** What the CLI was told to filter by: answers, and (invite) a source. */
export interface CliFilter {
  answers: Segment;
  source: string | null;
}

export const isCliFilter = (filter: CliFilter) => Object.keys(filter.answers).length > 0 || filter.source !== null;

const peopleFilter = (filter: CliFilter): PeopleFilter => ({
  ...NO_FILTER,
  answers: filter.answers,
  from: filter.source === null ? {} : { source: filter.source },
});

/** The filter in words: `who answered How big is your team? 50+, from source hn`. */
export function filterWords(filter: CliFilter): string {
  const parts = [
    ...(Object.keys(filter.answers).length > 0 ? [`who answered ${describeSegment(filter.answers)}`] : []),
    ...(filter.source !== null ? [`from source "${visibleControls(filter.source)}"`] : []),
  ];
  return parts.join(", ");
}

/** The split's lines, a question each: `  How big is your team?  50+: 3, 11–50: 2`. */
export function splitLines(split: readonly AnswerSplit[], total: number): string[] {
  return split.map(({ question, values }) => {
    const answered = values.map((v) => `${v.value}: ${v.count}`).join(", ");
    const unanswered = total - values.reduce((sum, v) => sum + v.count, 0);
    const none = question.type === "choice" && unanswered > 0 ? `${answered ? ", " : ""}no answer: ${unanswered}` : "";
    return `  ${question.label}  ${answered}${none}`;
  });
}

/** Everyone `filter` matches for `purpose` (at most `limit`), and how they split by every choice question. */
export async function matched(store: Store, filter: CliFilter, purpose: Purpose, limit?: number) {
  const matching = store.of(createMatching);
  const ids = await matching.ids(peopleFilter(filter), purpose, limit);
  const split = await matching.split(ids, QUESTIONS.filter(isChoice));
  return { ids, split };
}

/** The dry run's lines for `ids` split as `split`. */
export function dryRunSplit(ids: readonly number[], split: readonly AnswerSplit[]): void {
  if (ids.length > 0 && split.length > 0) console.log(["By answer:", ...splitLines(split, ids.length)].join("\n"));
}

/** An update's audience for `filter`: those it matches who said yes to updates, and the filter as it is recorded. */
export async function audienceOf(store: Store, filter: CliFilter): Promise<Audience & { split: AnswerSplit[] }> {
  const { ids, split } = await matched(store, filter, "update");
  return { segment: filterKey(peopleFilter(filter)), people: ids, split };
}

/** `invite` with a filter, dry run (or nobody to invite): how many it matches, and how they split by answer. */
function inviteDryRun(run: FilteredInvite, matchedIds: readonly number[], split: AnswerSplit[]) {
  const count = matchedIds.length;
  const where = `waiting in ${run.source}, ${filterWords(run.filter)}`;
  console.log(
    count === 0
      ? `${run.yes ? "" : "Dry run: "}Nobody to invite: no confirmed sign-up ${where}.`
      : `Dry run: would invite ${plural(count, "confirmed sign-up")} ${where} (oldest sign-up first), ${inviteHow()}.`,
  );
  dryRunSplit(matchedIds, split);
  if (count > 0) console.log("Run again with --yes to invite them.");
}

interface FilteredInvite {
  store: Store;
  source: string;
  /** --next: at most this many (0: everyone the filter matches). */
  next: number;
  yes: boolean;
  base: URL;
  filter: CliFilter;
  counts?: Record<string, unknown>;
  /** The audit log's "started" entry, with these details. */
  starting: (details: Record<string, unknown>) => Promise<void>;
}

/** `invite --answer …`: a dry run naming how many and how they split; with --yes, the wave of exactly them. */
export async function inviteFiltered(run: FilteredInvite): Promise<number> {
  const { store, filter, next } = run;
  const { ids, split } = await matched(store, filter, "invite", next > 0 ? next : undefined);
  if (!run.yes || ids.length === 0) {
    inviteDryRun(run, ids, split);
    return 0;
  }
  const starting = () => run.starting({ size: ids.length, filter: filterWords(filter) });
  return invite({ ...run, next: ids.length, people: ids, starting });
}
