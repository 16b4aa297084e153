import type { SignupForm } from "./schema";

export const WAITLIST_ENDPOINT = "/api/waitlist";

/** Posts a sign-up; throws on a network failure or any non-2xx answer. */
export async function submitSignup(form: SignupForm): Promise<void> {
  const response = await fetch(WAITLIST_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(form),
  });
  if (!response.ok) {
    const detail = await response.text().catch(() => "");
    throw new Error(`Waitlist request failed with ${response.status}: ${detail.slice(0, 200)}`);
  }
}
