/**
 * Times as every console page writes them: in UTC, to the minute ("2026-11-27 14:05") or, where events come
 * seconds apart (the webhook log), to the second; or, where what matters is how long ago or how soon (the webhook
 * log's rows), relative to the server's clock ("4 min ago", "in 2 h"). One rule, so two pages never show one moment
 * two ways.
 */
export const utcMinute = (iso: string) => iso.slice(0, 16).replace("T", " ");
export const utcSecond = (iso: string) => iso.slice(0, 19).replace("T", " ");

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How far `iso` is from `now`, in whole units (down): under a minute, minutes, hours under two days, then days. */
export function relativeTime(iso: string, now: Date): string {
  const ms = new Date(iso).getTime() - now.getTime();
  const far = Math.abs(ms);
  const span =
    far < MINUTE
      ? null
      : far < HOUR
        ? `${Math.floor(far / MINUTE)} min`
        : far < 2 * DAY
          ? `${Math.floor(far / HOUR)} h`
          : `${Math.floor(far / DAY)} days`;
  if (span === null) return ms > 0 ? "in under a minute" : "under a minute ago";
  return ms > 0 ? `in ${span}` : `${span} ago`;
}
