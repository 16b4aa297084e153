/**
 * `npm run waitlist -- --help`: every command and option, in the words the team reads. The commands and options
 * the CLI takes are listed here too, so tests/unit/waitlist-help.test.ts holds the help to them.
 */

/** Every command scripts/waitlist.ts runs. */
export const COMMANDS = [
  "count",
  "export",
  "invite",
  "update",
  "webhooks",
  "purge-pending",
  "encrypt",
  "reminders",
  "import",
  "doctor",
] as const;

/** Every option it reads (node:util parseArgs). */
export const OPTIONS = {
  format: { type: "string" },
  since: { type: "string" },
  "confirmed-only": { type: "boolean" },
  "older-than": { type: "string" },
  next: { type: "string" },
  subject: { type: "string" },
  "body-file": { type: "string" },
  yes: { type: "boolean" },
  again: { type: "boolean" },
  json: { type: "boolean" },
  consent: { type: "string" },
  source: { type: "string" },
  answer: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

export const HELP = `Usage: npm run waitlist -- <command> [options]

Commands:
  count                       sign-ups by status, sign-ups per day and the top sources of the last 14 days
  export                      every entry, with its status, to standard output
    --format csv|mail-csv|json
                              csv (default): every column, RFC 4180, formulas neutralised for spreadsheets;
                              mail-csv: address and name exactly as stored, for a mailing tool's import
    --since YYYY-MM-DD        only entries created on or after that day (UTC)
    --confirmed-only          only confirmed entries
  invite                      lets the oldest confirmed sign-ups in: a single-use invite code each, e-mailed
                              (with mail off: printed as CSV email,name,invite_url for your own mail tool)
    --next N                  how many (the N who signed up first); required without a filter. With a
                              filter, the N matching who signed up first; without --next, everyone matching
    --answer ID=VALUE         only people who gave this answer to question ID of src/content/questions.json
                              (a choice or multiple question), e.g. --answer team-size=50+. Repeat it: values
                              of one question are alternatives (OR), different questions must all hold (AND)
    --source NAME             only people who came from this source (as the People page's filter)
    --yes                     really invite; without it, only says how many and from which sign-up days
                              (with a filter: how many, and how they split by answer)
                              needs EARLY_ACCESS_URL (the product's sign-up page); codes work INVITE_TTL_DAYS (30)
  update                      e-mails an update to the confirmed people who said yes to updates (needs mail)
    --subject TEXT            required: one line
    --body-file PATH          required: the plain text (at most 100 KB); links are made clickable
    --answer ID=VALUE         only to people who gave this answer (repeatable, as for invite); the dry run
                              says how they split by answer. --source NAME: only those from this source
    --yes                     really send; without it, only says how many it would reach. Killed or cut off?
                              Run the same command again: it goes on where it stopped, nobody mailed twice
    --again                   once it is sent: the same words to those who have not received them
  webhooks deliver            delivers the webhook events that are due now (needs WEBHOOK_URL and WEBHOOK_SECRET);
                              the scheduled function does the same every minute
  webhooks off                stops the database recording events (any process with WEBHOOK_URL switches it on
                              again; nothing without it ever switches it off): for webhooks given up for good
  purge-pending               deletes sign-ups never confirmed (only when confirmation by e-mail is on)
    --older-than 14d          required: untouched for that long (days, e.g. 14d; or hours, e.g. 36h)
    --yes                     really delete; without it, only says how many would go
  reminders                   the reminders the scheduled function sends every 10 minutes, now, never two to anyone:
                              one to confirm, to each pending sign-up older than CONFIRM_REMINDER_HOURS (24);
                              one of an invitation, to each invited person whose unused code expires within
                              INVITE_REMINDER_DAYS (3) (needs EARLY_ACCESS_URL); 0 turns either off
    --yes                     really send; without it, only says how many are due
  import FILE                 brings a list from another tool: Mailchimp (a CSV of its export, or the ZIP),
                              Buttondown, listmonk, GetWaitlist, Waitlister, Kit, or any CSV with an email
                              column; the format is told by the header row. Refused rows go to FILE.refused.csv
    --consent ask|confirmed   ask (default): everyone new is pending and e-mailed once to confirm;
                              confirmed: only rows the file shows confirmed (a confirmation time) are added,
                              as confirmed; the others are refused
    --source NAME             the source of rows whose file names none (default: import)
    --yes                     really import; without it, only counts. Killed? Run the same command again
  doctor                      every setting (required, recommended, optional), ✓ or ✗ with what to do, then live
                              checks: the database and its migrations, DATA_KEY on sampled rows, SMTP (EHLO only),
                              the webhook URL (HEAD only), SITE_URL and the sender's domain. Changes nothing, shows
                              no secret; exits 0 when nothing required is missing or failing, else 1
    --json                    the same as JSON, for machines
  encrypt                     seals every plain row (and every row under DATA_KEY_PREVIOUS) with DATA_KEY;
                              safe to stop and run again: each batch is sealed whole or not at all
  help, --help, -h            this text

Reads DATABASE_URL, else NETLIFY_DB_URL, else the embedded database in DATA_DIR (default .data/).
While \`npm start\` holds the embedded database, stop it first: nothing is changed either way.`;
