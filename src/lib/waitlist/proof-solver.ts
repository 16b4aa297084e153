/**
 * Solves the server's proof-of-work challenge (ALTCHA) with the browser's Web Crypto; proof.worker.ts runs it
 * off the main thread.
 *
 * Each try is one PBKDF2 call to Web Crypto, which computes it off the calling thread and answers through a
 * promise: one try at a time leaves the caller waiting on each answer. So several searches run side by side,
 * each over its own share of the counters (start i, step `searches`: altcha-lib's own way of splitting the work
 * between workers), and the first to find the answer stops the others. Same tries, same answer; in Chromium
 * here a challenge took about half the time and a quarter less CPU than with one search.
 */
import { type Challenge, type Solution, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";

const SEARCHES = 8;
const TIMEOUT_MS = 60_000;

/** The solution, or null when none was found within the timeout. */
export async function solveProof(challenge: Challenge, searches = SEARCHES): Promise<Solution | null> {
  const controller = new AbortController();
  const found = await Promise.all(
    Array.from({ length: searches }, async (_, start) => {
      const solution = await solveChallenge({
        challenge,
        deriveKey,
        controller,
        counterStart: start,
        counterStep: searches,
        timeout: TIMEOUT_MS,
      });
      if (solution) controller.abort();
      return solution;
    }),
  );
  return found.find((solution) => solution !== null) ?? null;
}
