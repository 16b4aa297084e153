import type { ChangeEvent } from "react";
import { FORM_TEXT } from "../../lib/waitlist/form-text";
import type { Question } from "../../lib/waitlist/questions";
import { BRIEF_FIELDS, type DialogValues, type FieldKey } from "../../lib/waitlist/rules";
import { Field, Input, Textarea } from "../ui/field";
import { Honeypot } from "./Honeypot";
import { QuestionFields } from "./QuestionFields";

interface SignupFieldsProps {
  /** Prefix of the controls' ids: one form of each kind per page. */
  idPrefix: string;
  /** Controlled values (the dialog); without them the controls are plain HTML (the /join page). */
  values?: DialogValues;
  onChange?: (values: DialogValues) => void;
  /** Native `maxlength` limits: for the no-JavaScript form; the dialog reports overlong text instead. */
  limits?: boolean;
  /** The field the last check failed on, and why: marked (aria-invalid, a red border) and told beneath it. */
  invalid?: { field: FieldKey; message: string } | null;
  /** The team's questions (src/content/questions.json), asked after the brief's fields. */
  questions?: readonly Question[];
}

const INVALID_CONTROL = "ring-1 ring-danger-700";

/** The control's props when it is the invalid one: its state, and the message it is described by. */
function marked(id: string, invalid: boolean) {
  return invalid ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}

function ErrorText({ id, message }: { id: string; message: string }) {
  return (
    <p id={`${id}-error`} className="mt-1.5 text-sm font-semibold text-ink-950">
      {message}
    </p>
  );
}

/**
 * The sign-up controls, shared by the dialog and the /join page so both ask the same thing the same way:
 * the brief's fields (rules.ts: BRIEF_FIELDS), the team's questions, the terms checkbox (its link opens a new tab) and the honeypot.
 */
export function SignupFields({
  idPrefix,
  values,
  onChange,
  limits = false,
  invalid = null,
  questions = [],
}: SignupFieldsProps) {
  // Values without onChange: /join refused and rendered again on the server, each value as the page's default.
  const bind = (key: Exclude<keyof DialogValues, "answers">) =>
    values && !onChange
      ? key === "termsAccepted"
        ? { defaultChecked: values.termsAccepted }
        : { defaultValue: String(values[key]) }
      : values && onChange
        ? {
            ...(key === "termsAccepted" ? { checked: values.termsAccepted } : { value: String(values[key]) }),
            onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
              onChange({
                ...values,
                [key]:
                  key === "termsAccepted"
                    ? (event.currentTarget as HTMLInputElement).checked
                    : event.currentTarget.value,
              }),
          }
        : {};
  const controls = BRIEF_FIELDS.map((field) => {
    const id = `${idPrefix}-${field.key}`;
    const wrong = invalid?.field === field.key;
    const common = {
      id,
      name: field.key,
      ...(limits ? { maxLength: field.max } : {}),
      ...bind(field.key),
      ...marked(id, wrong),
      ...(wrong ? { className: INVALID_CONTROL } : {}),
    };
    return {
      pair: "pair" in field,
      control: (
        <Field key={field.key} id={id} label={field.label} hint={field.hint}>
          {field.multiline ? (
            <Textarea rows={3} {...common} />
          ) : (
            <Input
              autoComplete={field.autoComplete}
              {...(field.kind === "email"
                ? { type: "email", required: true, "aria-required": true, "data-autofocus": true }
                : {})}
              {...common}
            />
          )}
          {wrong && invalid && <ErrorText id={id} message={invalid.message} />}
        </Field>
      ),
    };
  });

  return (
    <>
      <div className="grid gap-5 sm:grid-cols-2">{controls.filter((c) => c.pair).map((c) => c.control)}</div>
      {controls.filter((c) => !c.pair).map((c) => c.control)}
      <QuestionFields
        idPrefix={idPrefix}
        questions={questions}
        answers={values?.answers}
        onChange={values && onChange ? (answers) => onChange({ ...values, answers }) : undefined}
        limits={limits}
        invalid={invalid}
      />
      <div className="flex items-start gap-3">
        <input
          id={`${idPrefix}-terms`}
          name="termsAccepted"
          type="checkbox"
          value="true"
          required
          className="mt-0.5 size-5 shrink-0 rounded border-ink-300 accent-brand-600"
          {...bind("termsAccepted")}
          {...marked(`${idPrefix}-terms`, invalid?.field === "termsAccepted")}
        />
        <label htmlFor={`${idPrefix}-terms`} className="text-sm text-ink-800">
          {FORM_TEXT.terms.before}{" "}
          <a href="/terms-of-service" target="_blank" rel="noopener" className="font-semibold text-brand-700 underline">
            {FORM_TEXT.terms.link}
            <span className="sr-only"> {FORM_TEXT.terms.newTab}</span>
          </a>
        </label>
      </div>
      {invalid?.field === "termsAccepted" && <ErrorText id={`${idPrefix}-terms`} message={invalid.message} />}
      <Honeypot id={`${idPrefix}-homepage`} {...bind("homepage")} />
    </>
  );
}
