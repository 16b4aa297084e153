/** The form's words, shared by the dialog (React) and the /join page (plain HTML). */
export const FORM_TEXT = {
  title: "Join the Waitlist",
  intro: "Get early access and help shape what we build. Only your e-mail address is required.",
  /** Shown to a visitor who came by a share link (`?via=`): no name, no address, only that a friend sent it. */
  invitedByFriend: "A friend invited you to join.",
  terms: { before: "I accept the", link: "Terms of Service", newTab: "(opens in a new tab)" },
  submit: "Join the Waitlist",
  submitting: "Submitting...",
  thanks: {
    title: "Thank you for signing up!",
    body: "We're growing fast and the product is in active development. We'll let you know as soon as your early-access account is ready.",
    /**
     * Not in docs/brief.md: added while sign-ups are confirmed by e-mail (SMTP_URL and MAIL_FROM set). It opens by
     * agreeing with the brief's success toast ("You've been added to the waitlist."): they are on the list, and the
     * link confirms their place.
     */
    confirmationSent:
      "You're on the list: we've sent a confirmation link to your e-mail address. Please open it to confirm your place.",
    /** The fragment of /join/thanks that shows that line (a form post is sent there; CSS :target, no script). */
    confirmationFragment: "confirmation-sent",
  },
} as const;

/**
 * Around the sign-up controls in /join's built HTML (JoinForm.astro): a refused form post (no JavaScript) is answered
 * with that page, these controls rendered again by the same component with what was sent and why it was refused
 * (src/server/signup/join-refusal.tsx), so the form's markup is written once.
 */
export const JOIN_FIELDS_MARK = { start: "<!--join-fields-->", end: "<!--/join-fields-->" } as const;
