/**
 * A cancelled wave's people back to the line (wave.ts runs waves; this frees those a cancelled one holds).
 */
import type { Store } from "../store/types";

/**
 * The longest an invitation's last bytes wait for the SMTP server's answer (the mailer's 20 s socket timeout), with
 * room to spare: someone whose e-mail ended longer ago than this is not being mailed by any live run.
 */
export const IN_FLIGHT_SECONDS = 120;

/**
 * Cancelling wave `wave` (its lease already cancelled: no run takes it, and a live one stops before its next
 * e-mail) lets everyone it holds go back to the line at once, whatever became of its run: they are invitable again
 * by any wave, the CLI or "Invite now". `runAlive`: its run may still be sending (its owner was live when it was
 * cancelled); then the one person whose e-mail is ending right now stays with it, to be invited if their server
 * accepts it, and the run lets them go otherwise (the scheduler does, should that run die: releaseCancelledWaves).
 */
export async function releaseCancelledWave(store: Store, wave: number, runAlive: boolean): Promise<number> {
  return store.invites.releaseCancelled(wave, runAlive ? IN_FLIGHT_SECONDS : 0);
}

/** The scheduler's sweep: whoever a cancelled wave still holds, no e-mail to them in flight, goes back to the line. */
export const releaseCancelledWaves = (store: Store) => store.invites.releaseCancelled(null, IN_FLIGHT_SECONDS);
