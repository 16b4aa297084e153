/**
 * A page per person (GET /admin/person?id=N, from the list or a search): their answers, sources, consent record,
 * status timeline (signed up, confirmed, invited, joined, referrals, updates received, unsubscribed) and webhooks;
 * their standing with the mail (mail-standing.ts: a suppression, its evidence, Lift); and what the team may do for
 * them (POST /admin/person): resend the confirmation, invite now, lift or stop their mail, remove.
 */

import { randomBytes } from "node:crypto";
import { counted } from "../../lib/plural";
import { auditStart } from "../audit";
import type { ServerConfig } from "../config";
import { countedMailboxKey, rootKey } from "../crypto/keys";
import { PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import { escapeHtml as h } from "../http/form-page";
import { isId } from "../http/limits";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { earlyAccessBase, InviteConfigError, runWave, waveOwner } from "../invitations";
import { describeError, log } from "../log";
import type { Mailer } from "../mail/mailer";
import { sendConfirmation } from "../mail/send";
import type { Store } from "../store/types";
import { createWebhookStore } from "../webhooks";
import { mailStandingAction, mailStandingSection } from "./mail-standing";
import { CONSOLE_PATHS, message, page } from "./pages";

export const PERSON_SQL = {
  person: `SELECT w.id, ${PERSON_COLUMNS.split(", ")
    .map((c) => `w.${c}`)
    .join(", ")}, w.status, w.created_at, w.confirmed_at, w.invited_at, w.joined_at, w.source, w.medium,
      w.campaign, w.referrer, w.page, w.terms_version, w.updates_consent, w.updates_consent_at,
      w.updates_consent_words, w.referral_code, w.referrals, r.outcome AS referral_outcome, f.referral_code AS referred_by_code
    FROM waitlist w LEFT JOIN waitlist_referral r ON r.referred_id = w.id LEFT JOIN waitlist f ON f.id = r.referrer_id
    WHERE w.id = $1`,
  /** Their counted referrals' times, and the updates they were sent. */
  referrals: `SELECT counted_at FROM waitlist_referral WHERE referrer_id = $1 AND outcome = 'counted' ORDER BY counted_at`,
  updates: `SELECT u.subject, r.state, r.done_at FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
    WHERE r.waitlist_id = $1 ORDER BY u.id`,
} as const;

type Row = StoredPerson & Record<string, unknown> & { id: number };

const when = (value: unknown) =>
  value == null ? "" : new Date(value as string).toISOString().slice(0, 16).replace("T", " ");

export interface PersonVisit {
  store: Store;
  config: ServerConfig;
  admin: string;
  origin: string;
  mailer: Mailer | null;
  fields: Record<string, string>;
}

/**
 * What an action that changed something says on the page it redirects to (`?id=N&done=…`): a word in the address,
 * never a sentence, so a reload shows the page again instead of sending the action twice.
 */
const PERSON_DONE = {
  resent: "A new confirmation went out, unless one did in the last 10 minutes.",
  invited: "Invited: their e-mail was accepted by the SMTP server.",
  lifted: "Lifted: the product's e-mails go to this address again.",
  suppressed: "Suppressed: no e-mail goes to this address until it is lifted.",
} as const;

/** GET /admin/person?id=N, with `done=…` after an action (its notice from PERSON_DONE; any other word: none). */
export function personGet(visit: PersonVisit, query: URLSearchParams): Promise<Response> {
  const done = query.get("done") ?? "";
  const notice = Object.hasOwn(PERSON_DONE, done) ? PERSON_DONE[done as keyof typeof PERSON_DONE] : "";
  return personPage(visit, query.get("id") ?? "", notice);
}

/** The person's page, with `notice` (an error when `failed`) above it. */
export async function personPage(visit: PersonVisit, idText: string, notice = "", failed = false): Promise<Response> {
  const { store, config, admin } = visit;
  if (!isId(idText)) return message(404, "Not found", "There is nobody with that number.", admin);
  const id = Number(idText);
  const [row] = await withTimeout(store.db.query<Row>(PERSON_SQL.person, [id]), config.dbTimeoutMs);
  if (!row) return message(404, "Not found", "There is nobody with that number: they may have left the list.", admin);
  const person = personOf(store.dataKeys, row);
  const [referrals, updates, events, mail] = await withTimeout(
    Promise.all([
      store.db.query<{ counted_at: unknown }>(PERSON_SQL.referrals, [id]),
      store.db.query<{ subject: string; state: string; done_at: unknown }>(PERSON_SQL.updates, [id]),
      createWebhookStore(store.db).recent(20, id),
      mailStandingSection(store, id, person.email),
    ]),
    config.dbTimeoutMs,
  );
  const answers = [
    ["Name", person.name],
    ["Organization", person.organization],
    ["Why", person.why],
    ["Connect", person.connect],
  ]
    .map(([k, v]) => `<div><dt>${k}</dt><dd>${h(v ?? "—")}</dd></div>`)
    .join("");
  const sources = ["source", "medium", "campaign", "referrer", "page"]
    .map((k) => `<div><dt>${k}</dt><dd>${h(String(row[k] ?? "—"))}</dd></div>`)
    .join("");
  const updatesChoice =
    row["updates_consent"] === null
      ? "never asked"
      : `${row["updates_consent"] ? "yes" : "no"} since ${when(row["updates_consent_at"])} (words: ${h(String(row["updates_consent_words"] ?? "—"))})`;
  const timeline: Array<[unknown, string]> = [
    [row["created_at"], "Signed up"],
    [row["confirmed_at"], "Confirmed their address"],
    [row["invited_at"], "Invited"],
    [row["joined_at"], "Joined"],
    ...referrals.map((r): [unknown, string] => [r.counted_at, "A referral of theirs counted"]),
    ...updates.map((u): [unknown, string] => [u.done_at, `Update “${u.subject}”: ${u.state}`]),
    ...(row["updates_consent"] === false ? [[row["updates_consent_at"], "Stopped updates"] as [unknown, string]] : []),
  ];
  const items = timeline
    .filter(([t]) => t != null)
    .sort((a, b) => new Date(a[0] as string).getTime() - new Date(b[0] as string).getTime())
    .map(([t, what]) => `<li><time>${when(t)}</time> ${h(what)}</li>`)
    .join("");
  const hooks = events.length
    ? `<div class="scroll"><table class="cards"><thead><tr><th scope="col">Event</th><th scope="col">At (UTC)</th><th scope="col">Delivery</th></tr></thead><tbody>${events
        .map(
          (e) =>
            `<tr><td data-label="Event">${h(e.type)}</td><td data-label="At">${when(e.occurredAt)}</td><td data-label="Delivery">${h(e.state)}, ${counted(e.attempts, "attempt")}</td></tr>`,
        )
        .join("")}</tbody></table></div>`
    : `<p class="note">No webhook events for this person.</p>`;
  const status = String(row["status"]);
  const referredBy = row["referred_by_code"]
    ? `<p>Came by share code ${h(String(row["referred_by_code"]))} (${h(String(row["referral_outcome"]))}).</p>`
    : "";
  const actions = [
    status === "pending"
      ? `<button type="submit" name="action" value="resend" class="quiet">Resend the confirmation</button>`
      : "",
    status === "confirmed" ? `<button type="submit" name="action" value="invite">Invite now</button>` : "",
  ].join("");
  return page(
    200,
    person.email,
    `<h1>${h(person.email)}</h1>${notice ? (failed ? `<p class="error" role="alert">${h(notice)}</p>` : `<p class="notice" role="status">${h(notice)}</p>`) : ""}
<section aria-labelledby="who"><h2 id="who">Answers</h2><dl class="facts">${answers}</dl></section>
<section aria-labelledby="from"><h2 id="from">Where they came from</h2><dl class="facts">${sources}</dl>${referredBy}
<p>Share code ${h(String(row["referral_code"]))} · ${counted(Number(row["referrals"]), "counted referral")}</p></section>
<section aria-labelledby="consent"><h2 id="consent">Consent</h2><p>Terms version ${h(String(row["terms_version"] ?? "—"))}, agreed at sign-up (${when(row["created_at"])}); address confirmed ${row["confirmed_at"] ? when(row["confirmed_at"]) : "not yet"}. Updates: ${updatesChoice}.</p></section>
<section aria-labelledby="timeline"><h2 id="timeline">Timeline (UTC)</h2><p>Status: ${h(status)}</p><ol>${items}</ol></section>
${mail}
<section aria-labelledby="hooks"><h2 id="hooks">Webhooks</h2>${hooks}</section>
<section aria-labelledby="act"><h2 id="act">Actions</h2>
<form method="post" action="${CONSOLE_PATHS.person}"><input type="hidden" name="id" value="${id}"><div class="row">${actions}</div></form>
<form method="post" action="${CONSOLE_PATHS.remove}"><input type="hidden" name="email" value="${h(person.email)}"><div class="row"><button type="submit" class="danger">Remove…</button></div></form></section>`,
    admin,
  );
}

/** POST /admin/person: resend the confirmation, or invite now. */
export async function personAction(visit: PersonVisit): Promise<Response> {
  const { store, config, admin, fields } = visit;
  const idText = fields["id"] ?? "";
  if (!isId(idText)) return message(400, "Not found", "There is nobody with that number.", admin);
  const [row] = await withTimeout(store.db.query<Row>(PERSON_SQL.person, [Number(idText)]), config.dbTimeoutMs);
  if (!row) return message(404, "Not found", "There is nobody with that number: they may have left the list.", admin);
  const { email } = personOf(store.dataKeys, row);
  if (fields["action"] === "lift" || fields["action"] === "suppress") {
    return mailStandingAction(store, admin, Number(idText), email, fields["action"]);
  }
  if (fields["action"] === "resend") {
    if (!visit.mailer || row["status"] !== "pending") {
      return personPage(
        visit,
        idText,
        "Only a pending address, with e-mail on, can be sent its confirmation again.",
        true,
      );
    }
    const entry = await auditStart(store.db, admin, "resend-confirmation", { person: Number(idText) });
    const root = await rootKey(config, store);
    await sendConfirmation(store.consent, visit.mailer, email, visit.origin, countedMailboxKey(root, email));
    await entry.end({ person: Number(idText) });
    return seeOther(`${CONSOLE_PATHS.person}?id=${idText}&done=resent`);
  }
  if (fields["action"] === "invite") {
    if (!visit.mailer) return personPage(visit, idText, "Invite from the dashboard's wave while e-mail is off.", true);
    let accessUrl: URL;
    try {
      accessUrl = earlyAccessBase(config.earlyAccessUrl);
    } catch (error) {
      if (error instanceof InviteConfigError) return personPage(visit, idText, error.message, true);
      throw error;
    }
    const entry = await auditStart(store.db, admin, "wave", { size: 1, person: Number(idText) });
    const report = await runWave({
      store,
      next: 1,
      people: [Number(idText)],
      delivery: { kind: "mail", mailer: visit.mailer },
      accessUrl,
      siteUrl: visit.origin,
      ttlDays: config.inviteTtlDays,
      owner: waveOwner(`console-${randomBytes(4).toString("hex")}`),
    }).catch((error: unknown) => {
      log("error", "admin.invite_person_failed", describeError(error));
      return null;
    });
    await entry.end({ size: 1, person: Number(idText), invited: report?.invited ?? 0 });
    if (report?.invited === 1) return seeOther(`${CONSOLE_PATHS.person}?id=${idText}&done=invited`);
    const said = report?.resumed
      ? "An unfinished wave was completed first; press Invite now again."
      : "Not invited: the SMTP server refused or could not be reached, or they are no longer waiting.";
    return personPage(visit, idText, said, true);
  }
  return seeOther(`${CONSOLE_PATHS.person}?id=${idText}`);
}

export const personLink = (id: number) => `${CONSOLE_PATHS.person}?id=${id}`;
