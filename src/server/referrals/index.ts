/**
 * What other features use of referrals: the SQL that records a referral with its sign-up and counts it with the
 * confirmation, and the referral a sign-up carries. The status page and its link are this folder's own.
 */
export { COUNT_REFERRAL, isUniqueViolation, RECORD_REFERRAL, type ReferralOutcome } from "./count";
export { referralOf } from "./signup";
