/**
 * What a sign-up that came by a share link records: whose link it was, and whether it can ever count. Decided
 * here, where the referrer's address can be opened (a sealed row's is not readable in SQL): the referrer's own
 * mailbox is `self`; everything else waits as `pending` for the confirmation (a throwaway domain is settled there,
 * disposable.ts; the count, count.ts). An unknown code records nothing: the sign-up goes on as any other.
 */
import type { WaitlistEntry } from "../entry";
import { mailboxOf } from "../mail/mailbox";
import type { ReferralStore } from "../store/types";

export async function referralOf(
  referrals: ReferralStore,
  code: string | null,
  email: string,
): Promise<WaitlistEntry["referral"]> {
  if (code === null) return undefined;
  const referrer = await referrals.referrer(code);
  if (!referrer) return undefined;
  if (mailboxOf(referrer.email) === mailboxOf(email)) return { referrerId: referrer.id, outcome: "self" };
  return { referrerId: referrer.id, outcome: "pending" };
}
