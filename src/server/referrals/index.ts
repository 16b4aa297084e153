/**
 * What other features use of referrals: the SQL that records a referral with its sign-up and counts it with the
 * confirmation, the referral a sign-up carries, the SQL a confirmation settles a throwaway address's referral with,
 * and the status link an update carries (made by the sender, read by the updates choice). The status page and its
 * stored link are this folder's own.
 */
export {
  COUNT_REFERRAL,
  DISPOSABLE_SQL,
  isUniqueViolation,
  RECORD_REFERRAL,
  type ReferralOutcome,
} from "./count";
export { referralOf } from "./signup";
export { statusLinkOf, statusPageLink } from "./status-token";
