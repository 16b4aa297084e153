import type { Challenge, Solution } from "altcha-lib";
import { attributionOf } from "./attribution";
import { REFERRAL_FIELD, referralCodeOf } from "./referral";
import { HONEYPOT_FIELD, PROOF_FIELD, type Signup } from "./rules";

export const WAITLIST_ENDPOINT = "/api/waitlist";

export class SubmitError extends Error {
  override name = "SubmitError";
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** What the dialog posts: the sign-up as the browser checked it, and the two fields people never fill. */
export type SignupPost = Signup & { termsAccepted: true; [HONEYPOT_FIELD]: string; [PROOF_FIELD]?: string };

async function post(form: SignupPost): Promise<Response> {
  // Where the visitor came from, worked out here because only the page knows its referrer; nothing is kept.
  const attribution = attributionOf(location.href, document.referrer);
  // The share link the visit came by (?via=), read from the page's own address: nothing kept on the device.
  const referral = referralCodeOf(location.href);
  try {
    return await fetch(WAITLIST_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ ...form, attribution, ...(referral ? { [REFERRAL_FIELD]: referral } : {}) }),
    });
  } catch (error) {
    throw new SubmitError(`Waitlist request failed: ${String(error)}`, null);
  }
}

/** The proof the server verifies (`verifyProof`): the challenge and its solution, as base64 JSON. */
export const encodeProof = (challenge: Challenge, solution: Solution): string =>
  btoa(JSON.stringify({ challenge, solution }));

/** Solves a challenge in a Web Worker; resolves to the proof the server verifies. */
async function solve(challenge: Challenge): Promise<string> {
  const worker = new Worker(new URL("./proof.worker.ts", import.meta.url), { type: "module" });
  try {
    const solution = await new Promise<Solution | null>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<Solution | null>) => resolve(event.data);
      worker.onerror = () => reject(new SubmitError("The anti-spam check could not run.", 429));
      worker.postMessage(challenge);
    });
    if (!solution) throw new SubmitError("The anti-spam check could not be solved in time.", 429);
    return encodeProof(challenge, solution);
  } finally {
    worker.terminate();
  }
}

/**
 * Posts a sign-up. Past its network's free allowance the server answers 429 with a proof-of-work challenge:
 * it is solved in a Web Worker and the sign-up is posted again with the proof. Throws SubmitError on a
 * network failure (status null) or any other non-2xx answer. Resolves to whether a confirmation link was sent
 * (sign-ups are confirmed by e-mail on this site).
 */
export async function submitSignup(form: SignupPost): Promise<{ confirmationSent: boolean }> {
  let response = await post(form);
  if (response.status === 429) {
    const body = (await response.json().catch(() => null)) as { challenge?: Challenge } | null;
    if (body?.challenge) response = await post({ ...form, [PROOF_FIELD]: await solve(body.challenge) });
  }
  if (!response.ok) {
    const detail = await response.text().catch(() => "");
    throw new SubmitError(`Waitlist request failed with ${response.status}: ${detail.slice(0, 200)}`, response.status);
  }
  const body = (await response.json().catch(() => null)) as { confirmation?: unknown } | null;
  return { confirmationSent: body?.confirmation === "sent" };
}
