/**
 * Each audit entry as a sentence that names what was done, for the console's log (console/audit/audit.tsx): an update
 * by its subject, a wave by its size, a person without their address (the log never holds one), a count in plain
 * words. One function, `auditSentence`, knows every action the server and the CLI write (grep `audit(` and
 * `auditStart(`); tests/integration/console/console-audit-words.test.ts holds each to its words. An action it
 * does not know still reads as words ("Did “…”"), and the log shows its record beside it.
 *
 * What an entry names by id (an update, a wave, a webhook event) is looked up first (`AuditNames`), so the
 * sentence can say "the update “March news”" or "a wave of 40 people"; one since deleted reads as "an update".
 */
import { counted } from "../../lib/plural";
import { type AuditNames, type Details, jobName, numberIn, people, textIn, updateName, waveName } from "./names";
import { MORE_ACTIONS } from "./words-more";

export { actorName } from "./actors";
export type { AuditNames } from "./names";

type Say = (d: Details, names: AuditNames) => string;

function exportSentence(d: Details): string {
  const format = String(d["format"] ?? "csv").toUpperCase();
  const rows = numberIn(d, "rows");
  if (d["via"] === "http") {
    return `The product downloaded ${counted(rows ?? 0, "sign-up")} through the export API (${format})`;
  }
  if (d["via"] === "cli") {
    const only = d["confirmedOnly"] === true ? " (confirmed sign-ups only)" : "";
    return `Downloaded the list as ${format} from the command line${only}`;
  }
  const parts = numberIn(d, "parts") ?? 0;
  if (rows === 0 || parts === 0) return `Asked to download the list as ${format}: it was empty`;
  return `Downloaded the list as ${format}: ${counted(rows ?? 0, "sign-up")} in ${counted(parts, "part")}`;
}

function waveSentence(d: Details, names: AuditNames): string {
  const size = numberIn(d, "size") ?? 0;
  if (numberIn(d, "person") !== null) {
    return numberIn(d, "invited") === 1
      ? "Invited one person now, from their page"
      : "Tried to invite one person now, from their page: they were not invited";
  }
  if (typeof d["note"] === "string") return "Confirmed the same wave twice: the second confirmation started nothing";
  const row = names.waves.get(numberIn(d, "wave") ?? -1);
  const refused = numberIn(d, "refused") ?? 0;
  const refusals = refused > 0 ? `; ${counted(refused, "e-mail was", "e-mails were")} refused` : "";
  if (d["reserved"] !== undefined) {
    // Sent in the background: what it did so far is on the wave's row.
    const reserved = numberIn(d, "reserved") ?? 0;
    if (reserved === 0) return `Asked for a wave of ${people(size)}: nobody was waiting, so nobody was invited`;
    if (row?.finished) return `Invited ${people(row.invited)} in a wave`;
    const sofar = row ? `: ${counted(row.invited, "invited", "invited")} so far` : "";
    return `Started a wave inviting ${people(reserved)} by e-mail${sofar}`;
  }
  const invited = numberIn(d, "invited");
  if (invited === null) return `Started a wave of ${people(size)}`;
  if (d["wave"] !== undefined) {
    return `Invited ${people(invited)} in a wave, as a file of invitation links (e-mail was off)${refusals}`;
  }
  return `Invited ${people(invited)} in a wave of ${people(size)} from the command line${refusals}`;
}

function updateSentence(d: Details, names: AuditNames): string {
  const id = numberIn(d, "update");
  const name = updateName(id, names, textIn(d, "subject"));
  const row = id === null ? undefined : names.updates.get(id);
  if (d["background"] !== undefined) {
    if (row?.finished) return `Sent ${name} to ${people(row.sent)}${failures(row.failed)}`;
    const sofar = row ? `: ${counted(row.sent, "sent", "sent")} so far` : "";
    return `Started sending ${name}${sofar}`;
  }
  const sent = numberIn(d, "sent");
  const again = d["again"] === true ? " again" : "";
  if (sent === null) return `Started sending ${name}${again} from the command line`;
  const who = d["again"] === true ? `${people(sent)} who had not had it` : people(sent);
  return `Sent ${name}${again} from the command line, to ${who}${failures(numberIn(d, "failed") ?? 0)}`;
}

