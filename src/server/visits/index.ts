/** What other features use of the visits: the console's cookie that leaves the team out, the purge, the reads. */
export { NOT_COUNTED_COOKIE, notCountedCookie } from "./excluded";
export { createVisitStore, ROLLUP_MONTHS, SITE_PAGE, type VisitGroup } from "./store";
