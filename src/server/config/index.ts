/** Server configuration, read from the environment once, on first use. Never sent to the client. */

import { type DataKeys, parseDataKey } from "../data-key";
import { settingsReader } from "./parse";
import { type ReminderSettings, remindersConfig } from "./reminders";
import { type ReputationSettings, reputationConfig } from "./reputation";
import { type ServerSecretSettings, serverSecretConfig } from "./secret";

export {
  MIN_SECRET_BYTES,
  type ServerSecretState,
  secretBytes,
  serverSecretStatus,
} from "./secret";

import { type WebhookTarget, webhookConfig } from "./webhooks";

export interface ServerConfig extends ServerSecretSettings {
  /** A Postgres the deployer brings (DATABASE_URL): Neon, Supabase, RDS, a local server… */
  databaseUrl: string | null;
  /** DATABASE_DRIVER: `neon-http` or `pg` forces how DATABASE_URL is spoken to; null picks by host. */
  databaseDriver: string | null;
  /** Netlify Database (NETLIFY_DB_URL, set by the platform and by `netlify dev`); used when DATABASE_URL is unset. */
  netlifyDbUrl: string | null;
  /** Folder of the embedded database used when no URL is set. */
  dataDir: string;
  /** Where neon() sends queries instead of Neon's own endpoint (a local Neon proxy); null for Neon's. */
  neonFetchEndpoint: string | null;
  /** Free sign-ups per network per sliding window before a proof-of-work is asked (RATE_LIMIT_MAX, default 10). */
  rateLimitMax: number;
  /** The rate-limit window in seconds (RATE_LIMIT_WINDOW_SECONDS, default 600). */
  rateLimitWindowSeconds: number;
  /** How long one database operation may take before the request answers 503 (DB_TIMEOUT_MS, default 5000). */
  dbTimeoutMs: number;
  /**
   * Bearer token for GET /api/waitlist/export and the console's token sign-in (WAITLIST_ADMIN_TOKEN); null: unset
   * (the endpoint does not exist) or too short (see adminTokenProblem).
   */
  adminToken: string | null;
  /** Set when WAITLIST_ADMIN_TOKEN is too short to stand guessing: what uses it answers 503, saying this. */
  adminTokenProblem: string | null;
  /** ALLOW_PREVIEW_WRITES=1 lets deploy previews write to DATABASE_URL (Netlify Database previews always write). */
  allowPreviewWrites: boolean;
  /**
   * Double opt-in: with both SMTP_URL (any provider's SMTP, e.g. smtps://user:pass@smtp.example.com:465) and
   * MAIL_FROM set, sign-ups are stored pending and confirmed by e-mail; null (either unset): mail is off.
   */
  mail: { smtpUrl: string; from: string } | null;
  /** Set when only one of SMTP_URL and MAIL_FROM is: mail stays off and the server says why. */
  mailConfigProblem: string | null;
  /** The site's address for links in e-mails (SITE_URL); null uses the address the request came to. */
  siteUrl: string | null;
  /** Days after which pending sign-ups are purged by the scheduled function (PURGE_PENDING_AFTER_DAYS); null: off. */
  purgePendingAfterDays: number | null;
  /**
   * The product's own sign-up page (EARLY_ACCESS_URL); invitations link to it with `invite=<code>` added to its
   * query. Null: unset (invitations cannot go out). Checked where it is used (`inviteLink`).
   */
  earlyAccessUrl: string | null;
  /** How long an invite code works (INVITE_TTL_DAYS, default 30). */
  inviteTtlDays: number;
  /**
   * Bearer token the product sends to POST /api/invites/redeem (INVITE_REDEEM_TOKEN); null: unset (no such
   * endpoint) or too short (see inviteRedeemTokenProblem).
   */
  inviteRedeemToken: string | null;
  /** Set when INVITE_REDEEM_TOKEN is too short to stand guessing: the endpoint answers 503, saying this. */
  inviteRedeemTokenProblem: string | null;
  /**
   * How many referrals count per referrer and day, UTC (REFERRALS_PER_DAY, default 25); the rest are recorded. 0:
   * none count (a pause, say while a ring is looked into), every one recorded `over-limit`.
   */
  referralsPerDay: number;
  /**
   * How many places each counted referral moves its referrer forward in line (REFERRAL_PLACES, default 0: the line
   * stays in sign-up order and referrals are only shown). src/server/store/line.ts defines the line.
   */
  referralPlaces: number;
  /**
   * How many update e-mails a second a send may start (MAIL_RATE_PER_SECOND, default 10, within most providers'
   * limits); 0 (or `unlimited`): as fast as the SMTP server answers.
   */
  mailRatePerSecond: number;
  /** WEBHOOK_URL and WEBHOOK_SECRET (Standard Webhooks); null: webhooks off (both unset) or refused (below). */
  webhook: WebhookTarget | null;
  /** Set when WEBHOOK_URL or WEBHOOK_SECRET cannot be used: `npm start` and the functions stop with this line. */
  webhookProblem: string | null;
  /** How long the audit log keeps an entry (AUDIT_DAYS, default 365); the daily purge deletes older ones. */
  auditDays: number;
  /** Bounces and complaints: the provider endpoints' secrets, the automatic pause's thresholds. */
  reputation: ReputationSettings;
  /** The reminders to confirm and of an invitation (reminders.ts). */
  reminders: ReminderSettings;
  /** Who may use the operators' console (ADMIN_EMAILS, comma-separated), case-folded; empty: nobody by e-mail. */
  adminEmails: string[];
  /**
   * DATA_KEY (and, while rotating, DATA_KEY_PREVIOUS): personal data is sealed at rest with it (data-key.ts);
   * null: rows are written as plain text. A deploy context other than production stores nothing without it.
   */
  dataKeys: DataKeys | null;
  /** Set when DATA_KEY or DATA_KEY_PREVIOUS is not a key: the store refuses to open, saying this. */
  dataKeyProblem: string | null;
  /** True inside Netlify's runtime, where an embedded database would be lost: a URL is required there. */
  onNetlify: boolean;
  /**
   * Each value given that cannot be read (`RATE_LIMIT_MAX=ten`), one line naming the variable, the value's problem and
   * what it accepts (parse.ts). Never replaced by the default: nothing runs until it is fixed (app/configured.ts).
   */
  unreadable: string[];
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function readConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const read = settingsReader(env);
  const admin = bearerTokenConfig(env["WAITLIST_ADMIN_TOKEN"], "WAITLIST_ADMIN_TOKEN");
  const redeem = bearerTokenConfig(env["INVITE_REDEEM_TOKEN"], "INVITE_REDEEM_TOKEN");
  return {
    databaseUrl: env["DATABASE_URL"]?.trim() || null,
    databaseDriver: env["DATABASE_DRIVER"]?.trim() ? read.oneOf("DATABASE_DRIVER", ["neon-http", "pg"], "pg") : null,
    netlifyDbUrl: env["NETLIFY_DB_URL"]?.trim() || null,
    dataDir: env["DATA_DIR"]?.trim() || ".data",
    neonFetchEndpoint: env["NEON_FETCH_ENDPOINT"]?.trim() || null,
    rateLimitMax: read.whole("RATE_LIMIT_MAX", 10),
    rateLimitWindowSeconds: read.whole("RATE_LIMIT_WINDOW_SECONDS", 600),
    ...serverSecretConfig(env),
    dbTimeoutMs: read.whole("DB_TIMEOUT_MS", 5000),
    adminToken: admin.token,
    adminTokenProblem: admin.problem,
    allowPreviewWrites: read.oneOf("ALLOW_PREVIEW_WRITES", ["1", "0"], "0") === "1",
    ...mailConfig(env),
    siteUrl: read.address("SITE_URL", "origin"),
    purgePendingAfterDays: read.optionalWhole("PURGE_PENDING_AFTER_DAYS"),
    earlyAccessUrl: read.address("EARLY_ACCESS_URL", "url"),
    inviteTtlDays: read.whole("INVITE_TTL_DAYS", 30),
    inviteRedeemToken: redeem.token,
    inviteRedeemTokenProblem: redeem.problem,
    referralsPerDay: read.whole("REFERRALS_PER_DAY", 25, 0),
    referralPlaces: read.whole("REFERRAL_PLACES", 0, 0),
    mailRatePerSecond:
      env["MAIL_RATE_PER_SECOND"]?.trim() === "unlimited" ? 0 : read.whole("MAIL_RATE_PER_SECOND", 10, 0),
    ...webhookConfig(env),
    ...reputationConfig(env, read),
    ...remindersConfig(read),
    auditDays: read.whole("AUDIT_DAYS", 365),
    adminEmails: (env["ADMIN_EMAILS"] ?? "")
      .split(",")
      .map((address) => address.trim().toLowerCase())
      .filter((address) => address !== ""),
    ...dataKeyConfig(env),
    onNetlify: Boolean(env["NETLIFY"] || env["AWS_LAMBDA_FUNCTION_NAME"] || env["NETLIFY_BLOBS_CONTEXT"]),
    // Last: every value above has been read.
    unreadable: read.unreadable,
  };
}

