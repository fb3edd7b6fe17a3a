/**
 * Identifiers: a type prefix, then 10 characters of millisecond time and 16 of randomness (80 bits), in
 * Crockford base32. Opaque and unguessable to callers, yet they sort by creation time, so keyset pagination
 * can order by id alone.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdPrefix =
  | 'wha'
  | 'ten' | 'key' | 'lrn' | 'aud' | 'evt' | 'prg' | 'enr' | 'asm' | 'mod' | 'esh'
  | 'whs' | 'dlv' | 'job' | 'evd' | 'exp' | 'imp' | 'ntf' | 'alr';

// Per prefix: ids of one type made from one clock stay ordered even when other types are made in between from
// another time source (a use case's clock vs. Date.now()).
const last = new Map<string, { time: number; random: Uint8Array }>();

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const prev = last.get(prefix);
  const random = prev && prev.time === now ? increment(prev.random) : randomBytes(10);
  last.set(prefix, { time: now, random });
  return `${prefix}_${encodeTime(now)}${encodeRandom(random)}`;
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

/** Monotonic within one millisecond, so ids made in a burst still sort in creation order. */
function increment(bytes: Uint8Array): Uint8Array {
  const next = new Uint8Array(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] === 255) {
      next[i] = 0;
    } else {
      next[i] = (next[i] ?? 0) + 1;
      break;
    }
  }
  return next;
}

const ID_PATTERN = /^[a-z]{3}_[0-9a-z]{26}$/;

export function looksLikeId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
