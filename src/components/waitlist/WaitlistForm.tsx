import { Description, DialogTitle } from "@headlessui/react";
import type { SubmitEvent } from "react";
import { FORM_TEXT } from "../../lib/waitlist/form-text";
import type { Question } from "../../lib/waitlist/questions";
import { referralCodeOf } from "../../lib/waitlist/referral";
import type { DialogValues, FieldKey } from "../../lib/waitlist/rules";
import { Button } from "../ui/field";
import { SignupFields } from "./SignupFields";

interface WaitlistFormProps {
  values: DialogValues;
  submitting: boolean;
  onChange: (values: DialogValues) => void;
  onSubmit: () => void;
  /** The field the last check failed on, marked as well as toasted (SignupFields). */
  invalid?: { field: FieldKey; message: string } | null;
  questions?: readonly Question[];
}

/** The dialog's form. Validation is the caller's (noValidate: docs/brief.md's toasts, not browser bubbles). */
export function WaitlistForm({
  values,
  submitting,
  onChange,
  onSubmit,
  invalid = null,
  questions = [],
}: WaitlistFormProps) {
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-busy={submitting}>
      <div>
        <DialogTitle className="text-2xl font-bold tracking-tight text-ink-950">{FORM_TEXT.title}</DialogTitle>
        <Description className="mt-2 text-ink-700">{FORM_TEXT.intro}</Description>
        {referralCodeOf(location.href) && (
          <p className="mt-2 font-semibold text-brand-700">{FORM_TEXT.invitedByFriend}</p>
        )}
      </div>
      <SignupFields idPrefix="waitlist" values={values} onChange={onChange} invalid={invalid} questions={questions} />
      <Button type="submit" disabled={submitting} className="w-full sm:w-auto">
        {submitting ? FORM_TEXT.submitting : FORM_TEXT.submit}
      </Button>
    </form>
  );
}
