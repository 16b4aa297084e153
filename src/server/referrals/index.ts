/**
 * What other features use of referrals: the SQL that records a referral with its sign-up and counts it with the
 * confirmation, the referral a sign-up carries, and the SQL a confirmation settles a throwaway address's referral with. The status page and its link are this folder's own.
 */
export {
  COUNT_REFERRAL,
  DISPOSABLE_SQL,
  isUniqueViolation,
  RECORD_REFERRAL,
  type ReferralOutcome,
} from "./count";
export { referralOf } from "./signup";
