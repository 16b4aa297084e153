/** What a sender makes of the SMTP server's answers: a refusal for one recipient, or a server that cannot be used. */

/** Refused for this recipient (a 4xx/5xx answer to the envelope or message), as opposed to no server to talk to. */
export function isRefusal(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return typeof responseCode === "number" && responseCode >= 400 && code !== "ECONNECTION" && code !== "EAUTH";
}

/** Thrown before an e-mail's last bytes when its person is no longer to be mailed (they left): it is abandoned. */
export class NoLongerHeld extends Error {
  override name = "NoLongerHeld";
}

/** What went wrong, for people: the class and SMTP answer, never an address. */
export function reason(error: unknown): string {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return [error instanceof Error ? error.name : "Error", code, responseCode].filter(Boolean).join(" ");
}
