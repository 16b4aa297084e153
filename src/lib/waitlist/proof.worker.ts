/**
 * Solves the server's proof-of-work challenge (ALTCHA) off the main thread. Loaded only when the server asks
 * for it (past a network's free allowance): ordinary visitors never download it.
 */
import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";

self.onmessage = async (event: MessageEvent<Challenge>) => {
  const solution = await solveChallenge({ challenge: event.data, deriveKey, timeout: 60_000 });
  self.postMessage(solution);
};
