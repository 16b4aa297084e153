/**
 * Invitations in waves: the N oldest confirmed sign-ups get a single-use invite code each, by e-mail (or, with
 * mail off, in a CSV for the team's own mail tool). One core for every way a wave is run (the CLI's
 * `invite`, the console), so its guarantees hold everywhere:
 * - never twice: a wave reserves its people first (SKIP LOCKED), so two waves at the same moment take different
 *   people; and a person is mailed once, since the attempt is written down just before the message's last bytes
 *   (and with them its end) go to the server;
 * - never lost: a person is marked invited only once the SMTP server accepted their e-mail; a refusal leaves
 *   them confirmed, free for a later wave;
 * - a wave whose process died (its owner is gone, or it stopped beating) is completed by the next run, which
 *   mails whoever was not reached and does not mail again anyone whose e-mail was already on its way.
 */
import { hostname } from "node:os";
import { LINK_PATHS } from "../lib/waitlist/consent";
import { newToken } from "./consent-store";
import { csvRow } from "./csv";
import { newInviteCode } from "./invite-store";
import type { Mailer } from "./mail/mailer";
import { invitationEmail } from "./mail/messages";
import type { Store } from "./store";

/** A live wave beats before every e-mail (each bounded by the mailer's 10–20 s timeouts): five minutes of silence is death. */
export const WAVE_STALE_SECONDS = 300;

export class InviteConfigError extends Error {
  override name = "InviteConfigError";
}

/** EARLY_ACCESS_URL as a URL, or why it cannot be used (one line, for people). */
export function earlyAccessBase(value: string | null): URL {
  if (!value) {
    throw new InviteConfigError(
      "EARLY_ACCESS_URL is not set: set it to the product's sign-up page (e.g. https://app.noosphere.app/signup); nothing was changed.",
    );
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new InviteConfigError(`EARLY_ACCESS_URL must be an http(s) address, not "${value}"; nothing was changed.`);
  }
  return url;
}

/** The product's sign-up page with `invite=<code>` added to its own query string. */
export function inviteLink(base: URL, code: string): string {
  const url = new URL(base);
  url.searchParams.set("invite", code);
  return url.href;
}

/** Who runs a wave: this host and process, so a later run on the same host can tell a dead owner at once. */
export const waveOwner = (role = "cli") => `${role}@${hostname()}:${process.pid}`;

