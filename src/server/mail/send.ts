import { LINK_PATHS } from "../../lib/waitlist/consent";
import { type ConsentStore, newToken } from "../consent-store";
import { describeError, log } from "../log";
import type { Mailer } from "./mailer";
import { confirmationEmail, removalEmail } from "./messages";

const link = (site: string, path: string, token: string) => `${site}${path}?token=${token}`;

/**
 * Issues tokens for `email` (the store says whether it is due an e-mail of this `kind`; null: not now, or not
 * listed) and sends the message made with them. A failed send is undone (its tokens dropped, the address due
 * again) and logged without the address. Never throws: it runs after the answer.
 */
async function issueAndSend(
  kind: "confirmation" | "removal",
  tokens: number,
  issue: (hashes: string[]) => Promise<number | null>,
  undo: (id: number, hashes: string[]) => Promise<void>,
  send: (links: string[]) => Promise<void>,
) {
  const made = Array.from({ length: tokens }, newToken);
  const hashes = made.map((t) => t.hash);
  let id: number | null = null;
  try {
    id = await issue(hashes);
    if (id === null) return log("info", `mail.${kind}_skipped`);
    await send(made.map((t) => t.token));
    log("info", `mail.${kind}_sent`);
  } catch (error) {
    log("error", `mail.${kind}_failed`, describeError(error));
    if (id !== null) {
      const issued = id;
      await undo(issued, hashes).catch((failure: unknown) =>
        log("error", "mail.unsend_failed", describeError(failure)),
      );
    }
  }
}

/**
 * Sends the confirmation e-mail to a pending address, unless one went out in the last 10 minutes (or the
 * address is confirmed, or gone).
 */
export function sendConfirmation(consent: ConsentStore, mailer: Mailer, email: string, site: string) {
  return issueAndSend(
    "confirmation",
    2,
    ([confirm = "", remove = ""]) => consent.issueConfirmation(email, confirm, remove),
    (id, hashes) => consent.unsend(id, hashes, "confirm"),
    ([confirm = "", remove = ""]) =>
      mailer.send(
        email,
        confirmationEmail({
          confirm: link(site, LINK_PATHS.confirm, confirm),
          remove: link(site, LINK_PATHS.remove, remove),
          site,
        }),
      ),
  );
}

/** Sends a removal link to a listed address (at most one per 10 minutes); silently nothing otherwise. */
export function sendRemovalLink(consent: ConsentStore, mailer: Mailer, email: string, site: string) {
  return issueAndSend(
    "removal",
    1,
    ([remove = ""]) => consent.issueRemoval(email, remove),
    (id, hashes) => consent.unsend(id, hashes, "remove"),
    ([remove = ""]) => mailer.send(email, removalEmail({ remove: link(site, LINK_PATHS.remove, remove), site })),
  );
}
