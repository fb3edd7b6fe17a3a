/**
 * The row each key was first seen on, for the duplicate checks inside an import's file (100,000 rows, two keys each).
 * A `Map<string, number>` cost a tenth of a whole walk of the file: each key is a new string, hashed and compared
 * in a table of scattered entries that grows by copying itself. Here the keys' hashes and first rows sit side by
 * side in one typed array (open addressing, linear probing, sized for the file), and a key's text is compared only
 * when its hash matches.
 */
export class FirstSeen {
  /** Per slot: the key's hash, then its row (0: empty; rows start at 1). */
  private slots: Int32Array;
  private keys: string[];
  private mask: number;
  private size = 0;

  /** `expected`: about how many keys there will be (the table grows past half full either way). */
  constructor(expected = 1024) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * 2);
    this.keys = new Array<string>(capacity);
  }

  /** The row `key` was first seen on; otherwise records `row` as its first and answers `undefined`. */
  firstOr(key: string, row: number): number | undefined {
    if (row < 1) throw new RangeError('rows start at 1');
    const h = hash(key);
    let i = h & this.mask;
    for (;;) {
      const at = this.slots[i * 2 + 1]!;
      if (at === 0) break;
      if (this.slots[i * 2] === h && this.keys[i] === key) return at;
      i = (i + 1) & this.mask;
    }
    this.slots[i * 2] = h;
    this.slots[i * 2 + 1] = row;
    this.keys[i] = key;
    if (++this.size * 2 > this.mask + 1) this.grow();
    return undefined;
  }

  private grow(): void {
    const { slots, keys } = this;
    const capacity = (this.mask + 1) * 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * 2);
    this.keys = new Array<string>(capacity);
    for (let j = 0; j < keys.length; j++) {
      const row = slots[j * 2 + 1]!;
      if (row === 0) continue;
      const h = slots[j * 2]!;
      let i = h & this.mask;
      while (this.slots[i * 2 + 1] !== 0) i = (i + 1) & this.mask;
      this.slots[i * 2] = h;
      this.slots[i * 2 + 1] = row;
      this.keys[i] = keys[j]!;
    }
  }
}

/** FNV-1a over the UTF-16 code units, finished with a multiply-shift so the low bits (the slot) mix well. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}
