/**
 * Which tool a file came from, told by its header row, and what each of its rows says in our terms: the address,
 * a name, when the person signed up, the evidence of their consent (which column, and its time), or that they left
 * (an unsubscribe, a bounce: the tool's own reason, for the suppression list). Column lists are each tool's
 * documented export (docs/operating.md#moving-from-another-tool says where each was taken from).
 */

/** One row as the import reads it, before its checks (rules.ts of the import: row.ts). */
export interface ReadRow {
  email: string;
  name: string | null;
  /** When they signed up, as the file writes it (null: not given). */
  signedUpAt: string | null;
  source: string | null;
  answers: { organization: string | null; why: string | null; connect: string | null };
  /** Evidence of consent: the column that shows it, and its time as written (null: only the sign-up's). */
  evidence: { what: string; at: string | null } | null;
  /** The other tool's reason this person is not to be mailed (unsubscribed, bounced): suppressed, not added. */
  suppress: string | null;
}

/** A row's cell by its column's name (any case, trimmed): "" when the column is absent (cellsBy). */
type Cell = (column: string) => string;

export interface Format {
  /** The tool and which of its files (e.g. "Mailchimp (unsubscribed)"). */
  label: string;
  /** The columns it reads, as the header names them (for the report and the docs). */
  reads: readonly string[];
  read(cell: Cell): ReadRow;
}

const norm = (column: string) => column.trim().toLowerCase();
const text = (value: string) => value.trim() || null;
const joined = (...parts: string[]) =>
  text(
    parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join(" "),
  );
const yes = (value: string) => /^(true|yes|1|y|verified|confirmed)$/i.test(value.trim());
/** The first of the columns that is not empty, as written ("" when none is). */
const first = (cell: Cell, columns: readonly string[]) => columns.map(cell).find(Boolean) ?? "";
/** A sign-up's time, from the first of the columns that is not empty. */
function timeIn(...columns: string[]) {
  return (cell: Cell) => text(first(cell, columns));
}

/**
 * Another tool's export: where its rows hold the address (the first of `email` that is not empty), the name (the
 * `name` columns joined; none: no name) and the sign-up's time; and what a row says, in the tool's words, of the
 * person's consent (what shows it, and its time) and of why not to mail them. The tool's name goes before both.
 * A tool's file has no source and no answers of ours.
 */
interface Tool {
  tool: string;
  label?: string;
  reads: readonly string[];
  email: readonly string[];
  name: readonly string[];
  signedUpAt: (cell: Cell) => string | null;
  /** Consent: what shows it, and its time; left: why not to mail them. */
  says(cell: Cell, signedUpAt: string | null): { consent: [string, string | null] | null; left: string | null };
}

const NO_ANSWERS = { organization: null, why: null, connect: null };
const toolFormat = (tool: Tool): Format => ({
  label: tool.label ?? tool.tool,
  reads: tool.reads,
  read: (cell) => {
    const signedUpAt = tool.signedUpAt(cell);
    const { consent, left } = tool.says(cell, signedUpAt);
    return {
      email: first(cell, tool.email),
      name: joined(...tool.name.map(cell)),
      signedUpAt,
      source: null,
      answers: NO_ANSWERS,
      evidence: consent ? { what: `${tool.tool} ${consent[0]}`, at: consent[1] } : null,
      suppress: left ? `${tool.tool}: ${left}` : null,
    };
  },
});

/** Answers to the sign-up's questions, from columns named like their ids (the hook for a question registry). */
const ANSWER_COLUMNS = ["organization", "why", "connect"] as const;
const answersOf = (cell: Cell) => ({
  organization: text(cell("organization")),
  why: text(cell("why")),
  connect: text(cell("connect")),
});

const mailchimp = (kind: "subscribed" | "unsubscribed" | "cleaned") =>
  toolFormat({
    tool: "Mailchimp",
    label: `Mailchimp (${kind})`,
    reads: [
      "Email Address",
      "First Name",
      "Last Name",
      "OPTIN_TIME",
      "CONFIRM_TIME",
      ...(kind === "unsubscribed" ? ["UNSUB_TIME", "UNSUB_REASON"] : kind === "cleaned" ? ["CLEAN_TIME"] : []),
    ],
    email: ["email address"],
    name: ["first name", "last name"],
    signedUpAt: (cell) => text(cell("optin_time")) ?? text(cell("confirm_time")),
    says: (cell) => {
      const confirm = text(cell("confirm_time"));
      const optin = text(cell("optin_time"));
      const reason = text(cell("unsub_reason"));
      return {
        consent: confirm ? ["CONFIRM_TIME", confirm] : optin ? ["OPTIN_TIME", optin] : null,
        left:
          kind === "unsubscribed"
            ? `unsubscribed${reason ? ` (${reason})` : ""}`
            : kind === "cleaned"
              ? "cleaned (bounced)"
              : null,
      };
    },
  });

