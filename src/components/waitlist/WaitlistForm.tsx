import { Description, DialogTitle } from "@headlessui/react";
import type { ReactNode, SubmitEvent } from "react";
import { FORM_COPY } from "../../lib/waitlist/copy";
import type { SignupForm } from "../../lib/waitlist/rules";
import { Button, Field, Input, Textarea } from "../ui/field";

interface WaitlistFormProps {
  values: SignupForm;
  submitting: boolean;
  onChange: (values: SignupForm) => void;
  onSubmit: () => void;
  /** Extra hidden parts (the honeypot). */
  children?: ReactNode;
}

/** The sign-up fields. Validation is the caller's (noValidate: the brief's toasts, not browser bubbles). */
export function WaitlistForm({ values, submitting, onChange, onSubmit, children }: WaitlistFormProps) {
  const set = (key: keyof SignupForm) => (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
    onChange({
      ...values,
      [key]: key === "termsAccepted" ? (event.currentTarget as HTMLInputElement).checked : event.currentTarget.value,
    });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-busy={submitting}>
      <div>
        <DialogTitle className="text-2xl font-bold tracking-tight text-ink-950">{FORM_COPY.title}</DialogTitle>
        <Description className="mt-2 text-ink-700">{FORM_COPY.intro}</Description>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="waitlist-name" {...FORM_COPY.labels.name}>
          <Input id="waitlist-name" name="name" autoComplete="name" value={values.name} onChange={set("name")} />
        </Field>
        <Field id="waitlist-email" {...FORM_COPY.labels.email}>
          <Input
            id="waitlist-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            aria-required="true"
            data-autofocus
            value={values.email}
            onChange={set("email")}
          />
        </Field>
      </div>
      <Field id="waitlist-organization" {...FORM_COPY.labels.organization}>
        <Input
          id="waitlist-organization"
          name="organization"
          autoComplete="organization"
          value={values.organization}
          onChange={set("organization")}
        />
      </Field>
      <Field id="waitlist-why" {...FORM_COPY.labels.why}>
        <Textarea id="waitlist-why" name="why" rows={3} value={values.why} onChange={set("why")} />
      </Field>
      <Field id="waitlist-connect" {...FORM_COPY.labels.connect}>
        <Textarea id="waitlist-connect" name="connect" rows={3} value={values.connect} onChange={set("connect")} />
      </Field>
      <div className="flex items-start gap-3">
        <input
          id="waitlist-terms"
          name="termsAccepted"
          type="checkbox"
          required
          checked={values.termsAccepted}
          onChange={set("termsAccepted")}
          className="mt-0.5 size-5 shrink-0 rounded border-ink-300 accent-brand-600"
        />
        <label htmlFor="waitlist-terms" className="text-sm text-ink-800">
          {FORM_COPY.terms.before}{" "}
          <a href="/terms-of-service" target="_blank" rel="noopener" className="font-semibold text-brand-700 underline">
            {FORM_COPY.terms.link}
            <span className="sr-only"> {FORM_COPY.terms.newTab}</span>
          </a>
        </label>
      </div>
      {children}
      <Button type="submit" disabled={submitting} className="w-full sm:w-auto">
        {submitting ? FORM_COPY.submitting : FORM_COPY.submit}
      </Button>
    </form>
  );
}
