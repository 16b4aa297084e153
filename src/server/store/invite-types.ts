/** The Store's part for invitations: waves and the redemption of their codes (the contract). */

// Waves and redemption (src/server/invitations/invite-store.ts implements them).

export interface WavePreview {
  /** How many the wave would take (at most the number asked for). */
  count: number;
  /** The first and last sign-up times among them (ISO), null when there is nobody. */
  first: string | null;
  last: string | null;
  /** Every confirmed person no wave holds. */
  available: number;
  /** How many of them sign-up order alone would not have taken: moved up by referrals (REFERRAL_PLACES > 0). */
  movedUp: number;
}

export interface WaveMember {
  id: number;
  email: string;
  name: string | null;
  /** Their e-mail was handed to the SMTP server by a wave that never heard the answer. */
  attempted: boolean;
  /** They confirmed their address by its link; someone stored while e-mail was off never did. */
  confirmedByLink: boolean;
}

export interface UnfinishedWave {
  id: number;
  owner: string;
  /** No sign of life for longer than the staleness limit. */
  stale: boolean;
  remaining: number;
}

/** What redeeming a code did: the person joined now, the code was used, it expired, or it never was. */
export type RedeemOutcome =
  | { outcome: "joined"; email: string; name: string | null }
  | { outcome: "used" | "expired" | "unknown" };

export interface InviteStore {
  /** The next `next` in line (store/line.ts, each counted referral moving its referrer `places` forward). */
  preview(next: number, places: number): Promise<WavePreview>;
  /** A new wave of `size` run by `owner`; resolves to its id. */
  startWave(owner: string, size: number): Promise<number>;
  /** Reserves up to `count` more of the next people in line for the wave; resolves to how many it got. */
  reserve(wave: number, count: number, places: number): Promise<number>;
  /** Reserves exactly people `ids` (those still confirmed and in no wave) for the wave: the console's "invite now". */
  reserveIds(wave: number, ids: number[]): Promise<number>;
  members(wave: number): Promise<WaveMember[]>;
  unfinished(staleSeconds: number): Promise<UnfinishedWave[]>;
  prepare(
    wave: number,
    id: number,
    codeHash: string,
    ttlDays: number,
    leaveHash: string | null,
    statusHash?: string | null,
  ): Promise<boolean>;
  /** Notes that person `id`'s e-mail is about to end; false when the wave no longer holds them (they left). */
  attempted(wave: number, id: number): Promise<boolean>;
  sent(wave: number, id: number): Promise<boolean>;
  sentAll(wave: number, ids: number[], codeHashes: string[], ttlDays: number): Promise<number>;
  /** Person `id`'s e-mail did not go: they stay confirmed, and the links made for it (`linkHashes`) are dropped. */
  release(wave: number, id: number, linkHashes: string[]): Promise<void>;
  finish(wave: number): Promise<void>;
  /**
   * Lets everyone a cancelled wave (`wave`; null: every cancelled wave) still holds go back to the line, but for one
   * whose e-mail ended under `inFlightSeconds` ago (a live run settles it); resolves to how many went back.
   */
  releaseCancelled(wave: number | null, inFlightSeconds: number): Promise<number>;
  redeem(codeHash: string): Promise<RedeemOutcome>;
  /** Person `person` redeems by their status page's derived code, when `isTheirs` holds for their invitation's end. */
  redeemAccess(person: number, isTheirs: (expiresAt: Date) => boolean): Promise<RedeemOutcome>;
}
