/**
 * A person's standing with the mail, on their page (person.ts): whether their mailbox is suppressed, why, since
 * when, on what evidence (the SMTP answer or the provider's event), lifted by whom; their reminder, if one went;
 * and the two actions on it,
 * each audited: Lift (mail may go again: a new bounce suppresses it again) and Stop all mail (an operator's
 * suppression). In its own file so the page only places it.
 */
import { audit } from "../audit";
import { databaseKey, storedMailboxKey } from "../crypto/keys";
import { escapeHtml as h } from "../http/form-page";
import { seeOther } from "../http/responses";
import { createReminderStore } from "../reminders";
import type { Store } from "../store/types";
import { createSuppressionStore, type SuppressionReason } from "../suppression";
import { CONSOLE_PATHS } from "./pages";

const REASONS: Record<SuppressionReason, string> = {
  hard_bounce: "their server refused the address for good (a hard bounce)",
  complaint: "they marked an e-mail as spam (a complaint)",
  soft_bounces: "their server said “not now” three times within 30 days",
  operator: "an operator stopped all mail to them",
};

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** The mailbox's key, as the list keys it: under the database's own secret, as waitlist.mailbox_key. */
const keyOf = async (store: Store, email: string) => storedMailboxKey(await databaseKey(store), email);

/** The section's HTML: the suppression (or none) and the form with the action that applies. */
export async function mailStandingSection(store: Store, id: number, email: string): Promise<string> {
  const [row, reminders] = await Promise.all([
    createSuppressionStore(store.db).get(await keyOf(store, email)),
    createReminderStore(store.db).of(id),
  ]);
  const reminded = reminders
    .map(
      (r) =>
        `<p>Reminded ${r.kind === "confirm" ? "to confirm" : "of their invitation"} ${when(r.sentAt)} UTC (one reminder, never two).</p>`,
    )
    .join("");
  const active = row !== null && row.liftedAt === null;
  const said = row
    ? `<p${active ? ' class="error"' : ""}>${active ? "No e-mail goes to this address" : "Suppressed, then lifted"}: ${h(REASONS[row.reason])}, ${when(row.suppressedAt)} UTC, from ${h(row.source)}.</p>
<p>Evidence: <code>${h(row.evidence)}</code></p>${row.liftedAt ? `<p>Lifted ${when(row.liftedAt)} UTC by ${h(row.liftedBy ?? "—")}.</p>` : ""}`
    : "<p>Not suppressed: the product's e-mails reach this address.</p>";
  const button = active
    ? `<button type="submit" name="action" value="lift">Lift the suppression</button>`
    : `<button type="submit" name="action" value="suppress" class="quiet">Stop all mail to this address</button>`;
  return `<section aria-labelledby="mail"><h2 id="mail">Mail</h2>${said}${reminded}
<form method="post" action="${CONSOLE_PATHS.person}"><input type="hidden" name="id" value="${id}"><div class="row">${button}</div></form></section>`;
}

/** POST /admin/person with action=lift or suppress: done, audited, and back to the page saying so. */
export async function mailStandingAction(
  store: Store,
  admin: string,
  id: number,
  email: string,
  action: "lift" | "suppress",
): Promise<Response> {
  const list = createSuppressionStore(store.db);
  const key = await keyOf(store, email);
  if (action === "lift") {
    if (await list.lift(key, admin)) await audit(store.db, admin, "mail.lifted", { person: id });
    return seeOther(`${CONSOLE_PATHS.person}?id=${id}&done=lifted`);
  }
  if (await list.suppress(key, "operator", `stopped from the console by ${admin}`, "console")) {
    await audit(store.db, admin, "mail.suppressed", { person: id, reason: "operator" });
  }
  return seeOther(`${CONSOLE_PATHS.person}?id=${id}&done=suppressed`);
}
