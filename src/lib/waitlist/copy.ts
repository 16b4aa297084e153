/** The form's words, shared by the dialog (React) and the /join page (plain HTML). */
export const FORM_COPY = {
  title: "Join the Waitlist",
  intro: "Get early access and help shape what we build. Only your e-mail address is required.",
  labels: {
    name: { label: "Name", hint: "(optional)" },
    email: { label: "Email", hint: "(required)" },
    organization: { label: "Organization", hint: "(optional)" },
    why: { label: "Why are you interested?", hint: "(optional)" },
    connect: { label: "How would you like to connect or contribute?", hint: "(optional)" },
  },
  terms: { before: "I accept the", link: "Terms of Service", newTab: "(opens in a new tab)" },
  submit: "Join the Waitlist",
  submitting: "Submitting...",
  thanks: {
    title: "Thank you for signing up!",
    body: "We're growing fast and the product is in active development. We'll let you know as soon as your early-access account is ready.",
  },
} as const;
