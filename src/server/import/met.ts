/**
 * The addresses an import has met, so a second row with one is refused naming the first. Held without strings,
 * for memory that does not follow the file's size in text: each address as 128 bits of its keyed hash (the
 * address_key, which the list already takes for the address itself), in typed arrays with open addressing,
 * beside the part and line that first had it. 24 to 48 bytes an address, where a Map of strings took over 100.
 */
const WORDS = 4;
const FIRST_SLOTS = 1 << 14;

export class AddressesMet {
  private slots = FIRST_SLOTS;
  private hashes = new Uint32Array(FIRST_SLOTS * WORDS);
  /** The line that first had the address; 0 marks an empty slot (a file's lines start at 1). */
  private lines = new Uint32Array(FIRST_SLOTS);
  private parts = new Uint32Array(FIRST_SLOTS);
  private count = 0;

  /**
   * The part and line that first had `key` (an address_key, base64url), or null: then this part and line are
   * kept as its first.
   */
  firstOrKeep(key: string, part: number, line: number): { part: number; line: number } | null {
    const hash = Buffer.from(key, "base64url");
    const words = [hash.readUInt32LE(0), hash.readUInt32LE(4), hash.readUInt32LE(8), hash.readUInt32LE(12)];
    const slot = this.find(words);
    if (this.lines[slot] !== 0) return { part: this.parts[slot] ?? 0, line: this.lines[slot] ?? 0 };
    this.put(slot, words, part, line);
    // Three quarters full at most: a probe stays short.
    if (++this.count * 4 > this.slots * 3) this.grow();
    return null;
  }

  /** The slot holding `words`, or the empty one where they would go. */
  private find(words: readonly number[]): number {
    const mask = this.slots - 1;
    for (let slot = (words[0] ?? 0) & mask; ; slot = (slot + 1) & mask) {
      if (this.lines[slot] === 0) return slot;
      const at = slot * WORDS;
      if (words.every((word, i) => this.hashes[at + i] === word)) return slot;
    }
  }

  private put(slot: number, words: readonly number[], part: number, line: number) {
    this.hashes.set(words, slot * WORDS);
    this.lines[slot] = line;
    this.parts[slot] = part;
  }

  private grow() {
    const { slots, hashes, lines, parts } = this;
    this.slots = slots * 2;
    this.hashes = new Uint32Array(this.slots * WORDS);
    this.lines = new Uint32Array(this.slots);
    this.parts = new Uint32Array(this.slots);
    for (let slot = 0; slot < slots; slot++) {
      const line = lines[slot] ?? 0;
      if (line === 0) continue;
      const words = Array.from(hashes.subarray(slot * WORDS, slot * WORDS + WORDS));
      this.put(this.find(words), words, parts[slot] ?? 0, line);
    }
  }
}
