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
  | 'usr';

// Per prefix: ids of one type made from one clock stay ordered even when other types are made in between from
// another time source (a use case's clock vs. Date.now()).
const last = new Map<string, { time: number; seq: number }>();

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const prev = last.get(prefix);
  let time = now;
  let seq = 0;
  if (prev && prev.time >= now && prev.time - now < 1000) {
    // Same millisecond (or the sequence overflowed into the next one earlier): keep counting from there.
    [time, seq] = prev.seq < MAX_SEQ ? [prev.time, prev.seq + 1] : [prev.time + 1, 0];
  }
  last.set(prefix, { time, seq });
  return `${prefix}_${encodeTime(time)}${encodeSeq(seq)}${encodeRandom(randomBytes(9)).slice(0, 13)}`;
}

function encodeSeq(seq: number): string {
  return ALPHABET[(seq >>> 10) & 31]! + ALPHABET[(seq >>> 5) & 31]! + ALPHABET[seq & 31]!;
}

// Random bytes are drawn from the CSPRNG 4 KB at a time: one call per id costs more than the rest of newId.
const pool = new Uint8Array(4096);
let poolAt = pool.length;

function randomBytes(n: number): Uint8Array {
  if (poolAt + n > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  poolAt += n;
  return pool.slice(poolAt - n, poolAt);
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

function encodeRandom(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

const ID_PATTERN = /^[a-z]{3}_[0-9a-z]{26}$/;

export function looksLikeId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
