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

export interface Format {
  /** The tool and which of its files (e.g. "Mailchimp (unsubscribed)"). */
  label: string;
  /** The columns it reads, as the header names them (for the report and the docs). */
  reads: readonly string[];
  read(cell: (column: string) => string): ReadRow;
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
const NO_ANSWERS = { organization: null, why: null, connect: null };

/** Answers to the sign-up's questions, from columns named like their ids (the hook for a question registry). */
const ANSWER_COLUMNS = ["organization", "why", "connect"] as const;
const answersOf = (cell: (column: string) => string) => ({
  organization: text(cell("organization")),
  why: text(cell("why")),
  connect: text(cell("connect")),
});

const mailchimp = (kind: "subscribed" | "unsubscribed" | "cleaned"): Format => ({
  label: `Mailchimp (${kind})`,
  reads: [
    "Email Address",
    "First Name",
    "Last Name",
    "OPTIN_TIME",
    "CONFIRM_TIME",
    ...(kind === "unsubscribed" ? ["UNSUB_TIME", "UNSUB_REASON"] : kind === "cleaned" ? ["CLEAN_TIME"] : []),
  ],
  read: (cell) => {
    const confirm = text(cell("confirm_time"));
    const optin = text(cell("optin_time"));
    const reason = text(cell("unsub_reason"));
    return {
      email: cell("email address"),
      name: joined(cell("first name"), cell("last name")),
      signedUpAt: optin ?? confirm,
      source: null,
      answers: NO_ANSWERS,
      evidence: confirm
        ? { what: "Mailchimp CONFIRM_TIME", at: confirm }
        : optin
          ? { what: "Mailchimp OPTIN_TIME", at: optin }
          : null,
      suppress:
        kind === "unsubscribed"
          ? `Mailchimp: unsubscribed${reason ? ` (${reason})` : ""}`
          : kind === "cleaned"
            ? "Mailchimp: cleaned (bounced)"
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

const buttondown: Format = {
  label: "Buttondown",
  reads: ["email (or email_address)", "creation_date", "subscriber_type (or type)", "unsubscription_date", "notes"],
  read: (cell) => {
    const type = norm(cell("subscriber_type") || cell("type"));
    const created = text(cell("creation_date"));
    const left = BUTTONDOWN_LEFT[type] ?? (text(cell("unsubscription_date")) ? "unsubscribed" : null);
    return {
      email: cell("email") || cell("email_address"),
      name: null,
      signedUpAt: created,
      source: null,
      answers: NO_ANSWERS,
      evidence: BUTTONDOWN_CONFIRMED.has(type) ? { what: `Buttondown subscriber_type ${type}`, at: created } : null,
      suppress: left ? `Buttondown: ${left}` : null,
    };
  },
};

const listmonk: Format = {
  label: "listmonk",
  reads: ["email", "name", "status", "subscription_status", "created_at", "updated_at"],
  read: (cell) => {
    const status = norm(cell("status"));
    const subscription = norm(cell("subscription_status") || cell("list_status"));
    const created = text(cell("created_at"));
    return {
      email: cell("email"),
      name: text(cell("name")),
      signedUpAt: created,
      source: null,
      answers: NO_ANSWERS,
      evidence:
        subscription === "confirmed"
          ? { what: "listmonk subscription_status confirmed", at: text(cell("updated_at")) ?? created }
          : null,
      suppress:
        status === "blocklisted"
          ? "listmonk: blocklisted"
          : subscription === "unsubscribed"
            ? "listmonk: unsubscribed"
            : null,
    };
  },
};

const getwaitlist: Format = {
  label: "GetWaitlist",
  reads: ["email", "first_name", "last_name", "created_at", "verified"],
  read: (cell) => {
    const created = text(cell("created_at"));
    return {
      email: cell("email"),
      name: joined(cell("first_name"), cell("last_name")),
      signedUpAt: created,
      source: null,
      answers: NO_ANSWERS,
      evidence: yes(cell("verified")) ? { what: "GetWaitlist verified", at: created } : null,
      suppress: null,
    };
  },
};

const waitlister: Format = {
  label: "Waitlister",
  reads: ["email", "name", "signup_date (or created_at)", "email_verified (or verified)"],
  read: (cell) => {
    const created = text(cell("signup_date") || cell("created_at") || cell("joined_at"));
    return {
      email: cell("email"),
      name: text(cell("name")),
      signedUpAt: created,
      source: null,
      answers: NO_ANSWERS,
      evidence: yes(cell("email_verified") || cell("verified"))
        ? { what: "Waitlister email verified", at: created }
        : null,
      suppress: null,
    };
  },
};

const KIT_LEFT: Record<string, string> = {
  cancelled: "unsubscribed",
  bounced: "bounced",
  complained: "complained",
};

const kit: Format = {
  label: "Kit",
  reads: ["email_address", "first_name", "state (or status)", "created_at"],
  read: (cell) => {
    const state = norm(cell("state") || cell("status"));
    const created = text(cell("created_at"));
    return {
      email: cell("email_address"),
      name: text(cell("first_name")),
      signedUpAt: created,
      source: null,
      answers: NO_ANSWERS,
      evidence: state === "active" ? { what: "Kit state active", at: created } : null,
      suppress: KIT_LEFT[state] ? `Kit: ${KIT_LEFT[state]}` : null,
    };
  },
};

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
export function cellsBy(header: readonly string[]): (cells: readonly string[]) => (column: string) => string {
  const index = new Map<string, number>();
  header.forEach((column, i) => {
    if (!index.has(norm(column))) index.set(norm(column), i);
  });
  return (cells) => (column) => {
    const i = index.get(column);
    return i === undefined ? "" : (cells[i] ?? "");
  };
}
