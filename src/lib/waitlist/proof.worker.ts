/**
 * Solves the server's proof-of-work challenge off the main thread (proof-solver.ts). Loaded only when the
 * server asks for it (past a network's free allowance): ordinary visitors never download it.
 */
import type { Challenge } from "altcha-lib";
import { solveProof } from "./proof-solver";

self.onmessage = async (event: MessageEvent<Challenge>) => {
  self.postMessage(await solveProof(event.data));
};
