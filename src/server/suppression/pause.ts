/**
 * When an update must stop by itself: Gmail's and Yahoo's bulk-sender rules ask for a spam rate under 0.3 %, and a
 * list whose hard bounces pass 5 % is a list gone stale; past either (PAUSE_COMPLAINT_RATE, PAUSE_BOUNCE_RATE), more
 * of the same update would spend the domain's name. The decision is one pure function of the update's counts, so
 * the console's banner says the same words the pause was made with.
 */
import { ACTOR, audit } from "../audit";
import type { ServerConfig } from "../config";
import type { Db } from "../db/types";
import { pauseJob } from "../jobs";
import { log } from "../log";
import { createSuppressionStore, type UpdateReputation } from "./store";

/** The fewest messages a rate is taken of (see mustPause). */
export const PAUSE_MIN_SENT = 100;

const percent = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : 0);
/** A rate as people read it: `0.4 %`. */
export const rateText = (part: number, whole: number) =>
  `${percent(part, whole).toLocaleString("en", { maximumFractionDigits: 2 })} %`;

/**
 * Why an update with these counts must pause, in words for the banner; null while it may go on. Rates are of the
 * messages accepted, but never of fewer than PAUSE_MIN_SENT: early on, 1 bounce among 10 sent is 1 of 100 (1 %),
 * not 10 %, so a few dead addresses at the head of a list do not stop it, while one complaint in the first 300
 * already passes 0.3 % as it would at the end.
 */
export function mustPause(counts: UpdateReputation, config: Pick<ServerConfig, "reputation">): string | null {
  const { pauseComplaintRate, pauseBounceRate } = config.reputation;
  const base = Math.max(counts.sent, PAUSE_MIN_SENT);
  if (percent(counts.complaints, base) > pauseComplaintRate) {
    return `Paused by itself: ${counts.complaints} ${counts.complaints === 1 ? "complaint" : "complaints"}, ${rateText(counts.complaints, counts.sent)} of ${counts.sent} sent, past ${pauseComplaintRate} %.`;
  }
  if (percent(counts.hardBounces, base) > pauseBounceRate) {
    return `Paused by itself: ${counts.hardBounces} ${counts.hardBounces === 1 ? "hard bounce" : "hard bounces"}, ${rateText(counts.hardBounces, counts.sent)} of ${counts.sent} sent, past ${pauseBounceRate} %.`;
  }
  return null;
}

/**
 * The one call site of the automatic pause, after each bounce or complaint counted against an update: the long-job
 * core's pause with its reason (src/server/jobs/), so the run sending it stops at its next step, everyone left
 * queued, the console shows why, and Resume goes on.
 */
export async function pauseIfItMust(
  deps: { db: Db; config: Pick<ServerConfig, "reputation">; onPause?: (updateId: number, why: string) => void },
  updateId: number,
): Promise<string | null> {
  const why = mustPause(await createSuppressionStore(deps.db).reputation(updateId), deps.config);
  if (!why) return null;
  const paused = await pauseJob(deps.db, "update", updateId, why);
  if (paused) {
    log("warn", "updates.paused_by_reputation", { update: updateId, why });
    await audit(deps.db, ACTOR.mailEvents, "updates.paused", { update: updateId, why });
    deps.onPause?.(updateId, why);
  }
  return why;
}
