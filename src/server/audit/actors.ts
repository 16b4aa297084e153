/**
 * Who an audit entry says acted: the credential, as written in the entry's `actor`, and how the console's log names
 * it. An admin signed in by link is their address (written as it is); every other credential is one of these
 * words, so that the product's redemption token, the admin token, the command line and a scheduled run are never
 * taken for one another.
 */
export const ACTOR = {
  /** WAITLIST_ADMIN_TOKEN: a console session signed in by token, or the export API. */
  adminToken: "token",
  /** INVITE_REDEEM_TOKEN: the product redeeming invitation codes (POST /api/invites/redeem). */
  redeemToken: "redeem-token",
  /** `npm run waitlist -- …` on someone's machine. */
  cli: "CLI",
  /** A scheduled function (netlify.toml's schedules): reminders, the daily purge. */
  scheduled: "scheduled",
  /** The mail providers' events, pausing an update by itself. */
  mailEvents: "mail-events",
} as const;

const NAMES: Record<string, string> = {
  [ACTOR.adminToken]: "The admin token",
  [ACTOR.redeemToken]: "The product's redemption token",
  [ACTOR.cli]: "The command line",
  [ACTOR.scheduled]: "A scheduled run",
  [ACTOR.mailEvents]: "Mail events",
  smtp: "The SMTP server",
  ses: "Amazon SES",
  postmark: "Postmark",
  resend: "Resend",
};

/**
 * Who acted, in words: an admin's address as it is; a credential by name. Entries written before the redemption
 * token had a name of its own say "token" for it: only the redemption endpoint writes invite.redeem, and the admin
 * token cannot redeem, so such an entry is the redemption token's.
 */
export function actorName(actor: string, action = ""): string {
  if (actor === ACTOR.adminToken && action === "invite.redeem") return NAMES[ACTOR.redeemToken] as string;
  return Object.hasOwn(NAMES, actor) ? (NAMES[actor] as string) : actor;
}
