import type { Config } from "@netlify/functions";
import { PURGE_MIN_DAYS } from "../../src/lib/waitlist/consent";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { ACTOR, audit, createAuditLog } from "../../src/server/audit";
import { getConfig } from "../../src/server/config";
import { describeError, log } from "../../src/server/log";
import { createVisitStore, ROLLUP_MONTHS } from "../../src/server/visits";
import { createWebhookStore, OUTBOX_DAYS } from "../../src/server/webhooks";

/**
 * Daily: deletes pending sign-ups (never confirmed) untouched for PURGE_PENDING_AFTER_DAYS days (at least 7, the
 * life of a confirmation link; a shorter setting purges nothing and logs an error). Off unless that variable is set; `npm run waitlist -- purge-pending --older-than 14d` does the same by hand.
 */
export default configured(async (): Promise<Response> => {
  // The audit log keeps AUDIT_DAYS (365) days, the webhook outbox OUTBOX_DAYS, visits 25 months: older go every day, whatever
  // the pending purge's setting.
  try {
    const store = await getStore();
    const removed = await createAuditLog(store.db).purge(getConfig().auditDays);
    log("info", "audit.purged", { days: getConfig().auditDays, removed });
    // The webhook outbox keeps no one longer than OUTBOX_DAYS after their event was delivered or failed.
    log("info", "webhooks.retained", {
      days: OUTBOX_DAYS,
      ...(await createWebhookStore(store.db).retain(OUTBOX_DAYS)),
    });
    // Visits' rollups are kept ROLLUP_MONTHS (25); the salts and marks of days before yesterday go too, on a day
    // nobody came (docs/privacy.md).
    const today = new Date().toISOString().slice(0, 10);
    log("info", "visits.retained", { months: ROLLUP_MONTHS, ...(await createVisitStore(store.db).purge(today)) });
  } catch (error) {
    log("error", "audit.purge_failed", describeError(error));
  }
  const days = getConfig().purgePendingAfterDays;
  if (days === null) {
    log("info", "waitlist.purge_off");
    return new Response(null, { status: 204 });
  }
  if (days < PURGE_MIN_DAYS) {
    // A shorter age would delete people whose confirmation link still works: refused, and said so every day.
    log("error", "waitlist.purge_refused", { days, minimum: PURGE_MIN_DAYS });
    return new Response(null, { status: 204 });
  }
  try {
    const store = await getStore();
    const { purged } = await store.purgePending(days * 24, true);
    log("info", "waitlist.purge_pending", { days, purged });
    // People deleted are the team's action, taken by the schedule: in the audit log (a day that deletes nobody is not).
    if (purged > 0) await audit(store.db, ACTOR.scheduled, "purge-pending", { purged, olderThanHours: days * 24 });
    return new Response(null, { status: 204 });
  } catch (error) {
    log("error", "waitlist.purge_failed", describeError(error));
    return new Response(null, { status: 503 });
  }
});

export const config: Config = { schedule: "@daily" };
