/**
 * Every setting as a finding (findings.ts), from the configuration alone: nothing is opened or tried here (live.ts
 * does that). Required, then recommended, then optional; each says what it is for and, when it is not right, what to
 * do, in words the console repeats. No value is ever shown but a number, an origin or a domain.
 */
import { counted } from "../../lib/plural";
import { type ServerConfig, serverSecretStatus } from "../config";
import { earlyAccessBase } from "../invitations";
import type { Finding, Level } from "./findings";

const finding =
  (level: Level, name: string, docs: string, does: string) =>
  (ok: boolean, say: string): Finding => ({
    name,
    level,
    ok,
    does,
    say,
    docs,
  });

function database(config: ServerConfig): Finding {
  const row = finding("required", "DATABASE_URL, NETLIFY_DB_URL", "the-database", "Where the list is kept.");
  if (config.databaseUrl) return row(true, "DATABASE_URL: a Postgres of your own.");
  if (config.netlifyDbUrl) return row(true, "NETLIFY_DB_URL: Netlify Database.");
  if (config.onNetlify) return row(false, "No database: every sign-up answers 503. Add Netlify Database to the site.");
  return row(true, `Neither: the embedded database in ${config.dataDir}/ (this machine only).`);
}

function serverSecret(config: ServerConfig): Finding {
  const row = finding(
    "required",
    "SERVER_SECRET",
    "server_secret",
    "The root of every key the server derives (invitation codes, sign-in, rate limits).",
  );
  const status = serverSecretStatus(config);
  if (status.state === "set") return row(true, "Set.");
  if (status.state === "legacy name") return row(true, status.line ?? "Set, under its old name.");
  if (status.state === "missing") {
    return row(
      false,
      "Invitation codes on status pages are off, and a deployed site's background jobs (updates, waves) do not start; set SERVER_SECRET to `openssl rand -base64 32`.",
    );
  }
  return row(false, status.line ?? "SERVER_SECRET cannot be used.");
}

/** The DATA_KEY finding's words when it is unset: the console's at-rest warning says the same. */
export const PLAIN_TEXT_AT_REST =
  "Sign-ups are stored as plain text: anyone with a copy of the database (a preview's branch, a backup) can read them. Set DATA_KEY (openssl rand -base64 32) in the Production context, then run npm run waitlist -- encrypt.";

function dataKey(config: ServerConfig): Finding {
  const row = finding("required", "DATA_KEY", "data_key", "Seals names, addresses and answers at rest.");
  if (config.dataKeyProblem) return row(false, config.dataKeyProblem);
  if (!config.dataKeys) return row(false, PLAIN_TEXT_AT_REST);
  const rotating = config.dataKeys.previous ? `, and DATA_KEY_PREVIOUS ${config.dataKeys.previous.id}` : "";
  return row(true, `Set: key ${config.dataKeys.current.id}${rotating}.`);
}

/** How an admin gets in: the rule of console/sign-in/sign-in.ts's signInMode (mail on: by link; mail off: by token). */
function consoleAccess(config: ServerConfig): Finding {
  const row = finding(
    "required",
    "ADMIN_EMAILS, WAITLIST_ADMIN_TOKEN",
    "signing-in-to-the-console",
    "Who may sign in to the console at /admin.",
  );
  const admins = config.adminEmails.length;
  if (config.mail && admins > 0) return row(true, `By an e-mailed link: ${counted(admins, "address", "addresses")}.`);
  if (!config.mail && config.adminToken) return row(true, "By WAITLIST_ADMIN_TOKEN (mail is off).");
  if (!config.mail && config.adminTokenProblem) return row(false, config.adminTokenProblem);
  if (config.mail) return row(false, "Nobody can sign in: mail is on, so set ADMIN_EMAILS (comma-separated).");
  if (admins > 0) {
    return row(
      false,
      "Nobody can sign in: ADMIN_EMAILS needs mail (SMTP_URL, MAIL_FROM); or set WAITLIST_ADMIN_TOKEN.",
    );
  }
  return row(false, "Nobody can sign in: set ADMIN_EMAILS with mail, or WAITLIST_ADMIN_TOKEN (openssl rand -hex 32).");
}

function mail(config: ServerConfig): Finding {
  const row = finding(
    "recommended",
    "SMTP_URL, MAIL_FROM",
    "mail",
    "Sends confirmations, invitations and sign-in links.",
  );
  if (config.mailConfigProblem) return row(false, config.mailConfigProblem);
  if (!config.mail) {
    return row(false, "Mail is off: sign-ups stay unconfirmed and nobody is e-mailed. Set SMTP_URL and MAIL_FROM.");
  }
  const host = URL.canParse(config.mail.smtpUrl) ? new URL(config.mail.smtpUrl).host : "SMTP_URL";
  return row(true, `On, through ${host}, from an address at ${senderDomain(config.mail.from) ?? "an unknown domain"}.`);
}

/** The domain of MAIL_FROM (`Noosphere <hello@noosphere.app>` → `noosphere.app`), lower-cased; null without one. */
export function senderDomain(from: string): string | null {
  const address = /<([^>]*)>/.exec(from)?.[1] ?? from;
  const domain = /@([^@\s>]+)\s*$/.exec(address.trim())?.[1];
  return domain ? domain.toLowerCase() : null;
}

function siteUrl(config: ServerConfig): Finding {
  const row = finding("recommended", "SITE_URL", "site_url", "The site's address: links in e-mails point to it.");
  if (!config.siteUrl) {
    return row(false, "Not set: links use the address each request came to. Set SITE_URL to https:// and your domain.");
  }
  const url = new URL(config.siteUrl);
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !local) return row(false, `SITE_URL must be https://, not ${url.protocol}//.`);
  return row(true, `${config.siteUrl}.`);
}

