/**
 * What other features may use of letting people in (the console previews, runs and continues waves, re-offers
 * their files, and sends one person's invitation again): the rest of this folder is its own.
 */

export type { WaveSlice } from "../jobs";
export { accessCode } from "./access-code";
export { inviteCsvRow } from "./delivery";
export { AVAILABLE } from "./invite-sql";
export { newInviteCode } from "./invite-store";
export { earlyAccessBase, InviteConfigError, inviteLink, statusLink } from "./links";
export { type ResendOutcome, resendInvitation } from "./resend";
export {
  continueWave,
  previewWave,
  reserveWave,
  runWave,
  type WaveOptions,
  type WaveReport,
  waveOwner,
} from "./wave";
export { IN_FLIGHT_SECONDS, releaseCancelledWave, releaseCancelledWaves } from "./wave-release";
