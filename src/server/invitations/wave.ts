/**
 * Invitations in waves: the first N in the line (store/line.ts: sign-up order, moved by counted referrals when
 * REFERRAL_PLACES says so) get a single-use invite code each, by e-mail (or, with mail off, in a CSV for the
 * team's own mail tool). One core for every way a wave is run (the CLI's `invite`, the console), so its
 * guarantees hold everywhere:
 * - never twice in a row: a wave reserves its people first (SKIP LOCKED), so two waves at the same moment take
 *   different people;
 * - never lost: a person is marked invited only once an SMTP server accepted their e-mail (its answer to the
 *   final "." read); a refusal leaves them confirmed, free for a later wave;
 * - a wave whose process died (its owner is gone, or it stopped beating) is completed by the next run, which
 *   mails everyone it still holds, even someone whose e-mail was on its way when it died: a second e-mail in that
 *   narrow window is the price of never leaving a person marked invited whom no server ever accepted a message
 *   for (the earlier rule, "on its way counts as invited", did exactly that when the process died before the end);
 * - a person who leaves while a wave holds them is not mailed afterwards: their row is gone, so they are skipped,
 *   and an e-mail already under way is abandoned before its last bytes (the wave goes on with the others);
 * - a run given a slice (a background run's 13 minutes; a console request's 15 s for a file) sends until it is
 *   spent, then pauses its wave: the wave keeps its people, so no other wave takes them, and is owned by nobody,
 *   so the next request continues it (continueWave), or any later run completes it as it would a dead one.
 */
import {
  type Budget,
  beatJob,
  budgetOf,
  JOB_STALE_SECONDS,
  type JobSlice,
  keepAlive,
  releaseJob,
  runOwner,
  spent,
  takeJob,
} from "../jobs";
import type { Store, WaveMember } from "../store/types";
import { type Delivery, inviteCsvRow } from "./delivery";
import { newInviteCode } from "./invite-store";
import { inviteLink } from "./links";
import { mailInvitation } from "./wave-mail";

/** A live wave beats before every e-mail; its silence is judged by the one rule of every long job (jobs/lease.ts). */
export const WAVE_STALE_SECONDS = JOB_STALE_SECONDS;

/** Who runs a wave: this host and process (jobs/owner.ts). */
export const waveOwner = runOwner;

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
  /** A new wave already made for this run (by the console's one-time ticket, wave-record.ts), owned by `owner`. */
  wave?: number;
  /** How much one run may do before it stops and releases its wave (none: it goes to the end, as the CLI does). */
  slice?: JobSlice;
  /** REFERRAL_PLACES: how the line is ordered (store/line.ts); 0 (the default): sign-up order. */
  referralPlaces?: number;
  /** These people, not the next in line (the console's "invite now" on a person's page). */
  people?: number[];
  /** Told after each person is dealt with by e-mail: how many of the wave's held people so far, of how many. */
  onProgress?: (dealt: number, total: number) => void;
}

export interface WaveReport {
  /** True when this run completed waves that died, and started none. */
  resumed: boolean;
  /** People marked invited now (their e-mail accepted, or their CSV row written). */
  invited: number;
  /** People whose e-mail the SMTP server refused: still confirmed. */
  refused: number;
  /** Why the wave stopped early (the SMTP server unreachable, say); null when it went through. */
  stopped: string | null;
  /** The wave this run paused when its slice was spent, and how many people it still holds; null: none paused. */
  paused: { wave: number; remaining: number } | null;
}

/**
 * Sends wave `wave` to the people it holds, within `budget`: resolves to how many it still holds unsent when the
 * budget ran out (0: everyone was dealt with, or the SMTP server could not be used: see report.stopped).
 */
async function sendWave(wave: number, options: WaveOptions, owner: string, report: WaveReport, budget: Budget | null) {
  const { store, delivery } = options;
  // Everyone the wave still holds, even those whose e-mail a dead run had under way: only a server's acceptance,
  // heard, makes a person invited (see the top of this file).
  const fresh = await store.invites.members(wave);
  if (delivery.kind === "csv") return writeWave(wave, fresh, options, delivery, report, budget);
  for (const [index, person] of fresh.entries()) {
    if (spent(budget)) return fresh.length - index;
    // Paused or cancelled meanwhile (or taken over): the run stops before the next e-mail, the rest held.
    if (!(await beatJob(store.db, "wave", wave, owner))) return fresh.length - index;
    if (budget) budget.dealt++;
    const mailed = await mailInvitation(wave, person, delivery.mailer, options);
    if (mailed === "skipped") continue;
    if (typeof mailed === "object") {
      report.stopped = mailed.stopped;
      return 0;
    }
    if (mailed === "refused") report.refused++;
    else if (await store.invites.sent(wave, person.id)) report.invited++;
    options.onProgress?.(index + 1, fresh.length);
  }
  return 0;
}