function earlyAccess(config: ServerConfig): Finding {
  const row = finding(
    "recommended",
    "EARLY_ACCESS_URL",
    "early_access_url",
    "The product's sign-up page, where invitations lead.",
  );
  try {
    return row(true, `Invitations lead to ${earlyAccessBase(config.earlyAccessUrl).origin}.`);
  } catch {
    return row(false, config.earlyAccessUrl ? "Not an http(s) address: fix it." : "Not set: nobody can be invited.");
  }
}

/** A setting that is on while set: its state in a word, or its problem (which stops npm start: required to fix). */
function toggle(name: string, does: string, on: boolean, problem: string | null, off: string): Finding {
  if (problem) return finding("required", name, "everything-else", does)(false, problem);
  const row = finding("optional", name, "everything-else", does);
  return row(true, on ? "On." : off);
}

/** A number with a default: the value read, and whether it is the default. */
function numberRow(name: string, does: string, value: number, fallback: number, unit = ""): Finding {
  const row = finding("optional", name, "everything-else", does);
  return row(true, `${value.toLocaleString("en")}${unit}${value === fallback ? " (the default)" : ""}.`);
}

function optional(config: ServerConfig): Finding[] {
  const r = config.reputation;
  return [
    toggle(
      "INVITE_REDEEM_TOKEN",
      "The product's key to POST /api/invites/redeem.",
      Boolean(config.inviteRedeemToken),
      config.inviteRedeemTokenProblem,
      "Off: the product cannot redeem codes here.",
    ),
    toggle(
      "WEBHOOK_URL, WEBHOOK_SECRET",
      "Every change to the list, POSTed to the team's other tools.",
      Boolean(config.webhook),
      config.webhookProblem,
      "Off.",
    ),
    toggle(
      "RESEND_WEBHOOK_SECRET, POSTMARK_WEBHOOK_*, SES_SNS_TOPIC_ARN",
      "Bounces and complaints from the mail provider.",
      Boolean(r.resendWebhookSecret || r.postmarkWebhook || r.sesTopicArn),
      r.postmarkWebhookProblem,
      "Off: bounces and complaints are not heard.",
    ),
    finding(
      "optional",
      "PURGE_PENDING_AFTER_DAYS",
      "everything-else",
      "Deletes never-confirmed sign-ups daily.",
    )(true, config.purgePendingAfterDays === null ? "Off." : `After ${config.purgePendingAfterDays} days.`),
    numberRow("RATE_LIMIT_MAX", "Free sign-ups per network per window.", config.rateLimitMax, 10),
    numberRow("RATE_LIMIT_WINDOW_SECONDS", "That window.", config.rateLimitWindowSeconds, 600, " s"),
    numberRow("DB_TIMEOUT_MS", "The longest a request waits for the database.", config.dbTimeoutMs, 5000, " ms"),
    numberRow("INVITE_TTL_DAYS", "How long an invite code works.", config.inviteTtlDays, 30, " days"),
    numberRow("REFERRALS_PER_DAY", "Referrals counted per referrer a day.", config.referralsPerDay, 25),
    numberRow("REFERRAL_PLACES", "Places a counted referral moves its referrer.", config.referralPlaces, 0),
    numberRow("MAIL_RATE_PER_SECOND", "Update e-mails started a second (0: unlimited).", config.mailRatePerSecond, 10),
    numberRow("AUDIT_DAYS", "How long the audit log keeps an entry.", config.auditDays, 365, " days"),
    numberRow("PAUSE_COMPLAINT_RATE", "An update pauses past this complaint rate.", r.pauseComplaintRate, 0.3, "%"),
    numberRow("PAUSE_BOUNCE_RATE", "An update pauses past this hard-bounce rate.", r.pauseBounceRate, 5, "%"),
    numberRow(
      "CONFIRM_REMINDER_HOURS",
      "One reminder to confirm (0: off).",
      config.reminders.confirmReminderHours,
      24,
      " h",
    ),
    numberRow(
      "INVITE_REMINDER_DAYS",
      "One reminder of an invitation (0: off).",
      config.reminders.inviteReminderDays,
      3,
      " days",
    ),
  ];
}

/**
 * A value that cannot be read (config/parse.ts) is required to be fixed: its row says so in the config's own line, under
 * Required; a variable without a row of its own (DATABASE_DRIVER, ALLOW_PREVIEW_WRITES) gets one.
 */
function withUnreadable(findings: Finding[], unreadable: readonly string[]): Finding[] {
  const rows = [...findings];
  for (const line of unreadable) {
    const variable = line.split(" ")[0] ?? "";
    const at = rows.findIndex((f) => f.name.split(", ").includes(variable));
    const does = at >= 0 ? (rows[at] as Finding).does : "A setting given a value it cannot read.";
    const row = { name: variable, level: "required" as const, ok: false, does, say: line, docs: "everything-else" };
    if (at >= 0) rows[at] = row;
    else rows.push(row);
  }
  return rows;
}

/** Every setting, required first. */
export function settingFindings(config: ServerConfig): Finding[] {
  return withUnreadable(allSettings(config), config.unreadable);
}

function allSettings(config: ServerConfig): Finding[] {
  return [
    database(config),
    serverSecret(config),
    dataKey(config),
    consoleAccess(config),
    mail(config),
    siteUrl(config),
    earlyAccess(config),
    ...optional(config),
  ];
}