function ownerIsDead(owner: string, stale: boolean): boolean {
  if (stale) return true;
  const match = /@(.+):(\d+)$/.exec(owner);
  if (!match || match[1] !== hostname()) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * How a wave reaches people: by e-mail, or (mail off) as CSV rows `email,name,invite_url` written for the team,
 * the people marked invited once the rows are written.
 */
export type Delivery = { kind: "mail"; mailer: Mailer } | { kind: "csv"; write: (text: string) => Promise<void> };

export interface WaveOptions {
  store: Store;
  /** How many to invite (a new wave's size). */
  next: number;
  delivery: Delivery;
  /** The product's sign-up page (earlyAccessBase). */
  accessUrl: URL;
  /** The site's origin, for the leave link. */
  siteUrl: string;
  ttlDays: number;
  owner?: string;
}

export interface WaveReport {
  /** True when this run completed waves that died, and started none. */
  resumed: boolean;
  /** People marked invited now (their e-mail accepted, or their CSV row written). */
  invited: number;
  /** People whose e-mail the SMTP server refused: still confirmed. */
  refused: number;
  /** People of a dead wave whose e-mail had gone to the SMTP server with no answer heard: marked invited, not mailed again. */
  inDoubt: number;
  /** Why the wave stopped early (the SMTP server unreachable, say); null when it went through. */
  stopped: string | null;
}

/** Refused for this recipient (a 4xx/5xx answer to the envelope or message), as opposed to no server to talk to. */
function isRefusal(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return typeof responseCode === "number" && responseCode >= 400 && code !== "ECONNECTION" && code !== "EAUTH";
}

/** What went wrong, for people: the class and SMTP answer, never an address. */
function reason(error: unknown): string {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return [error instanceof Error ? error.name : "Error", code, responseCode].filter(Boolean).join(" ");
}

async function sendWave(wave: number, options: WaveOptions, report: WaveReport): Promise<void> {
  const { store, delivery, accessUrl, siteUrl, ttlDays } = options;
  const members = await store.invites.members(wave);
  const fresh = [];
  for (const person of members) {
    if (person.attempted) {
      // Handed to the SMTP server by a wave that died before it heard back: most likely delivered, and its code
      // stored, so the person is invited rather than written to twice.
      if (await store.invites.sent(wave, person.id)) report.inDoubt++;
    } else fresh.push(person);
  }
  if (delivery.kind === "csv") {
    const codes = fresh.map(() => newInviteCode());
    const rows = fresh.map((p, i) => [p.email, p.name, inviteLink(accessUrl, codes[i]?.code ?? "")]);
    await delivery.write(rows.map((row) => csvRow(row)).join(""));
    const hashes = codes.map((c) => c.hash);
    report.invited += await store.invites.sentAll(
      wave,
      fresh.map((p) => p.id),
      hashes,
      ttlDays,
    );
    return;
  }
  for (const person of fresh) {
    const { code, hash } = newInviteCode();
    const leave = newToken();
    if (!(await store.invites.prepare(wave, person.id, hash, ttlDays, leave.hash))) continue;
    try {
      await delivery.mailer.send(
        person.email,
        invitationEmail({
          access: inviteLink(accessUrl, code),
          remove: `${siteUrl}${LINK_PATHS.remove}?token=${leave.token}`,
          site: siteUrl,
          ttlDays,
        }),
        // Noted just before the message's last bytes go: only a wave that dies between then and the server's
        // answer leaves a person in doubt (counted as invited, never mailed twice).
        { beforeCommit: () => store.invites.attempted(wave, person.id) },
      );
    } catch (error) {
      await store.invites.release(wave, person.id, leave.hash);
      if (isRefusal(error)) {
        report.refused++;
        continue;
      }
      report.stopped = reason(error);
      return;
    }
    if (await store.invites.sent(wave, person.id)) report.invited++;
  }
}

/**
 * Runs a wave: completes waves whose process died, if there are any (and then starts none, so running a killed
 * wave's command again does not invite anyone beyond it); otherwise reserves the `next` oldest confirmed people
 * and invites them.
 */
export async function runWave(options: WaveOptions): Promise<WaveReport> {
  const { store } = options;
  const owner = options.owner ?? waveOwner();
  const report: WaveReport = { resumed: false, invited: 0, refused: 0, inDoubt: 0, stopped: null };
  for (const wave of await store.invites.unfinished(WAVE_STALE_SECONDS)) {
    if (wave.owner === owner || !ownerIsDead(wave.owner, wave.stale)) continue;
    if (!(await store.invites.takeOver(wave.id, wave.owner, owner))) continue;
    report.resumed = true;
    await sendWave(wave.id, options, report);
    await store.invites.finish(wave.id);
    if (report.stopped) return report;
  }
  if (report.resumed) return report;

  const wave = await store.invites.startWave(owner, options.next);
  let reserved = 0;
  while (reserved < options.next) {
    const got = await store.invites.reserve(wave, options.next - reserved);
    if (got === 0) break;
    reserved += got;
  }
  // A database failure from here on leaves the wave unfinished, for the next run to complete.
  await sendWave(wave, options, report);
  await store.invites.finish(wave);
  return report;
}

/** What the next wave of `next` would do, changing nothing: how many, from which sign-up days, and any wave to complete. */
export async function previewWave(store: Store, next: number) {
  const preview = await store.invites.preview(next);
  const interrupted = (await store.invites.unfinished(WAVE_STALE_SECONDS)).filter((w) => w.remaining > 0);
  return { ...preview, interrupted: interrupted.reduce((sum, w) => sum + w.remaining, 0) };
}
