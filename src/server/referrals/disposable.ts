/**
 * Throwaway-mailbox domains, from the registry's maintained list (disposable-email-domains: every listed domain,
 * and the domains whose every subdomain is one too), not a list typed here. A referred address at one of them is
 * still signed up, but its referral counts nothing. Loaded on the first referral a process sees (2.4 MB of JSON).
 */
let domains: Promise<{ exact: Set<string>; wildcard: Set<string> }> | undefined;

async function load() {
  const [exact, wildcard] = await Promise.all([
    import("disposable-email-domains/index.json", { with: { type: "json" } }),
    import("disposable-email-domains/wildcard.json", { with: { type: "json" } }),
  ]);
  return { exact: new Set<string>(exact.default), wildcard: new Set<string>(wildcard.default) };
}

/** Whether `email`'s domain is a throwaway one (or a subdomain of a listed wildcard). */
export async function isDisposable(email: string): Promise<boolean> {
  domains ??= load();
  const { exact, wildcard } = await domains;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (exact.has(domain)) return true;
  const labels = domain.split(".");
  return labels.some((_, i) => i > 0 && wildcard.has(labels.slice(i).join(".")));
}