function mailConfig(env: Record<string, string | undefined>): Pick<ServerConfig, "mail" | "mailConfigProblem"> {
  const smtpUrl = env["SMTP_URL"]?.trim() || null;
  const from = env["MAIL_FROM"]?.trim() || null;
  // A line break in the sender would end the header: nodemailer then sends with an empty envelope sender.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  if (from && /[\u0000-\u001f\u007f\u2028\u2029]/.test(from)) {
    return { mail: null, mailConfigProblem: "MAIL_FROM must be one line: confirmation e-mails are off until it is." };
  }
  if (smtpUrl && from) return { mail: { smtpUrl, from }, mailConfigProblem: null };
  if (!smtpUrl && !from) return { mail: null, mailConfigProblem: null };
  const missing = smtpUrl ? "MAIL_FROM" : "SMTP_URL";
  return { mail: null, mailConfigProblem: `${missing} is not set: confirmation e-mails are off until both are.` };
}

/**
 * The shortest bearer token accepted: 32 characters (`openssl rand -hex 32` prints 64). A short one (`letmein`) is
 * found by guessing from a word list long before the failed-attempt limit (bearer.ts) gets in the way.
 */
export const MIN_TOKEN_LENGTH = 32;

/**
 * A bearer token variable as the token and its problem: a token shorter than MIN_TOKEN_LENGTH is never used (null),
 * so nothing can accept it, and the problem says how to make a good one.
 */
