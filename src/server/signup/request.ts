/** What a sign-up request says beyond its fields' values: a form post's fields, where it came from, its share code. */
import type { Context } from "@netlify/functions";
import { type Attribution, attributionOf, cleanAttribution, NO_ATTRIBUTION } from "../../lib/waitlist/attribution";
import { REFERRER_FIELD } from "../../lib/waitlist/capture";
import { cleanReferralCode, REFERRAL_FIELD, referralCodeOf } from "../../lib/waitlist/referral";
import { ANSWER_PREFIX } from "../../lib/waitlist/rules";
import type { ServerConfig } from "../config";
import { isOwnOrigin } from "../http/origin";
import { parseForm } from "../http/request-body";

/**
 * The fields of a form post (the /join page without JavaScript); a checked box counts as `true`. The team's
 * questions arrive as `answer:<id>` (a text, or the option picked) and `answer:<id>:<n>` (each box ticked of a
 * `multiple`), gathered into `answers` as the dialog sends them.
 */
export function formFields(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = parseForm(text);
  fields["termsAccepted"] = ["on", "true"].includes(String(fields["termsAccepted"] ?? ""));
  const answers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith(ANSWER_PREFIX)) continue;
    const [id = "", box] = name.slice(ANSWER_PREFIX.length).split(":");
    const ticked = answers[id];
    if (box === undefined) answers[id] = String(value);
    else answers[id] = [...(Array.isArray(ticked) ? ticked : []), String(value)];
    delete fields[name];
  }
  fields["answers"] = answers;
  return fields;
}

/** The page the form was posted from, when it is this site's (its Referer); else null. */
function ownReferer(req: Request, config: ServerConfig, context: Context): string | null {
  const referer = req.headers.get("referer");
  const sameSite = referer && URL.canParse(referer) && isOwnOrigin(new URL(referer).origin, config, context, req);
  return sameSite ? referer : null;
}

/**
 * Where the sign-up came from, by attribution.ts's one rule on every path: what the island worked out
 * (`attribution`, cleaned field by field), else the rule applied to the page the form was posted from (its
 * Referer, when it is this site's) and the referring origin in the form (put there by the page's script, or for
 * /join by the function that served it). Never a reason to refuse a sign-up.
 */
export function attributionOfRequest(
  req: Request,
  fields: Record<string, unknown>,
  config: ServerConfig,
  context: Context,
): Attribution {
  if (fields["attribution"] !== undefined) return cleanAttribution(fields["attribution"]);
  const referer = ownReferer(req, config, context);
  const from = fields[REFERRER_FIELD];
  return referer ? attributionOf(referer, typeof from === "string" ? from : "") : NO_ATTRIBUTION;
}

/**
 * The share code the sign-up came by: the island's and /join's field, else (the early dialog's form) the `via` of
 * this site's page the form was posted from. Malformed or absent: null, and the sign-up goes on.
 */
export function referralCodeOfRequest(
  req: Request,
  fields: Record<string, unknown>,
  config: ServerConfig,
  context: Context,
) {
  const given = cleanReferralCode(fields[REFERRAL_FIELD]);
  if (given) return given;
  const referer = ownReferer(req, config, context);
  return referer ? referralCodeOf(referer) : null;
}
