// Salted scrypt hashes of staff auth codes and special-account PINs (interfaces.md, Secrets):
// the feed carries these, never clear values. Format `scrypt$N$r$p$SALT$HASH` (base64url),
// so the cost can rise later without breaking stored hashes.
//
// The terminal keeps them keyed (docs/store.md, "Secrets in the cache"): a 4-digit code has
// 10,000 values, so a copied database would give up every scrypt hash in a minute. Cached,
// a hash is `hscrypt$KID$N$r$p$LEN$SALT$MAC`, MAC = HMAC-SHA256(terminal secret, HASH): the
// salt and cost stay readable (verifying needs them), the central's hash does not, and
// without the secret (kept in the secret store, never in the database) no guess can be
// checked. KID names the secret (a hash of it), so a lost secret is recognised, not guessed.
import { createHash, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

const N = 1 << 14;
const R = 8;
const P = 1;
const KEYLEN = 32;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export function hashSecret(
  secret: string,
  salt: Buffer = randomBytes(16),
  cost: ScryptCost = { N, r: R, p: P },
): string {
  const hash = scryptSync(secret, salt, KEYLEN, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

interface Parsed {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

function costOf(n: string, r: string, p: string): ScryptCost | null {
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  return [cost.N, cost.r, cost.p].every((x) => Number.isInteger(x) && x > 0) ? cost : null;
}

function parsePlain(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const cost = costOf(n, r, p);
  const expected = Buffer.from(hash, 'base64url');
  if (!cost || expected.length === 0) return null;
  return { cost, salt: Buffer.from(salt, 'base64url'), hash: expected };
}

/** scrypt of a typed secret under a stored hash's salt and cost; null when scrypt refuses. */
function scryptOf(secret: string, salt: Buffer, length: number, cost: ScryptCost): Buffer | null {
  try {
    return scryptSync(secret, salt, length, cost);
  } catch {
    return null; // a cost beyond scrypt's memory limit: a hash that can never match
  }
}

/** True when `secret` matches `stored`; a malformed stored hash never matches. */
export function verifySecret(secret: string, stored: string): boolean {
  const h = parsePlain(stored);
  if (!h) return false;
  const actual = scryptOf(secret, h.salt, h.hash.length, h.cost);
  return actual !== null && timingSafeEqual(actual, h.hash);
}

// ---- keyed with the terminal's secret ----

/** How the cache keeps hashes and checks a typed code against them. */
export interface SecretHashes {
  /** True when hashes are keyed with a terminal secret. */
  readonly keyed: boolean;
  /** How every stored hash of this keying begins. */
  readonly prefix: string;
  /** The stored form of a hash from the feed (a keyed one is left as it is). */
  wrap(hash: string): string;
  /** True when `secret` matches the stored form. */
  verify(secret: string, stored: string): boolean;
  /** `plain`: a central hash still to be keyed; `foreign`: keyed with another secret. */
  kind(stored: string): 'current' | 'plain' | 'foreign' | 'other';
}

/** Hashes as the feed sends them (no terminal secret: tools and tests). */
export const plainSecretHashes: SecretHashes = {
  keyed: false,
  prefix: 'scrypt$',
  wrap: (hash) => hash,
  verify: verifySecret,
  kind: (stored) => (parsePlain(stored) ? 'current' : 'other'),
};

/** A new terminal secret for keying hashes (32 random bytes, base64url). */
export function newHashKey(): string {
  return randomBytes(32).toString('base64url');
}

const KEYED = 'hscrypt';

export function keyedSecretHashes(secret: string): SecretHashes {
  const key = Buffer.from(secret, 'base64url');
  if (key.length < 32) throw new Error('the terminal hash key needs 32 bytes or more');
  const kid = createHash('sha256')
    .update('loyalty-terminal hash key id\0')
    .update(key)
    .digest()
    .subarray(0, 6)
    .toString('base64url');
  const mac = (hash: Buffer) => createHmac('sha256', key).update(hash).digest();

  const parseKeyed = (stored: string) => {
    const parts = stored.split('$');
    if (parts.length !== 8 || parts[0] !== KEYED) return null;
    const [, id, n, r, p, len, salt, m] = parts as string[] as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const cost = costOf(n, r, p);
    const length = Number(len);
    if (!cost || !Number.isInteger(length) || length < 16 || length > 64) return null;
    return {
      id,
      cost,
      length,
      salt: Buffer.from(salt, 'base64url'),
      mac: Buffer.from(m, 'base64url'),
    };
  };

  return {
    keyed: true,
    prefix: `${KEYED}$${kid}$`,
    wrap(hash) {
      const h = parsePlain(hash);
      if (!h) return hash; // keyed already, or malformed (never matches either way)
      const { N: n, r, p } = h.cost;
      const salt = h.salt.toString('base64url');
      return `${KEYED}$${kid}$${n}$${r}$${p}$${h.hash.length}$${salt}$${mac(h.hash).toString('base64url')}`;
    },
    verify(typed, stored) {
      const k = parseKeyed(stored);
      if (!k || k.id !== kid || k.mac.length !== 32) return false;
      const actual = scryptOf(typed, k.salt, k.length, k.cost);
      return actual !== null && timingSafeEqual(mac(actual), k.mac);
    },
    kind(stored) {
      if (parsePlain(stored)) return 'plain';
      const k = parseKeyed(stored);
      if (!k) return 'other';
      return k.id === kid ? 'current' : 'foreign';
    },
  };
}