/** Buttondown's subscriber types that mean the address was confirmed, and those that mean "do not mail". */
const BUTTONDOWN_CONFIRMED = new Set(["regular", "premium", "gifted", "trialed", "churning", "paused", "past_due"]);
const BUTTONDOWN_LEFT: Record<string, string> = {
  unsubscribed: "unsubscribed",
  removed: "removed",
  undeliverable: "undeliverable (bounced)",
  complained: "complained",
  spammy: "marked spammy",
};

const buttondown = toolFormat({
  tool: "Buttondown",
  reads: ["email (or email_address)", "creation_date", "subscriber_type (or type)", "unsubscription_date", "notes"],
  email: ["email", "email_address"],
  name: [],
  signedUpAt: timeIn("creation_date"),
  says: (cell, created) => {
    const type = norm(cell("subscriber_type") || cell("type"));
    return {
      consent: BUTTONDOWN_CONFIRMED.has(type) ? [`subscriber_type ${type}`, created] : null,
      left: BUTTONDOWN_LEFT[type] ?? (text(cell("unsubscription_date")) ? "unsubscribed" : null),
    };
  },
});

const listmonk = toolFormat({
  tool: "listmonk",
  reads: ["email", "name", "status", "subscription_status", "created_at", "updated_at"],
  email: ["email"],
  name: ["name"],
  signedUpAt: timeIn("created_at"),
  says: (cell, created) => {
    const subscription = norm(cell("subscription_status") || cell("list_status"));
    const blocked = norm(cell("status")) === "blocklisted";
    return {
      consent:
        subscription === "confirmed" ? ["subscription_status confirmed", text(cell("updated_at")) ?? created] : null,
      left: blocked ? "blocklisted" : subscription === "unsubscribed" ? "unsubscribed" : null,
    };
  },
});

const getwaitlist = toolFormat({
  tool: "GetWaitlist",
  reads: ["email", "first_name", "last_name", "created_at", "verified"],
  email: ["email"],
  name: ["first_name", "last_name"],
  signedUpAt: timeIn("created_at"),
  says: (cell, created) => ({ consent: yes(cell("verified")) ? ["verified", created] : null, left: null }),
});

const waitlister = toolFormat({
  tool: "Waitlister",
  reads: ["email", "name", "signup_date (or created_at)", "email_verified (or verified)"],
  email: ["email"],
  name: ["name"],
  signedUpAt: timeIn("signup_date", "created_at", "joined_at"),
  says: (cell, created) => ({
    consent: yes(cell("email_verified") || cell("verified")) ? ["email verified", created] : null,
    left: null,
  }),
});

const KIT_LEFT: Record<string, string> = { cancelled: "unsubscribed", bounced: "bounced", complained: "complained" };

const kit = toolFormat({
  tool: "Kit",
  reads: ["email_address", "first_name", "state (or status)", "created_at"],
  email: ["email_address"],
  name: ["first_name"],
  signedUpAt: timeIn("created_at"),
  says: (cell, created) => {
    const state = norm(cell("state") || cell("status"));
    return { consent: state === "active" ? ["state active", created] : null, left: KIT_LEFT[state] ?? null };
  },
});

const generic: Format = {
  label: "a CSV with an email column",
  reads: ["email", "name", "created_at (or signed_up_at)", "confirmed_at", "source", ...ANSWER_COLUMNS],
  read: (cell) => {
    const confirmed = text(cell("confirmed_at"));
    return {
      email: cell("email"),
      name: text(cell("name")),
      signedUpAt: text(cell("created_at") || cell("signed_up_at")),
      source: text(cell("source")),
      answers: answersOf(cell),
      evidence: confirmed ? { what: "confirmed_at", at: confirmed } : null,
      suppress: text(cell("unsubscribed_at")) ? "unsubscribed (unsubscribed_at)" : null,
    };
  },
};

/** The format a header row shows, or null when it has no address column the import knows. */
export function recogniseFormat(header: readonly string[]): Format | null {
  const has = new Set(header.map(norm));
  const all = (...names: string[]) => names.every((name) => has.has(name));
  const any = (...names: string[]) => names.some((name) => has.has(name));
  if (has.has("email address") && any("optin_time", "confirm_time", "leid", "euid", "member_rating")) {
    return mailchimp(has.has("clean_time") ? "cleaned" : has.has("unsub_time") ? "unsubscribed" : "subscribed");
  }
  if (all("email", "attributes") && any("uuid", "name")) return listmonk;
  if (all("email", "priority", "amount_referred")) return getwaitlist;
  if (all("email", "points", "position")) return waitlister;
  if (any("email", "email_address") && any("creation_date", "subscriber_type", "unsubscription_date")) {
    return buttondown;
  }
  if (has.has("email_address") && any("state", "first_name")) return kit;
  if (has.has("email")) return generic;
  return null;
}

/** A reader of one record's cells by column name (any case, trimmed): "" when the column is absent. */
export function cellsBy(header: readonly string[]): (cells: readonly string[]) => Cell {
  const index = new Map<string, number>();
  header.forEach((column, i) => {
    if (!index.has(norm(column))) index.set(norm(column), i);
  });
  return (cells) => (column) => {
    const i = index.get(column);
    return i === undefined ? "" : (cells[i] ?? "");
  };
}
