/**
 * Throwaway-mailbox domains, from the registry's maintained list (mailchecker: about 56,000 domains, and their
 * subdomains), not a list typed here. A referred address at one of them is still signed up and may confirm, but
 * its referral counts nothing: the confirmation settles it just before counting (links/throwaway.ts), so the
 * list (about 350 KB of a function's zip) rides with the confirmation link's function, never with the sign-up's,
 * the hottest path of launch day; nothing the sign-up imports may import this file. Loaded on the first referral a
 * process confirms, so confirmations without one never pay for it.
 */
let domains: Promise<Set<string>> | undefined;

/** Whether `email`'s domain (or a domain it is under) is a throwaway one. */
export async function isDisposable(email: string): Promise<boolean> {
  // A CommonJS package: Node's ESM loader offers its exports as `default` only (vitest's, as names too).
  domains ??= import("mailchecker").then((module) => module.default.blacklist());
  const listed = await domains;
  const labels = email
    .slice(email.lastIndexOf("@") + 1)
    .toLowerCase()
    .split(".");
  return labels.some((_, i) => i < labels.length - 1 && listed.has(labels.slice(i).join(".")));
}
