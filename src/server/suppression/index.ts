/**
 * The suppression list, for every feature that mails people or reads what came back: the guarded mailer they send
 * through, the record of an event, the person page's view and Lift, an update's counts and the pause decision.
 */

export { RECIPIENT, redactEvidence } from "./evidence";
export { guardedDeps, listKeysOf, mailGuard, suppressedMailer } from "./guard";
export { withJobMailer } from "./job-mailer";
export { mustPause, pauseIfItMust, rateText } from "./pause";
export { type EventOutcome, type MailEvent, recordMailEvent } from "./record";
export {
  createSuppressionStore,
  type ListKeys,
  type Suppression,
  type SuppressionReason,
  type SuppressionStore,
  type UpdateReputation,
} from "./store";
