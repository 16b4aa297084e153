/**
 * The sign-up's last steps, store → answer: its keys, its referral, the row added (counted against its network's
 * allowance in the same statement, unless a proof of work lets it past), then the confirmation mailed after the
 * answer, or, past the allowance, a proof of work asked (the dialog) or a time to come back (a form post).
 */
import type { Context } from "@netlify/functions";
import { PROOF_FIELD } from "../../lib/waitlist/rules";
import type { ServerConfig } from "../config";
import { databaseKey, rootKey } from "../crypto/keys";
import type { RootKey } from "../crypto/secret";
import type { ServerDeps } from "../deps";
import type { WaitlistEntry } from "../entry";
import { siteOrigin } from "../http/origin";
import { clientKey, comeBackLater, rateWindow } from "../http/rate-limit";
import { afterAnswer, json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { addressKey, countedMailboxKey, storedMailboxKey } from "../mail/mailbox";
import type { Mailer } from "../mail/mailer";
import { sendConfirmation } from "../mail/send";
import { referralOf } from "../referrals";
import type { Store } from "../store/types";
import { createProofChallenge, verifyProof } from "./proof-of-work";
import { AGAIN, type Reply } from "./reply";
import { referralCodeOfRequest } from "./request";

/** A valid sign-up on its way to the store, and what its answer needs. */
export interface Signup {
  req: Request;
  context: Context;
  config: ServerConfig;
  fields: Record<string, unknown>;
  entry: WaitlistEntry;
  /** The confirmation's mailer; null: confirmation by e-mail is off, and the sign-up is confirmed at once. */
  mailer: Mailer | null;
  reply: Reply;
}

/** Stores the sign-up and answers it; a store that fails or is too slow is a 503 with the form kept. */
export async function addSignup(signup: Signup, deps: ServerDeps): Promise<Response> {
  const { config, context, req, mailer, reply, fields } = signup;
  try {
    // Where the confirmation's links lead, known before anything is stored (an unknown address is a 503).
    const site = mailer ? siteOrigin(config, context, req) : "";
    // Opening the store is not timed: locally, a new embedded database runs initdb (seconds) once.
    const store = await deps.store();
    // The server's secret (SERVER_SECRET, else the database's): read once per store, then at hand.
    const root = await withTimeout(rootKey(config, store), config.dbTimeoutMs);
    // A solved proof-of-work, issued for this address, lets a sign-up past its network's free allowance.
    const proven = fields[PROOF_FIELD] !== undefined;
    if (proven && !(await verifyProof(fields[PROOF_FIELD], signup.entry.email, root))) {
      return reply.refused(fields, {
        status: 400,
        title: AGAIN,
        message: "The anti-spam check did not pass. Please try again.",
      });
    }
    await keyEntry(signup, store);
    const outcome = await withTimeout(addRow(signup, store, root, proven), config.dbTimeoutMs);
    if (!outcome.allowed) return overAllowance(signup, outcome.retryAfter, root);
    log("info", "waitlist.signup", { added: outcome.added, proven, db: store.db.kind });
    // A pending address (new, or repeated) is mailed after the answer; a confirmed one never is.
    if (mailer) {
      const to = { email: signup.entry.email, site, mailboxKey: countedMailboxKey(root, signup.entry.email) };
      afterAnswer(context, sendConfirmation(store.consent, mailer, to));
    }
    return reply.accepted();
  } catch (error) {
    log("error", "waitlist.store_failed", describeError(error));
    return reply.refused(fields, {
      status: 503,
      title: AGAIN,
      message: "The waitlist is unavailable right now. Please try again.",
    });
  }
}

/**
 * The row's keys and referral. The mailbox (for referrals: one mailbox counts once) and the exact address (as the
 * suppression list keys it, migration 0021) are kept on the row, so keyed by the database's own secret (never
 * SERVER_SECRET, which may change or differ between processes): every row's key stays comparable with every other's.
 */
async function keyEntry({ entry, req, fields, config, context }: Signup, store: Store): Promise<void> {
  const database = await withTimeout(databaseKey(store), config.dbTimeoutMs);
  entry.mailboxKey = storedMailboxKey(database, entry.email);
  entry.addressKey = addressKey(database, entry.email);
  const code = referralCodeOfRequest(req, fields, config, context);
  // A share code is never a reason to refuse a sign-up: if its lookup fails, the sign-up goes on without it.
  entry.referral = await withTimeout(referralOf(store.referrals, code, entry.email), config.dbTimeoutMs).catch(
    (error: unknown) => {
      log("warn", "waitlist.referral_lookup_failed", describeError(error));
      return undefined;
    },
  );
}

/** The row added: counted against the network's allowance in the same statement, or past it with a proof. */
async function addRow({ entry, config, context, mailer }: Signup, store: Store, root: RootKey, proven: boolean) {
  // With confirmation by e-mail, a new address waits as pending until its link is used.
  const status = mailer ? "pending" : "confirmed";
  if (proven) return { added: await store.add(entry, status), allowed: true, retryAfter: 0 };
  return await store.hitAndAdd(
    clientKey(context.ip ?? "", root),
    rateWindow(config),
    config.rateLimitMax,
    entry,
    status,
  );
}

/**
 * Past the free allowance: the dialog is asked to prove it is a browser (a moment of work); the form without
 * JavaScript is told when to come back.
 */
async function overAllowance({ reply, fields, entry }: Signup, retryAfter: number, root: RootKey) {
  log("warn", "waitlist.allowance_exceeded", { form: reply.form });
  const { message, headers } = comeBackLater(retryAfter, "Many people have signed up");
  if (reply.form) return reply.refused(fields, { status: 429, title: AGAIN, message, headers });
  const challenge = await createProofChallenge(entry.email, root);
  return json(429, { error: "Please confirm you are not a robot.", challenge }, headers);
}
