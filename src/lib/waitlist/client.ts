import type { SignupForm } from "./rules";

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

/** Posts a sign-up; throws SubmitError on a network failure (status null) or any non-2xx answer. */
export async function submitSignup(form: SignupForm & { homepage?: string }): Promise<void> {
  let response: Response;
  try {
    response = await fetch(WAITLIST_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(form),
    });
  } catch (error) {
    throw new SubmitError(`Waitlist request failed: ${String(error)}`, null);
  }
  if (!response.ok) {
    const detail = await response.text().catch(() => "");
    throw new SubmitError(`Waitlist request failed with ${response.status}: ${detail.slice(0, 200)}`, response.status);
  }
}
