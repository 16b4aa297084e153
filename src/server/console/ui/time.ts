/**
 * Times as every console page writes them: in UTC, to the minute ("2026-11-27 14:05") or, where events come
 * seconds apart (the webhook log), to the second. One rule, so two pages never show one moment two ways.
 */
export const utcMinute = (iso: string) => iso.slice(0, 16).replace("T", " ");
export const utcSecond = (iso: string) => iso.slice(0, 19).replace("T", " ");
