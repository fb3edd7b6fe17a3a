import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@fundi/domain';

/**
 * Password hashing with scrypt (RFC 7914): N = 2^15, r = 8, p = 1, a 16-byte random salt, a 64-byte key; about
 * 32 MiB and some tens of milliseconds per hash. Stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url), so
 * stronger parameters can be adopted later while old hashes still verify.
 */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_BYTES = 64;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((ok, fail) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N, r, p, maxmem: 256 * N * r * p }, (err, key) =>
      err ? fail(err) : ok(key),
    ),
  );
}

export const MIN_PASSWORD_LENGTH = 12;

/** Checks a chosen password: 12 to 200 characters. */
export function checkNewPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH || value.length > 200) {
    throw DomainError.invalid(field, `must be ${MIN_PASSWORD_LENGTH} to 200 characters long`);
  }
  return value;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

// Compared against when the account does not exist, so both answers take the same time.
const DUMMY = `scrypt$${LOG_N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;

/** True when `password` matches `stored`; a null or malformed hash never matches (but costs the same). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY).split('$');
  const [kind, logN, r, p, salt, key] = parts.length === 6 ? parts : DUMMY.split('$');
  const expected = Buffer.from(key!, 'base64url');
  const got = await derive(password, Buffer.from(salt!, 'base64url'), Number(logN), Number(r), Number(p));
  return kind === 'scrypt' && stored !== null && got.length === expected.length && timingSafeEqual(got, expected);
}
