import { DialogTitle } from "@headlessui/react";
import { FORM_TEXT } from "../../lib/waitlist/form-text";
import { Button } from "../ui/field";

interface ThankYouProps {
  onClose: () => void;
  /** True when the server sent (or will send) a confirmation link: one more line says so. */
  confirmationSent?: boolean;
}

export function ThankYou({ onClose, confirmationSent = false }: ThankYouProps) {
  return (
    <div className="py-6 text-center" data-testid="waitlist-thanks">
      <div aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-100">
        <svg
          viewBox="0 0 24 24"
          width="28"
          height="28"
          fill="none"
          stroke="#5b3ee6"
          strokeWidth="2.5"
          aria-hidden="true"
        >
          <path d="M5 12.5 10 17l9-10" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
      <DialogTitle className="mt-5 text-2xl font-bold tracking-tight text-ink-950">
        Thank you for signing up!
      </DialogTitle>
      <p className="mx-auto mt-3 max-w-md text-ink-700">{FORM_TEXT.thanks.body}</p>
      {confirmationSent && (
        <p className="mx-auto mt-3 max-w-md font-semibold text-ink-900" data-testid="waitlist-confirmation">
          {FORM_TEXT.thanks.confirmationSent}
        </p>
      )}
      <Button type="button" className="mt-8" onClick={onClose} autoFocus>
        Close
      </Button>
    </div>
  );
}
