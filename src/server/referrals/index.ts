/**
 * What other features use of referrals: the SQL that records a referral with its sign-up and counts it with the
 * confirmation, the referral a sign-up carries, and the SQL a confirmation settles a throwaway address's referral
 * with. The status page and its stored link are this folder's own (the link an update carries: updates/status-token.ts).
 */
export {
  COUNT_REFERRAL,
  DISPOSABLE_SQL,
  isUniqueViolation,
  RECORD_REFERRAL,
  type ReferralOutcome,
} from "./count";
export { referralOf } from "./signup";