/** A resend of the confirmation by what became of it (mail/send.ts: SendOutcome); entries before it was kept: sent. */
const RESENT_SENT = "Sent a pending person their confirmation e-mail again";
const RESENT: Record<string, string> = {
  sent: RESENT_SENT,
  suppressed: "Did not send a pending person their confirmation e-mail again: their address is suppressed",
  "not-due": "Did not send a pending person their confirmation e-mail again: one had gone out in the last 10 minutes",
  "mailbox-limited":
    "Did not send a pending person their confirmation e-mail again: their mailbox had had its e-mails for the day",
  failed: "Tried to send a pending person their confirmation e-mail again: the SMTP server did not take it",
};

const failures = (failed: number) => (failed > 0 ? `; ${counted(failed, "e-mail", "e-mails")} failed` : "");

const done = (d: Details, said: string) =>
  d["done"] === false ? `${said}: nothing changed (it had finished, or was not in that state)` : said;

/** The console's own actions (the rest: words-more.ts). */
const ACTIONS: Record<string, Say> = {
  "sign-in": (d) => (d["by"] === "token" ? "Signed in with the admin token" : "Signed in with a link sent by e-mail"),
  "sign-out": () => "Signed out",
  export: exportSentence,
  remove: (d) =>
    d["removed"] === false
      ? "Asked to remove an address that was not on the list: nothing was removed"
      : "Removed a person from the list, with everything they sent",
  "resend-confirmation": (d) => RESENT[String(d["outcome"])] ?? RESENT_SENT,
  wave: waveSentence,
  "wave-file-again": (d, names) => {
    const rows = numberIn(d, "rows");
    const links = rows === null ? "" : `: ${counted(rows, "new link")}, and the earlier file's links stopped working`;
    return `Downloaded the invitation file of ${waveName(numberIn(d, "wave"), names)} again${links}`;
  },
  "wave-file-arrived": (d, names) =>
    `Said the invitation file of ${waveName(numberIn(d, "wave"), names)} arrived: the console no longer offers it`,
  update: updateSentence,
  "update-test": (d) => {
    const subject = textIn(d, "subject");
    const which = subject === null ? "an update" : `the update “${subject}”`;
    return `Sent themselves a test of ${which}${d["sent"] === false ? ": the SMTP server did not take it" : ""}`;
  },
  "job-pause": (d, names) => done(d, `Paused ${jobName(d, names)}`),
  "job-resume": (d, names) => done(d, `Resumed ${jobName(d, names)}`),
  "job-cancel": (d, names) => done(d, `Cancelled the rest of ${jobName(d, names)}`),
};

/** An action that started and has no end recorded: what it set out to do. */
const STARTED: Record<string, Say> = {
  wave: (d) => `Started a wave of ${people(numberIn(d, "size") ?? 0)}`,
  update: (d, names) => `Started sending ${updateName(numberIn(d, "update"), names, textIn(d, "subject"))}`,
  "update-test": (d) => `Started a test of the update “${textIn(d, "subject") ?? ""}”`,
  remove: () => "Started removing a person from the list",
  "resend-confirmation": () => "Started sending a pending person their confirmation e-mail again",
};

/** Words after the sentence: how a command ended. */
function ending(d: Details): string {
  if (typeof d["refused"] === "string") return `. Refused: ${d["refused"]}`;
  if (typeof d["error"] === "string") return `. It failed: ${d["error"]}`;
  const exit = numberIn(d, "exit");
  if (exit !== null && exit !== 0) return " (it ended with a problem: see the command's output)";
  return "";
}

/** Entry `action` with `details` as a sentence, its ids named by `names`. */
export function auditSentence(action: string, details: Details, names: AuditNames): string {
  const named = `“${action.replaceAll(/[-_.]/g, " ")}”`;
  if (details["state"] === "started, no end recorded") {
    const started = STARTED[action]?.(details, names) ?? `Started ${named}`;
    return `${started}: no end was recorded (it is still running, or it stopped half-way).`;
  }
  const say = ACTIONS[action] ?? MORE_ACTIONS[action];
  return `${say ? say(details, names) : `Did ${named}`}${ending(details)}.`;
}

/** Whether `action` has words of its own here (an action it does not know is shown with its record beside it). */
export const isKnownAction = (action: string): boolean =>
  Object.hasOwn(ACTIONS, action) || Object.hasOwn(MORE_ACTIONS, action);
