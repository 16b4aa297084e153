/**
 * A form post (/join without JavaScript) that is refused is answered with /join itself: the built page, its sign-up
 * controls rendered again by the same component (SignupFields) with every value that was sent, the message beside
 * the control it is about and at the top of the form (focused as the page opens). Between JOIN_FIELDS_MARK the
 * built page holds exactly what this renders with no values, so the form's markup is written once; no script or
 * style is added, so the page's own CSP (hashes of its scripts) still holds. Without a built page (a test's server),
 * the small error page of http/form-page.ts.
 */
import { renderToString } from "react-dom/server";
import { FormErrorSummary } from "../../components/waitlist/FormErrorSummary";
import { questionControlId } from "../../components/waitlist/QuestionFields";
import { SignupFields } from "../../components/waitlist/SignupFields";
import { REFERRER_FIELD } from "../../lib/waitlist/capture";
import { JOIN_FIELDS_MARK } from "../../lib/waitlist/form-text";
import { QUESTIONS, type Question } from "../../lib/waitlist/questions";
import { cleanReferralCode, REFERRAL_FIELD } from "../../lib/waitlist/referral";
import { ANSWER_PREFIX, type Answers, BRIEF_FIELDS, type DialogValues, type FieldKey } from "../../lib/waitlist/rules";
import { escapeHtml, formErrorPage, SITE_HEADERS } from "../http/form-page";
import { describeError, log } from "../log";
import { fillJoinPage } from "./join-page";

const PREFIX = "join";
const SUMMARY_ID = `${PREFIX}-error-summary`;

export interface Refusal {
  status: number;
  title: string;
  message: string;
  /** The control the message is about, when it has one. */
  field?: FieldKey | undefined;
  headers?: Record<string, string> | undefined;
}

/** What was sent, as the form's values: text as typed (not trimmed), answers of the right shape only. */
export function sentValues(fields: Record<string, unknown>): DialogValues {
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : "");
  const given = fields["answers"];
  const answers: Answers = {};
  if (typeof given === "object" && given !== null) {
    for (const [id, value] of Object.entries(given)) {
      if (typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"))) {
        answers[id] = value;
      }
    }
  }
  const brief = Object.fromEntries(BRIEF_FIELDS.map((field) => [field.key, text(field.key)]));
  // The honeypot is never echoed: a person never filled it, and a bot learns nothing.
  return { ...brief, termsAccepted: fields["termsAccepted"] === true, answers, homepage: "" } as DialogValues;
}

/** The id of the control a field key names on /join. */
export function controlId(field: FieldKey, questions: readonly Question[] = QUESTIONS): string | undefined {
  if (field === "termsAccepted") return `${PREFIX}-terms`;
  if (!field.startsWith(ANSWER_PREFIX)) return `${PREFIX}-${field}`;
  const question = questions.find((q) => `${ANSWER_PREFIX}${q.id}` === field);
  return question && questionControlId(PREFIX, question);
}

/** The refused page's HTML from the built page's. */
export function refusedJoinHtml(
  html: string,
  fields: Record<string, unknown>,
  refusal: Refusal,
  questions: readonly Question[] = QUESTIONS,
): string {
  const start = html.indexOf(JOIN_FIELDS_MARK.start);
  const end = html.indexOf(JOIN_FIELDS_MARK.end);
  if (start < 0 || end < start)
    throw new Error(`the built /join has no ${JOIN_FIELDS_MARK.start}…${JOIN_FIELDS_MARK.end}`);
  const target = refusal.field && controlId(refusal.field, questions);
  const controls = renderToString(
    <>
      <FormErrorSummary id={SUMMARY_ID} title={refusal.title} message={refusal.message} href={target && `#${target}`} />
      <SignupFields
        idPrefix={PREFIX}
        limits
        questions={questions}
        values={sentValues(fields)}
        invalid={refusal.field ? { field: refusal.field, message: refusal.message } : null}
      />
    </>,
  );
  const page = `${html.slice(0, start + JOIN_FIELDS_MARK.start.length)}${controls}${html.slice(end)}`;
  const from = typeof fields[REFERRER_FIELD] === "string" ? escapeHtml(fields[REFERRER_FIELD]) : "";
  const code = cleanReferralCode(fields[REFERRAL_FIELD]) ?? "";
  // The tab's title says first that something needs fixing.
  return fillJoinPage(page, from, code).replace("<title>", () => `<title>Error: ${escapeHtml(refusal.title)} · `);
}

/** The answer to a refused form post: /join again, filled, or the small error page when there is no built page. */
export async function refusedJoin(
  page: (() => Promise<string>) | undefined,
  fields: Record<string, unknown>,
  refusal: Refusal,
): Promise<Response> {
  const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...refusal.headers };
  if (page) {
    try {
      const html = refusedJoinHtml(await page(), fields, refusal);
      return new Response(html, { status: refusal.status, headers: { ...SITE_HEADERS, ...headers } });
    } catch (error) {
      log("error", "waitlist.join_page_unavailable", describeError(error));
    }
  }
  return formErrorPage(refusal.status, refusal.title, refusal.message, { headers: refusal.headers ?? {} });
}
