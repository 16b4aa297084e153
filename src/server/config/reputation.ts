/**
 * The settings of mail that keeps its good name, as config/index.ts reads them: the provider endpoints' secrets and
 * when an update pauses by itself (src/server/suppression/ uses them). The reminders' are reminders.ts's.
 * Each endpoint exists only while its secret is set (unset: 404, nothing listens).
 */

import type { SettingsReader } from "./parse";

export interface ReputationSettings {
  /** RESEND_WEBHOOK_SECRET (`whsec_…`, Svix's): POST /api/mail-events/resend; null: off. */
  resendWebhookSecret: string | null;
  /**
   * POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD (HTTP Basic): POST /api/mail-events/postmark; null: off, or
   * refused (postmarkWebhookProblem).
   */
  postmarkWebhook: { user: string; password: string } | null;
  /** Set when POSTMARK_WEBHOOK_PASSWORD is too short to stand guessing: the endpoint answers 500, npm start stops. */
  postmarkWebhookProblem: string | null;
  /** SES_SNS_TOPIC_ARN: the only SNS topic POST /api/mail-events/ses accepts; null: off. */
  sesTopicArn: string | null;
  /** An update pauses by itself past this complaint rate, in % (PAUSE_COMPLAINT_RATE, default 0.3: Gmail's). */
  pauseComplaintRate: number;
  /** An update pauses by itself past this hard-bounce rate, in % (PAUSE_BOUNCE_RATE, default 5). */
  pauseBounceRate: number;
}

/**
 * The shortest Postmark webhook password accepted: 24 characters (`openssl rand -hex 16` prints 32). Postmark sends
 * it in every request, so it can be long; a short one (`letmein`) falls to a word list long before the failed-attempt
 * limit (postmark-guard.ts) gets in the way.
 */
export const MIN_POSTMARK_PASSWORD = 24;

/** The endpoint's credentials, or why they are refused: a short password is never used, so nothing can accept it. */
function postmarkConfig(env: Record<string, string | undefined>) {
  const user = env["POSTMARK_WEBHOOK_USER"]?.trim() || null;
  const password = env["POSTMARK_WEBHOOK_PASSWORD"]?.trim() || null;
  if (password !== null && password.length < MIN_POSTMARK_PASSWORD) {
    const problem = `POSTMARK_WEBHOOK_PASSWORD is shorter than ${MIN_POSTMARK_PASSWORD} characters: make one with \`openssl rand -hex 16\`.`;
    return { postmarkWebhook: null, postmarkWebhookProblem: problem };
  }
  return { postmarkWebhook: user && password ? { user, password } : null, postmarkWebhookProblem: null };
}

/** The secrets as given; the rates by config/index.ts's reader, so a value it cannot read is listed with the others. */
export function reputationConfig(
  env: Record<string, string | undefined>,
  read: SettingsReader,
): { reputation: ReputationSettings } {
  return {
    reputation: {
      resendWebhookSecret: env["RESEND_WEBHOOK_SECRET"]?.trim() || null,
      ...postmarkConfig(env),
      sesTopicArn: env["SES_SNS_TOPIC_ARN"]?.trim() || null,
      pauseComplaintRate: read.percent("PAUSE_COMPLAINT_RATE", 0.3),
      pauseBounceRate: read.percent("PAUSE_BOUNCE_RATE", 5),
    },
  };
}
