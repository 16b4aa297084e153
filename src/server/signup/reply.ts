/**
 * A sign-up's answers in the caller's language: JSON for the dialog, a redirect or a small HTML page for a form
 * post. With confirmation by e-mail on, every accepted sign-up (new, repeated, confirmed or not) says a link was
 * sent: the answer never tells who is on the list.
 */
import { formErrorPage, formSuccess } from "../http/form-page";
import { json } from "../http/responses";
import type { Refusal } from "./join-refusal";

const ACCEPTED = { ok: true } as const;
const CONFIRMATION_SENT = { ok: true, confirmation: "sent" } as const;
export const AGAIN = "Please try again";

export type Reply = ReturnType<typeof replyTo>;

export function replyTo(form: boolean, confirmation: boolean, joinPage?: () => Promise<string>) {
  return {
    form,
    accepted: () => (form ? formSuccess(confirmation) : json(201, confirmation ? CONFIRMATION_SENT : ACCEPTED)),
    error: (status: number, error: string, headers: Record<string, string> = {}) => {
      if (!form) return json(status, { error }, headers);
      return formErrorPage(status, status === 400 ? "Please check the form" : AGAIN, error, { headers });
    },
    /**
     * Refused once the sign-up was read: a form post gets /join again, filled with what it sent. Its renderer
     * (react-dom/server) is loaded then only, so a sign-up's cold start does not read it.
     */
    refused: async (fields: Record<string, unknown>, refusal: Refusal) =>
      form
        ? (await import("./join-refusal")).refusedJoin(joinPage, fields, refusal)
        : json(refusal.status, { error: refusal.message }, refusal.headers ?? {}),
  };
}
