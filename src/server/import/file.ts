/** The file an import reads: its SHA-256 (the import's identity) and its parts (each CSV of a ZIP, or the one CSV). */
import { createHash } from "node:crypto";
import type { ImportFile } from "./types";
import { csvMembers, isZip } from "./zip";

export async function sha256(file: ImportFile): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of file.open()) hash.update(chunk);
  return hash.digest("hex");
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/** The file as its parts: each CSV of a ZIP (held in memory), or the one CSV, streamed. */
export async function partsOf(
  file: ImportFile,
): Promise<Array<{ name: string; chunks: () => AsyncIterable<Uint8Array> }>> {
  const chunks: Uint8Array[] = [];
  let zip: boolean | undefined;
  for await (const chunk of file.open()) {
    zip ??= isZip(chunk);
    if (!zip) break;
    chunks.push(chunk);
  }
  if (!zip) return [{ name: file.name, chunks: file.open }];
  return csvMembers(Buffer.concat(chunks)).map((member) => ({ name: member.name, chunks: () => once(member.bytes) }));
}
