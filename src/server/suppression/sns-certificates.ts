/**
 * SNS's signing certificates, as the SES endpoint fetches them: only from where AWS's documented verification says
 * they are (https, an `sns.<region>.amazonaws.com` host, a path ending `.pem`: what AWS's own sns-validator checks),
 * and kept in a small LRU, so a stream of messages naming ever new certificate URLs can neither grow the process's
 * memory nor make it fetch more than once per URL it still holds. SNS signs with one certificate per region for
 * months: 16 entries hold every region a site could use at once.
 */
import { X509Certificate } from "node:crypto";

/** An SNS host: `sns.<region>.amazonaws.com` (or `.amazonaws.com.cn` in China). */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** How many certificates are kept: the least recently used goes first. */
export const CERTIFICATE_CACHE_SIZE = 16;

/** An https URL on an SNS host's default port, with no credentials: where SNS's SubscribeURL points. */
export const isSnsUrl = (value: unknown): value is string => {
  try {
    const url = new URL(String(value));
    const bare = url.port === "" && url.username === "" && url.password === "";
    return url.protocol === "https:" && SNS_HOST.test(url.hostname) && bare;
  } catch {
    return false;
  }
};

/** A SigningCertURL we fetch: an SNS URL whose path ends `.pem`, with no query or fragment to dress it up. */
export const isSnsCertificateUrl = (value: unknown): value is string => {
  if (!isSnsUrl(value)) return false;
  const url = new URL(value);
  return url.pathname.endsWith(".pem") && !value.includes("?") && !value.includes("#");
};

const certificates = new Map<string, Promise<X509Certificate>>();
/** Forgets the certificates fetched (a test's fresh start). */
export const forgetCertificates = () => certificates.clear();
/** How many certificates are held now (never more than CERTIFICATE_CACHE_SIZE). */
export const cachedCertificates = () => certificates.size;

/** The certificate at `url` (an isSnsCertificateUrl), from the cache or fetched once; a failed fetch is not kept. */
export function snsCertificate(url: string, get: typeof fetch): Promise<X509Certificate> {
  const held = certificates.get(url);
  if (held) {
    // Used again: moved to the newest end of the map's order, the last to be evicted.
    certificates.delete(url);
    certificates.set(url, held);
    return held;
  }
  const fetched = get(url, { redirect: "error", signal: AbortSignal.timeout(5000) }).then(async (response) => {
    if (!response.ok) throw new Error(`certificate: HTTP ${response.status}`);
    return new X509Certificate(await response.text());
  });
  certificates.set(url, fetched);
  for (const oldest of certificates.keys()) {
    if (certificates.size <= CERTIFICATE_CACHE_SIZE) break;
    certificates.delete(oldest);
  }
  fetched.catch(() => {
    if (certificates.get(url) === fetched) certificates.delete(url);
  });
  return fetched;
}
