/**
 * The row each key was first seen on, for the duplicate checks inside an import's file (100,000 rows, two keys each).
 * A `Map<string, number>` cost a tenth of a whole walk of the file: each key is a new string, hashed and compared
 * in a table of scattered entries that grows by copying itself. Here the keys' hashes and first rows sit side by
 * side in one typed array (open addressing, linear probing, sized for the file), and a key's text is compared only
 * when its hash matches. The keys' characters are copied into one array of code units, not kept as strings:
 * a key cut out of a line of the file keeps that line's text alive as long as the key (docs/performance.md, "Plain
 * CSV lines"), and 200,000 strings would sit in the old generation for every collection to go through.
 */
export class FirstSeen {
  /** Per slot: the key's hash, its row (0: empty; rows start at 1), where its text starts in `chars`, its length. */
  private slots: Int32Array;
  /** One byte a code unit while every key's are below 256 (most files), two from the first key that has one above. */
  private chars: Uint8Array | Uint16Array = new Uint8Array(4096);
  private used = 0;
  private mask: number;
  private size = 0;

  /** `expected`: about how many keys there will be (the table grows past half full either way). */
  constructor(expected = 1024) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * 4);
  }

  /** The row `key` was first seen on; otherwise records `row` as its first and answers `undefined`. */
  firstOr(key: string, row: number): number | undefined {
    if (row < 1) throw new RangeError('rows start at 1');
    const h = hash(key);
    const slots = this.slots;
    let i = h & this.mask;
    for (;;) {
      const at = slots[i * 4 + 1]!;
      if (at === 0) break;
      if (slots[i * 4] === h && this.same(key, slots[i * 4 + 2]!, slots[i * 4 + 3]!)) return at;
      i = (i + 1) & this.mask;
    }
    let wide = this.chars instanceof Uint16Array;
    if (!wide) for (let k = 0; k < key.length && !wide; k++) wide = key.charCodeAt(k) > 0xff;
    if (this.used + key.length > this.chars.length || wide !== this.chars instanceof Uint16Array) {
      let length = this.chars.length;
      while (this.used + key.length > length) length *= 2;
      const chars = wide ? new Uint16Array(length) : new Uint8Array(length);
      chars.set(this.chars.subarray(0, this.used));
      this.chars = chars;
    }
    const chars = this.chars;
    for (let k = 0; k < key.length; k++) chars[this.used + k] = key.charCodeAt(k);
    slots[i * 4] = h;
    slots[i * 4 + 1] = row;
    slots[i * 4 + 2] = this.used;
    slots[i * 4 + 3] = key.length;
    this.used += key.length;
    if (++this.size * 2 > this.mask + 1) this.grow();
    return undefined;
  }

  private same(key: string, from: number, length: number): boolean {
    if (key.length !== length) return false;
    const chars = this.chars;
    for (let k = 0; k < length; k++) if (chars[from + k] !== key.charCodeAt(k)) return false;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    this.mask = capacity - 1;
    const slots = new Int32Array(capacity * 4);
    for (let j = 0; j < old.length; j += 4) {
      if (old[j + 1] === 0) continue;
      let i = old[j]! & this.mask;
      while (slots[i * 4 + 1] !== 0) i = (i + 1) & this.mask;
      for (let k = 0; k < 4; k++) slots[i * 4 + k] = old[j + k]!;
    }
    this.slots = slots;
  }
}

/** FNV-1a over the UTF-16 code units, finished with a multiply-shift so the low bits (the slot) mix well. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}
