/** The dialog's proof-of-work solver (src/lib/waitlist/proof-solver.ts) on Node's Web Crypto, against the server's own challenges. */
import { describe, expect, it } from "vitest";
import { encodeProof } from "../../src/lib/waitlist/client";
import { solveProof } from "../../src/lib/waitlist/proof-solver";
import type { RootKey } from "../../src/server/crypto/secret";
import { createProofChallenge, verifyProof } from "../../src/server/signup/proof-of-work";

const root = Buffer.from("proof-solver-test-secret") as RootKey;

describe("the proof-of-work solver", () => {
  it.each([1, 3, 8])("finds the answer the server accepts with %i search(es) side by side", async (searches) => {
    const challenge = await createProofChallenge("solver@example.com", root);
    const solution = await solveProof(challenge, searches);
    expect(solution).not.toBeNull();
    if (!solution) return;
    const proof = encodeProof(challenge, solution);
    expect(await verifyProof(proof, "solver@example.com", root)).toBe(true);
    // Bound to the address it was issued for.
    expect(await verifyProof(proof, "someone.else@example.com", root)).toBe(false);
  });

  it("finds the same counter however the search is split", async () => {
    const challenge = await createProofChallenge("split@example.com", root);
    const [one, eight] = await Promise.all([solveProof(challenge, 1), solveProof(challenge, 8)]);
    expect(eight?.counter).toBe(one?.counter);
  });
});
