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
  /** The keys' code units, one byte each while every key's are below 256 (most files)... */
  private narrow: Uint8Array | null = new Uint8Array(4096);
  /** ... and two each from the first key that has one above (`narrow` is then null). */
  private wide: Uint16Array | null = null;
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
    // FNV-1a over the UTF-16 code units, finished with a multiply-shift so the low bits (the slot) mix well; the
    // highest code unit is noted on the way.
    let h = 0x811c9dc5;
    let high = 0;
    for (let k = 0; k < key.length; k++) {
      const c = key.charCodeAt(k);
      high |= c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    h ^= h >>> 16;
    const slots = this.slots;
    let i = h & this.mask;
    for (;;) {
      const at = slots[i * 4 + 1]!;
      if (at === 0) break;
      if (slots[i * 4] === h && this.same(key, slots[i * 4 + 2]!, slots[i * 4 + 3]!)) return at;
      i = (i + 1) & this.mask;
    }
    this.keep(key, high > 0xff);
    slots[i * 4] = h;
    slots[i * 4 + 1] = row;
    slots[i * 4 + 2] = this.used;
    slots[i * 4 + 3] = key.length;
    this.used += key.length;
    if (++this.size * 2 > this.mask + 1) this.grow();
    return undefined;
  }

  /** Copies `key`'s code units after those kept (`wide`: it has one above 255). */
  private keep(key: string, wide: boolean): void {
    const at = this.used;
    const need = at + key.length;
    if (this.narrow && (wide || need > this.narrow.length)) {
      const chars = wide
        ? new Uint16Array(room(this.narrow.length, need))
        : new Uint8Array(room(this.narrow.length, need));
      chars.set(this.narrow.subarray(0, at));
      if (wide) {
        this.wide = chars as Uint16Array;
        this.narrow = null;
      } else this.narrow = chars as Uint8Array;
    } else if (this.wide && need > this.wide.length) {
      const chars = new Uint16Array(room(this.wide.length, need));
      chars.set(this.wide.subarray(0, at));
      this.wide = chars;
    }
    const narrow = this.narrow;
    if (narrow) for (let k = 0; k < key.length; k++) narrow[at + k] = key.charCodeAt(k);
    else {
      const chars = this.wide!;
      for (let k = 0; k < key.length; k++) chars[at + k] = key.charCodeAt(k);
    }
  }

  private same(key: string, from: number, length: number): boolean {
    if (key.length !== length) return false;
    const narrow = this.narrow;
    if (narrow) {
      for (let k = 0; k < length; k++) if (narrow[from + k] !== key.charCodeAt(k)) return false;
    } else {
      const chars = this.wide!;
      for (let k = 0; k < length; k++) if (chars[from + k] !== key.charCodeAt(k)) return false;
    }
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

/** The length to grow to from `length` to hold `need`: doubled until it does. */
function room(length: number, need: number): number {
  while (length < need) length *= 2;
  return length;
}
