/**
 * Identifiers: a type prefix, then 10 characters of millisecond time, 3 of a per-millisecond sequence and 13 of
 * fresh randomness (65 bits) for every id, in Crockford base32. They sort by creation time, so keyset pagination
 * can order by id alone, and no id can be guessed from another: ids made in the same millisecond differ in their
 * random part, not by one (docs/api.md, "Identifiers").
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const MAX_SEQ = 32 ** 3 - 1;

export type IdPrefix =
  | 'wha'
  | 'ten'
  | 'key'
  | 'lrn'
  | 'aud'
  | 'evt'
  | 'prg'
  | 'enr'
  | 'asm'
  | 'mod'
  | 'smp'
  | 'esh'
  | 'whs'
  | 'dlv'
  | 'job'
  | 'evd'
  | 'exp'
  | 'imp'
  | 'ntf'
  | 'alr'
  | 'upl'
  | 'bdl'
  | 'hre'
  | 'usr'
  | 'lbe';

// Per prefix: ids of one type made from one clock stay ordered even when other types are made in between from
// another time source (a use case's clock vs. Date.now()).
const last = new Map<string, { time: number; seq: number; encoded: string }>();

// Imports and their events make ids by the hundred thousand: the time part is encoded once per millisecond and the
// random part read straight from the pool, so an id costs little more than its own string.
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let prev = last.get(prefix);
  if (!prev) last.set(prefix, (prev = { time: Number.NEGATIVE_INFINITY, seq: 0, encoded: '' }));
  if (prev.time >= now && prev.time - now < 1000) {
    // Same millisecond (or the sequence overflowed into the next one earlier): keep counting from there.
    if (prev.seq < MAX_SEQ) prev.seq++;
    else {
      prev.time++;
      prev.seq = 0;
      prev.encoded = encodeTime(prev.time);
    }
  } else {
    prev.time = now;
    prev.seq = 0;
    prev.encoded = encodeTime(now);
  }
  return `${prefix}_${prev.encoded}${encodeSeq(prev.seq)}${randomChars()}`;
}

function encodeSeq(seq: number): string {
  return ALPHABET[(seq >>> 10) & 31]! + ALPHABET[(seq >>> 5) & 31]! + ALPHABET[seq & 31]!;
}

// Random bytes are drawn from the CSPRNG 4 KB at a time: one call per id costs more than the rest of newId.
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** 13 base32 characters (65 bits) from the next 9 bytes of the pool. */
function randomChars(): string {
  if (poolAt + 9 > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let out = '';
  let bits = 0;
  let value = 0;
  for (let i = poolAt; i < poolAt + 9 && out.length < 13; i++) {
    value = ((value << 8) | pool[i]!) & 0xffff;
    bits += 8;
    while (bits >= 5 && out.length < 13) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  poolAt += 9;
  return out;
}

function encodeTime(t: number): string {
  let out = '';
  for (let i = 9; i >= 0; i--) {
    const mod = t % 32;
    out = ALPHABET[mod] + out;
    t = (t - mod) / 32;
  }
  return out;
}

const ID_PATTERN = /^[a-z]{3}_[0-9a-z]{26}$/;

export function looksLikeId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
