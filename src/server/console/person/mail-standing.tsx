/**
 * A person's standing with the mail, on their page (person.tsx): whether their address is suppressed, why, since
 * when, on what evidence (the SMTP answer or the provider's event), lifted by whom; and the one action that
 * applies, each audited: Lift (mail may go again: a new bounce suppresses it again) or Stop all mail (an
 * operator's suppression). In its own file so the page only places it.
 */
import { audit } from "../../audit";
import { seeOther } from "../../http/responses";
import type { Store } from "../../store/types";
import { createSuppressionStore, type Suppression, type SuppressionReason } from "../../suppression";
import { CONSOLE_PATHS } from "../paths";
import { Badge, Section } from "../ui/parts";
import { utcMinute } from "../ui/time";
import { listKeysOfPerson } from "./person-data";

/** Why a mailbox is suppressed, as the team reads it. */
export const REASONS: Record<SuppressionReason, string> = {
  hard_bounce: "their server refused the address for good (a hard bounce)",
  complaint: "they marked an e-mail as spam (a complaint)",
  soft_bounces: "their server said “not now” three times within 30 days",
  operator: "an operator stopped all mail to them",
  imported: "they had unsubscribed or bounced in the tool the list was imported from",
};

const when = (iso: string) => `${utcMinute(iso)} UTC`;

/** The section: the suppression (or none), its evidence, and the form with the action that applies. */
export function MailStanding({ id, suppression }: { id: number; suppression: Suppression | null }) {
  const active = suppression !== null && suppression.liftedAt === null;
  return (
    <Section id="mail" title="Mail">
      {suppression ? (
        <>
          <p className={active ? "error" : undefined}>
            {active ? <Badge tone="bad">Suppressed</Badge> : <Badge>Lifted</Badge>}{" "}
            {active ? "No e-mail goes to this address" : "Suppressed, then lifted"}: {REASONS[suppression.reason]},{" "}
            {when(suppression.suppressedAt)}, from {suppression.source}.
          </p>
          <p>
            Evidence: <code>{suppression.evidence}</code>
          </p>
          {suppression.liftedAt ? (
            <p>
              Lifted {when(suppression.liftedAt)} by {suppression.liftedBy ?? "—"}.
            </p>
          ) : null}
        </>
      ) : (
        <p>Not suppressed: the product's e-mails reach this address.</p>
      )}
      <form method="post" action={CONSOLE_PATHS.person}>
        <input type="hidden" name="id" value={id} />
        <div className="row">
          {active ? (
            <button type="submit" name="action" value="lift">
              Lift the suppression
            </button>
          ) : (
            <button type="submit" name="action" value="suppress" className="quiet">
              Stop all mail to this address
            </button>
          )}
        </div>
      </form>
    </Section>
  );
}

/** POST /admin/person with action=lift or suppress: done, audited, and back to the page saying so. */
export async function mailStandingAction(
  store: Store,
  admin: string,
  id: number,
  email: string,
  action: "lift" | "suppress",
): Promise<Response> {
  const list = store.of(createSuppressionStore);
  const keys = await listKeysOfPerson(store, email);
  if (action === "lift") {
    if (await list.lift(keys, admin)) await audit(store.db, admin, "mail.lifted", { person: id });
    return seeOther(`${CONSOLE_PATHS.person}?id=${id}&done=lifted`);
  }
  if (await list.suppress(keys.address, "operator", `stopped from the console by ${admin}`, "console")) {
    await audit(store.db, admin, "mail.suppressed", { person: id, reason: "operator" });
  }
  return seeOther(`${CONSOLE_PATHS.person}?id=${id}&done=suppressed`);
}
