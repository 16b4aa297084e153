/**
 * What is kept of a receiver's answer: at most ANSWER_BYTES of its body, read no further, as text Postgres stores
 * (UTF-8 cut between characters, no U+0000). The delivery log shows it; deliver.ts records it with each attempt.
 */

export const ANSWER_BYTES = 1024;

/** Where to cut UTF-8 `bytes` to keep at most ANSWER_BYTES: at a character's first byte, never inside one. */
function cutAt(bytes: Uint8Array): number {
  if (bytes.length <= ANSWER_BYTES) return bytes.length;
  let end = ANSWER_BYTES;
  // A continuation byte (10xxxxxx) at the cut belongs to a character begun before it: that character goes too.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}

/**
 * The answer as it is stored: at most ANSWER_BYTES of UTF-8, cut between characters (cut inside one, the decoder
 * would add a U+FFFD, three bytes more), in text Postgres accepts (it refuses U+0000 in text). Cut again after
 * decoding: a receiver's bytes that are not UTF-8 become U+FFFD, three bytes each.
 */
export function storedAnswer(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = raw.subarray(0, cutAt(raw)).toString("utf8").replaceAll("\u0000", "");
  const encoded = Buffer.from(text, "utf8");
  return encoded.length <= ANSWER_BYTES ? text : encoded.subarray(0, cutAt(encoded)).toString("utf8");
}

/** At most ANSWER_BYTES of the answer's body (storedAnswer); the rest is not read. */
export async function answerOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ANSWER_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return storedAnswer(Buffer.concat(chunks));
}
