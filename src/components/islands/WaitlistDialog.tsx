import { Dialog, DialogBackdrop, DialogPanel } from "@headlessui/react";
import { useEffect, useRef, useState } from "react";
import type { CarriedForm } from "../../lib/waitlist/capture";
import { SubmitError, submitSignup } from "../../lib/waitlist/client";
import { connectOpener } from "../../lib/waitlist/opener";
import type { Question } from "../../lib/waitlist/questions";
import { type DialogValues, type FieldKey, HONEYPOT_FIELD, MESSAGES } from "../../lib/waitlist/rules";
import { validateInBrowser } from "../../lib/waitlist/validate";
import { Toaster, toastError, toastSuccess } from "../ui/toast";
import { ThankYou } from "../waitlist/ThankYou";
import { WaitlistForm } from "../waitlist/WaitlistForm";

const EMPTY: DialogValues = {
  name: "",
  email: "",
  organization: "",
  why: "",
  connect: "",
  termsAccepted: false,
  homepage: "",
  answers: {},
};

/** What the early dialog carried over, as the island's values (fields it does not know are left out). */
function valuesOf(carried: CarriedForm): DialogValues {
  const values = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as Array<keyof DialogValues>) {
    const value = carried.values[key];
    if (key === "termsAccepted") values.termsAccepted = value === true;
    else if (key !== "answers" && typeof value === "string") values[key] = value;
  }
  return values;
}

/**
 * Puts the caret back where it was in the early dialog, once the island's dialog has placed its own focus on the
 * field marked to autofocus. Not when the visitor has already moved on to another field: moving focus between a
 * field's selection and its typing would send their keystrokes into the wrong field.
 */
function restoreFocus(focus: NonNullable<CarriedForm["focus"]>) {
  const id = `waitlist-${focus.name === "termsAccepted" ? "terms" : focus.name}`;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const field = document.getElementById(id);
      if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
      const active = document.activeElement;
      const movedOn = active !== field && active?.closest("form") && !active.hasAttribute("data-autofocus");
      if (movedOn) return;
      field.focus();
      if (focus.start !== null && field.type !== "checkbox" && field.type !== "email") {
        field.setSelectionRange(focus.start, focus.end ?? focus.start);
      }
    }),
  );
}

/**
 * The waitlist dialog: open form → submitting → submitted (thank-you view). Closing resets everything.
 * It opens from every `[data-waitlist-open]` control, including clicks made before it hydrated. The team's
 * questions come as props: server-rendered data, no request.
 */
export default function WaitlistDialog({ questions = [] }: { questions?: readonly Question[] }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<DialogValues>(EMPTY);
  // The field the last check failed on: marked until the person edits the form again.
  const [invalid, setInvalid] = useState<{ field: FieldKey; message: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState<false | { confirmationSent: boolean }>(false);
  const opener = useRef<HTMLElement | null>(null);
  const inFlight = useRef(false);

  useEffect(
    () =>
      connectOpener((element, carried) => {
        opener.current = element;
        // Taking over the early dialog: what was typed stays, and the caret where it was.
        if (carried) setValues(valuesOf(carried));
        setOpen(true);
        if (carried?.focus) restoreFocus(carried.focus);
      }),
    [],
  );

  const close = () => {
    setOpen(false);
    setValues(EMPTY);
    setInvalid(null);
    setSubmitted(false);
    setSubmitting(false);
    // Focus goes back to the control that opened the dialog.
    const target = opener.current;
    requestAnimationFrame(() => target?.focus());
  };

  const submit = async () => {
    if (inFlight.current) return;
    const result = validateInBrowser(values, questions);
    if (!result.ok) {
      toastError(result.title, result.message);
      setInvalid(result.field ? { field: result.field, message: result.message } : null);
      return;
    }
    setInvalid(null);
    inFlight.current = true;
    setSubmitting(true);
    try {
      // What was checked is what is sent: the trimmed values (the server checks them again).
      const answer = await submitSignup({
        ...result.value,
        termsAccepted: true,
        [HONEYPOT_FIELD]: values[HONEYPOT_FIELD],
      });
      toastSuccess(MESSAGES.success.title, MESSAGES.success.description);
      setSubmitted(answer);
    } catch (error) {
      console.error("Waitlist sign-up failed:", error);
      const { title, description } =
        error instanceof SubmitError && error.status === 429 ? MESSAGES.rateLimited : MESSAGES.failure;
      toastError(title, description);
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  return (
    <>
      {!open && <Toaster />}
      <Dialog open={open} onClose={close} className="fixed inset-0 z-50 overflow-y-auto">
        <DialogBackdrop className="fixed inset-0 bg-ink-950/60" />
        <div className="relative flex min-h-full items-start justify-center p-4 sm:items-center sm:p-6">
          <DialogPanel className="relative w-full max-w-2xl rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
            <button
              type="button"
              onClick={close}
              className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-full text-ink-600 hover:bg-ink-50 hover:text-ink-900"
            >
              <span className="sr-only">Close</span>
              <svg
                viewBox="0 0 24 24"
                width="20"
                height="20"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden="true"
              >
                <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
              </svg>
            </button>
            {submitted ? (
              <ThankYou onClose={close} confirmationSent={submitted.confirmationSent} />
            ) : (
              <WaitlistForm
                values={values}
                submitting={submitting}
                onChange={(next) => {
                  setValues(next);
                  setInvalid(null);
                }}
                onSubmit={submit}
                invalid={invalid}
                questions={questions}
              />
            )}
            <Toaster bottom={submitted !== false} />
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}
