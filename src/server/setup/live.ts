/**
 * The setup check's live part: the database answers and its migrations are current, DATA_KEY opens the sealed rows
 * it samples, the SMTP server answers EHLO (nothing sent), the webhook URL answers a HEAD (nothing delivered), and
 * SITE_URL and the mail sender name the same domain. Each says what answered, or what failed and what to do; none
 * prints a URL's user, password, path or query.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { counted } from "../../lib/plural";
import type { ServerConfig } from "../config";
import { shownWebhookUrl } from "../config/webhooks";
import { type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import { chooseConnection, describeConnection } from "../db/connection";
import { MIGRATIONS_DIR, pendingMigrations } from "../db/migration-files";
import type { Db } from "../db/types";
import type { Check } from "./findings";
import { senderDomain } from "./settings";
import { smtpHello } from "./smtp-hello";

/** Rows DATA_KEY is tried on: the oldest and the newest sealed, by the primary key (an index read at any size). */
export const SAMPLE_ROWS = 25;

export const SETUP_SQL = {
  migrated: "SELECT name FROM netlify.migrations ORDER BY name",
  /** The $1 oldest and $1 newest sealed rows. */
  sealedSample: `(SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE sealed IS NOT NULL ORDER BY id LIMIT $1::int)
    UNION (SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE sealed IS NOT NULL ORDER BY id DESC LIMIT $1::int)`,
} as const;

type Query = Db["query"];

/** A database opened for the check: how to query it, and how to let it go. */
export interface CheckedDb {
  query: Query;
  close(): Promise<void>;
  embedded: boolean;
}

/** Opens the embedded database (a local process's; the CLI passes `openPgliteDb`); opening it applies the migrations. */
export type OpenEmbedded = (dataDir: string) => Promise<Db>;

const say = (name: string, ok: boolean | null, text: string, blocking = true): Check => ({
  name,
  ok,
  say: text,
  blocking,
});

/** A system error's code (ECONNREFUSED), else its message: a DOMException's code is a number that says nothing. */
const reason = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code !== "") return code;
  return error instanceof Error ? error.message : String(error);
};

/** The database, opened (or why not). Every URL is spoken to as Postgres, Neon's too, as `db:migrate` does. */
export async function openForCheck(
  config: ServerConfig,
  openEmbedded: OpenEmbedded,
): Promise<{ db: CheckedDb | null; check: Check }> {
  let connection: ReturnType<typeof chooseConnection>;
  try {
    connection = chooseConnection(config);
  } catch (error) {
    return { db: null, check: say("database", false, reason(error)) };
  }
  const where = describeConnection(connection);
  try {
    if (connection.kind === "embedded") {
      if (!existsSync(join(connection.dataDir, "pg"))) {
        return { db: null, check: say("database", true, `${where}: not made yet; npm start makes it, migrated.`) };
      }
      const db = await openEmbedded(connection.dataDir);
      return {
        db: { query: (sql, params) => db.query(sql, params), close: () => db.close(), embedded: true },
        check: say("database", true, `${where} answers.`),
      };
    }
    const client = new pg.Client({ connectionString: connection.url, connectionTimeoutMillis: 10_000 });
    client.on("error", () => {});
    await client.connect();
    const query = (async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows) as Query;
    return {
      db: { query, close: () => client.end(), embedded: false },
      check: say("database", true, `${where} answers.`),
    };
  } catch (error) {
    return { db: null, check: say("database", false, `${where} does not answer: ${reason(error)}.`) };
  }
}

export async function checkMigrations(db: CheckedDb, dir = MIGRATIONS_DIR): Promise<Check> {
  let applied: string[] = [];
  try {
    applied = (await db.query<{ name: string }>(SETUP_SQL.migrated)).map((row) => row.name);
  } catch {
    // No netlify.migrations yet: nothing was ever applied.
  }
  const missing = await pendingMigrations(applied, dir);
  if (missing.length === 0) return say("migrations", true, `Current: ${counted(applied.length, "migration")} applied.`);
  return say(
    "migrations",
    false,
    `${counted(missing.length, "migration")} missing (${missing.join(", ")}): run npm run db:migrate, or deploy again on Netlify Database.`,
  );
}