function bearerTokenConfig(
  value: string | undefined,
  variable: string,
): { token: string | null; problem: string | null } {
  const token = value?.trim() || null;
  if (token === null || token.length >= MIN_TOKEN_LENGTH) return { token, problem: null };
  return {
    token: null,
    problem: `${variable} is shorter than ${MIN_TOKEN_LENGTH} characters: make one with \`openssl rand -hex 32\`.`,
  };
}

function dataKeyConfig(env: Record<string, string | undefined>): Pick<ServerConfig, "dataKeys" | "dataKeyProblem"> {
  const current = env["DATA_KEY"]?.trim();
  const previous = env["DATA_KEY_PREVIOUS"]?.trim();
  if (!current) {
    const problem = previous ? "DATA_KEY_PREVIOUS is set without DATA_KEY: set the new key as DATA_KEY." : null;
    return { dataKeys: null, dataKeyProblem: problem };
  }
  try {
    return {
      dataKeys: {
        current: parseDataKey(current),
        previous: previous ? parseDataKey(previous, "DATA_KEY_PREVIOUS") : null,
      },
      dataKeyProblem: null,
    };
  } catch (error) {
    return { dataKeys: null, dataKeyProblem: (error as Error).message };
  }
}

let cached: ServerConfig | undefined;

export function getConfig(): ServerConfig {
  cached ??= readConfig();
  return cached;
}

/** For tests and scripts that change the environment after start. */
export function resetConfig(): void {
  cached = undefined;
}
