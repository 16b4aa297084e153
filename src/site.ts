/**
 * Site-wide constants: the one place to rename the product or move the site.
 * Everything user-facing that names the product reads `SITE.name` from here.
 */
export const SITE = {
  name: "Noosphere",
  tagline: "Where what you learn becomes what we know.",
  description:
    "Noosphere is a private, offline-first browser extension that turns what you highlight and think into a personal knowledge graph, and lets you share it selectively to build collective intelligence.",
  url: "https://noosphere.app",
  locale: "en",
  contactEmail: "hello@noosphere.app",
} as const;

export interface NavLink {
  label: string;
  href: string;
}

/** Top navigation, in order. "Join the Waitlist" is a separate call to action. */
export const NAV: readonly NavLink[] = [
  { label: "About", href: "/#about" },
  { label: "Product", href: "/product" },
  { label: "Contact", href: "/#contact" },
];

/** Where a "Join the Waitlist" control leads without JavaScript (with it, the same click opens the dialog). */
export const WAITLIST_HREF = "/join";
export const WAITLIST_LABEL = "Join the Waitlist";
