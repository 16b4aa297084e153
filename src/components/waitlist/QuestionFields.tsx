import type { ReactNode } from "react";
import type { Question } from "../../lib/waitlist/questions";
import { ANSWER_PREFIX, type Answers } from "../../lib/waitlist/rules";
import { Input, Label } from "../ui/field";

interface QuestionFieldsProps {
  idPrefix: string;
  questions: readonly Question[];
  /** Controlled answers (the dialog); without them the controls are plain HTML (the /join page). */
  answers?: Answers | undefined;
  onChange?: ((answers: Answers) => void) | undefined;
  /** Native limits and `required`: for the no-JavaScript form; the dialog reports refusals itself. */
  limits?: boolean;
  /** The question the last check failed on (`answer:<id>`), and why. */
  invalid?: { field: string; message: string } | null;
}

/** A choice with at most this many options is a radio group; more, a select. */
const RADIO_MAX = 5;
const BOX = "size-5 shrink-0 rounded border-ink-300 accent-brand-600";
const SELECT =
  "mt-1.5 block w-full rounded-lg border border-ink-200 bg-white px-3.5 py-2.5 text-base text-ink-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600";

function Described({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-ink-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm font-semibold text-ink-950">
          {error}
        </p>
      )}
    </>
  );
}

/** Whether a question is asked by a group of boxes (radios or checkboxes) rather than one control. */
const isGroup = (question: Question) =>
  question.type === "multiple" || (question.type === "choice" && question.options.length <= RADIO_MAX);

/** The id of the control a message about `question` leads to: its own, or its group's first box. */
export const questionControlId = (idPrefix: string, question: Question) =>
  `${idPrefix}-q-${question.id}${isGroup(question) ? "-0" : ""}`;

/** The team's questions (src/content/questions.json), after the brief's fields, in the file's order. */
export function QuestionFields({
  idPrefix,
  questions,
  answers,
  onChange,
  limits = false,
  invalid,
}: QuestionFieldsProps) {
  const set = (id: string, value: string | string[]) => onChange?.({ ...answers, [id]: value });
  return questions.map((question) => {
    const id = `${idPrefix}-q-${question.id}`;
    const name = `${ANSWER_PREFIX}${question.id}`;
    const wrong = invalid?.field === name;
    const described = [question.hint ? `${id}-hint` : "", wrong ? `${id}-error` : ""].filter(Boolean).join(" ");
    const state = {
      ...(described ? { "aria-describedby": described } : {}),
      ...(wrong ? { "aria-invalid": true } : {}),
    };
    const note = question.required ? "(required)" : "(optional)";
    const given = answers?.[question.id];
    const controlled = answers !== undefined;
    let control: ReactNode;
    if (!isGroup(question)) {
      const common = {
        id,
        name,
        ...state,
        ...(limits && question.required ? { required: true } : {}),
        ...(question.required ? { "aria-required": true } : {}),
        ...(controlled ? { value: typeof given === "string" ? given : "" } : {}),
        ...(wrong ? { className: "ring-1 ring-danger-700" } : {}),
      };
      control =
        question.type === "text" ? (
          <Input
            {...common}
            {...(limits ? { maxLength: question.max } : {})}
            onChange={(event) => set(question.id, event.currentTarget.value)}
          />
        ) : (
          <select {...common} className={SELECT} onChange={(event) => set(question.id, event.currentTarget.value)}>
            <option value="">Choose…</option>
            {question.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        );
      return (
        <div key={question.id}>
          <Label htmlFor={id}>
            {question.label}
            <span className="font-normal text-ink-600"> {note}</span>
          </Label>
          {control}
          <Described id={id} hint={question.hint} error={wrong ? invalid?.message : undefined} />
        </div>
      );
    }
    const ticked = Array.isArray(given) ? given : typeof given === "string" ? [given] : [];
    const radio = question.type === "choice";
    // ARIA allows aria-invalid and aria-required on a radio group, not on a plain group (a fieldset): the boxes
    // of a `multiple` question are each marked instead, and the group keeps only its description.
    const groupState = radio
      ? { role: "radiogroup", ...state, ...(question.required ? { "aria-required": true } : {}) }
      : described
        ? { "aria-describedby": described }
        : {};
    return (
      <fieldset key={question.id} {...groupState}>
        <legend className="text-sm font-semibold text-ink-900">
          {question.label}
          <span className="font-normal text-ink-600"> {note}</span>
        </legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {question.options.map((option, n) => {
            const optionId = `${id}-${n}`;
            return (
              <div key={option} className="flex items-center gap-2">
                <input
                  id={optionId}
                  type={radio ? "radio" : "checkbox"}
                  name={radio ? name : `${name}:${n}`}
                  value={option}
                  className={BOX}
                  {...(limits && radio && question.required ? { required: true } : {})}
                  {...(wrong && !radio ? { "aria-invalid": true } : {})}
                  {...(controlled ? { checked: ticked.includes(option) } : {})}
                  onChange={(event) =>
                    set(
                      question.id,
                      radio
                        ? option
                        : event.currentTarget.checked
                          ? [...ticked, option]
                          : ticked.filter((item) => item !== option),
                    )
                  }
                />
                <label htmlFor={optionId} className="text-sm text-ink-800">
                  {option}
                </label>
              </div>
            );
          })}
        </div>
        <Described id={id} hint={question.hint} error={wrong ? invalid?.message : undefined} />
      </fieldset>
    );
  });
}