/** With mail off: the held people's rows written for the team's file, and marked invited. How many are left. */
async function writeWave(
  wave: number,
  fresh: readonly WaveMember[],
  options: WaveOptions,
  delivery: Extract<Delivery, { kind: "csv" }>,
  report: WaveReport,
  budget: Budget | null,
) {
  // No SMTP server to wait for: the slice bounds how many rows one answer carries, not the time.
  const now = budget ? fresh.slice(0, Math.max(1, budget.people - budget.dealt)) : fresh;
  if (budget) budget.dealt += now.length;
  const codes = now.map(() => newInviteCode());
  await delivery.write(
    now.map((p, i) => inviteCsvRow(p.email, p.name, inviteLink(options.accessUrl, codes[i]?.code ?? ""))).join(""),
    now.map((p) => p.id),
  );
  const [ids, hashes] = [now.map((p) => p.id), codes.map((c) => c.hash)];
  report.invited += await options.store.invites.sentAll(wave, ids, hashes, options.ttlDays);
  return fresh.length - now.length;
}

/**
 * One run's share of wave `wave`: sent within the budget, then the wave is finished (everyone dealt with, or the
 * SMTP server could not be used: whoever was not mailed goes back to the confirmed list) or, the budget spent,
 * paused. Resolves to whether the run may go on to another wave.
 */
async function sendSlice(
  wave: number,
  options: WaveOptions,
  owner: string,
  budget: Budget | null,
  report: WaveReport,
): Promise<boolean> {
  // Beats while an e-mail waits on its server, so a slow one never makes a live run look dead.
  const stopBeating = keepAlive(options.store.db, "wave", wave, owner);
  const remaining = await sendWave(wave, options, owner, report, budget).finally(stopBeating);
  if (remaining > 0) {
    await releaseJob(options.store.db, "wave", wave, owner, false);
    report.paused = { wave, remaining };
    return false;
  }
  await options.store.invites.finish(wave);
  return report.stopped === null;
}

const blank = (): WaveReport => ({ resumed: false, invited: 0, refused: 0, stopped: null, paused: null });

/**
 * Runs a wave: completes waves whose process died or that were paused, if there are any (and then starts none, so
 * running a killed wave's command again does not invite anyone beyond it); otherwise reserves the `next` first
 * in the line (store/line.ts) and invites them. With a slice, it pauses the wave it is sending once the slice is spent.
 */
export async function runWave(options: WaveOptions): Promise<WaveReport> {
  const { store } = options;
  const owner = options.owner ?? waveOwner();
  const budget = budgetOf(options.slice);
  const report = blank();
  // A wave of chosen people (the console's "invite now") completes nobody else's: it must end within its request.
  for (const wave of options.people ? [] : await store.invites.unfinished(WAVE_STALE_SECONDS)) {
    if (wave.owner === owner || spent(budget)) continue;
    if (!(await takeJob(store.db, "wave", wave.id, owner))) continue;
    report.resumed = true;
    if (!(await sendSlice(wave.id, options, owner, budget, report))) return report;
  }
  if (report.resumed) {
    // The run's own wave (claimed by the console's ticket) took nobody: it ends empty, for nobody to wait on.
    if (options.wave !== undefined) await store.invites.finish(options.wave);
    return report;
  }

  const wave = options.wave ?? (await store.invites.startWave(owner, options.next));
  if (options.people) await store.invites.reserveIds(wave, options.people);
  else await reserveWave(store, wave, options.next, options.referralPlaces ?? 0);
  // A database failure from here on leaves the wave unfinished, for the next run to complete.
  await sendSlice(wave, options, owner, budget, report);
  return report;
}

/**
 * Reserves the `next` people in line (store/line.ts, REFERRAL_PLACES `places`) for wave `wave`, which its caller
 * made: how many it now holds (fewer when fewer are waiting). The console reserves a wave this way, then leaves its
 * sending to a background run (continueWave).
 */
export async function reserveWave(store: Store, wave: number, next: number, places: number): Promise<number> {
  let reserved = 0;
  while (reserved < next) {
    const got = await store.invites.reserve(wave, next - reserved, places);
    if (got === 0) break;
    reserved += got;
  }
  return reserved;
}

/**
 * Goes on with wave `wave`, which an earlier run paused (the console's "Continue"), within the slice: null when it
 * is not paused (complete, or taken over by another run a moment ago), and then nothing is sent.
 */
export async function continueWave(options: Omit<WaveOptions, "next">, wave: number): Promise<WaveReport | null> {
  const owner = options.owner ?? waveOwner();
  if (!(await takeJob(options.store.db, "wave", wave, owner))) return null;
  const report = blank();
  await sendSlice(wave, { ...options, next: 0 }, owner, budgetOf(options.slice), report);
  return report;
}

/** What the next wave of `next` would do, changing nothing: how many, from which sign-up days, and any wave to complete. */
export async function previewWave(store: Store, next: number, referralPlaces = 0) {
  const preview = await store.invites.preview(next, referralPlaces);
  const interrupted = (await store.invites.unfinished(WAVE_STALE_SECONDS)).filter((w) => w.remaining > 0);
  return { ...preview, interrupted: interrupted.reduce((sum, w) => sum + w.remaining, 0) };
}