export async function checkDataKey(db: CheckedDb, keys: DataKeys | null): Promise<Check> {
  let rows: Array<StoredPerson & { id: string }>;
  try {
    rows = await db.query(SETUP_SQL.sealedSample, [SAMPLE_ROWS]);
  } catch (error) {
    return say("DATA_KEY", false, `The sealed rows could not be read: ${reason(error)}.`);
  }
  if (rows.length === 0) return say("DATA_KEY", keys ? true : null, "No sealed rows yet.", false);
  if (!keys)
    return say("DATA_KEY", false, `Rows are sealed, but DATA_KEY is not set: set the key they were sealed with.`);
  const failed = rows.filter((row) => {
    try {
      personOf(keys, row);
      return false;
    } catch {
      return true;
    }
  });
  if (failed.length === 0) return say("DATA_KEY", true, `Opens every sealed row sampled (${rows.length}).`);
  const ids = [...new Set(failed.map((row) => row.key_id))].join(", ");
  return say(
    "DATA_KEY",
    false,
    `Does not open ${failed.length} of ${rows.length} sealed rows sampled (key ${ids}): set the key they were sealed with (while rotating, the old one as DATA_KEY_PREVIOUS).`,
  );
}

export async function checkSmtp(config: ServerConfig): Promise<Check> {
  if (!config.mail) return say("SMTP", null, "Not tried: mail is off.", false);
  try {
    const hello = await smtpHello(config.mail.smtpUrl);
    const tls = hello.implicitTls
      ? "TLS from the start (smtps://)."
      : hello.startTls
        ? "offers STARTTLS."
        : "does not offer STARTTLS: mail and the password would cross the network in clear; use smtps:// or a port with STARTTLS.";
    return say("SMTP", true, `${hello.where} answers EHLO; ${tls}`);
  } catch (error) {
    const url = URL.canParse(config.mail.smtpUrl) ? new URL(config.mail.smtpUrl).host : "SMTP_URL";
    return say("SMTP", false, `${url} does not answer EHLO: ${reason(error)}. Check SMTP_URL's host and port.`);
  }
}

export async function checkWebhook(config: ServerConfig, timeoutMs = 10_000): Promise<Check> {
  if (!config.webhook) return say("webhook", null, "Not tried: webhooks are off.", false);
  const shown = shownWebhookUrl(config.webhook.url);
  try {
    const response = await fetch(config.webhook.url, {
      method: "HEAD",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 500) return say("webhook", false, `${shown} answers HEAD with ${response.status}.`);
    return say("webhook", true, `${shown} answers HEAD with ${response.status}.`);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return say("webhook", false, `${shown} does not answer: ${reason(cause)}.`);
  }
}

/** The site's https, and the sender on the site's domain (or one of them inside the other: www., mail.). */
export function checkSiteAndSender(config: ServerConfig): Check {
  if (!config.siteUrl) return say("SITE_URL and sender", null, "Not tried: SITE_URL is not set.", false);
  const site = new URL(config.siteUrl);
  if (site.protocol !== "https:") return say("SITE_URL and sender", false, `${site.origin} is not https://.`, false);
  const sender = config.mail ? senderDomain(config.mail.from) : null;
  if (!sender) return say("SITE_URL and sender", true, `${site.origin} is https://; mail is off.`, false);
  const host = site.hostname.toLowerCase();
  if (host === sender || host.endsWith(`.${sender}`) || sender.endsWith(`.${host}`)) {
    return say("SITE_URL and sender", true, `${site.origin} is https://; mail comes from ${sender}, the same domain.`);
  }
  return say(
    "SITE_URL and sender",
    false,
    `Mail comes from ${sender} but the site is ${host}: readers and filters trust a sender on the site's domain; verify ${host} with your provider and send from it.`,
    false,
  );
}

/** Every live check, in order; the database is closed before this returns. */
export async function liveChecks(config: ServerConfig, openEmbedded: OpenEmbedded): Promise<Check[]> {
  const { db, check } = await openForCheck(config, openEmbedded);
  const checks = [check];
  if (db) {
    try {
      checks.push(await checkMigrations(db), await checkDataKey(db, config.dataKeys));
    } finally {
      await db.close().catch(() => {});
    }
  }
  checks.push(await checkSmtp(config), await checkWebhook(config), checkSiteAndSender(config));
  return checks;
}
