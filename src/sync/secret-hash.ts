// Salted scrypt hashes of staff auth codes and special-account PINs (interfaces.md, Secrets):
// the feed carries these, never clear values. Format `scrypt$N$r$p$SALT$HASH` (base64url),
// so the cost can rise later without breaking stored hashes.
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

const N = 1 << 14;
const R = 8;
const P = 1;
const KEYLEN = 32;

export function hashSecret(secret: string, salt: Buffer = randomBytes(16)): string {
  const hash = scryptSync(secret, salt, KEYLEN, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** True when `secret` matches `stored`; a malformed stored hash never matches. */
export function verifySecret(secret: string, stored: string): boolean {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length === 0) return false;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((x) => Number.isInteger(x) && x > 0)) return false;
  const actual = scryptSync(secret, Buffer.from(salt, 'base64url'), expected.length, cost);
  return timingSafeEqual(actual, expected);
}
