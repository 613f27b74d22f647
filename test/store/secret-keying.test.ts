// Cached hashes of auth codes and PINs keyed with the terminal's secret (docs/store.md,
// "Secrets in the cache"): a copied database alone gives up no 4-digit code, a cache written
// before the terminal had a secret is re-keyed at the next start (with nothing of the old
// hashes left in the file or its log), and hashes keyed with a lost secret make the next pull
// fetch them afresh.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { keyHashes } from '../../src/store/cache.js';
import type { Store } from '../../src/store/open.js';
import {
  hashSecret,
  keyedSecretHashes,
  newHashKey,
  plainSecretHashes,
  verifySecret,
  type SecretHashes,
} from '../../src/secret-hash/index.js';
import { openTest, tempDir, testClock, type TempDir } from './helpers.js';

// A cheap scrypt cost, so trying all 10,000 codes takes a moment (the format carries the cost).
const CHEAP = { N: 16, r: 1, p: 1 };
const salt = (n: number) => Buffer.alloc(16, n);
const STAFF_CODE = '4711';
const PIN = '0815';
const staffHash = hashSecret(STAFF_CODE, salt(1), CHEAP);
const pinHash = hashSecret(PIN, salt(2), CHEAP);
/** The central's hash itself (its last part), as it would appear in the file's bytes. */
const hashPart = (h: string) => h.split('$')[5]!;

let dir: TempDir;
const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  dir?.cleanup();
});

async function storeWith(hashes: SecretHashes): Promise<Store> {
  const s = await openTest(dir.file, testClock(), { secretHashes: hashes });
  open.push(s);
  return s;
}

function seed(s: Store): void {
  s.applyPage({
    changes: [
      { entity: 'staff', op: 'upsert', id: 's1', data: { id: 's1', auth_code_hash: staffHash } },
      {
        entity: 'special_account',
        op: 'upsert',
        id: 'a1',
        data: { id: 'a1', customer_id: 'c1', pin_hash: pinHash },
      },
    ],
    cursor: 'c1',
    requestedAt: s.clock.now(),
  });
}

function close(s: Store): void {
  s.close();
  open.splice(open.indexOf(s), 1);
}

/** Every hash string the cache tables of a copied file hold. */
function hashesIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const out: string[] = [];
    for (const t of ['staff', 'special_account', 'corporate_access']) {
      for (const r of db.prepare<[], { data: string }>(`SELECT data FROM ${t}`).all())
        keyHashes(JSON.parse(r.data) as unknown, (h) => (out.push(h), h));
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * What an attacker holding only the file can do: every code against every hash, read as the
 * central's format, and as any `$`-separated salt, cost and digest the stored text offers.
 */
function bruteForce(stored: string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const code = String(i).padStart(4, '0');
    for (const h of stored) {
      if (verifySecret(code, h)) found.push(code);
      const parts = h.split('$');
      const digest = Buffer.from(parts[parts.length - 1] ?? '', 'base64url');
      const saltPart = Buffer.from(parts[parts.length - 2] ?? '', 'base64url');
      if (digest.length === 0) continue;
      const guess = scryptSync(code, saltPart, digest.length, CHEAP);
      if (guess.equals(digest)) found.push(code);
    }
  }
  return found;
}

/** A copy of the database file (with its WAL), as a thief would take it. */
function copied(file: string): string {
  const dest = join(dir.dir, 'stolen.sqlite');
  copyFileSync(file, dest);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${dest}-wal`);
  return dest;
}

describe('hashes keyed with the terminal secret', () => {
  it('gives up no code from a copied database: all 10,000 tried, none found', async () => {
    dir = tempDir('keyed-');
    const s = await storeWith(keyedSecretHashes(newHashKey()));
    seed(s);
    const stolen = copied(dir.file);
    const stored = hashesIn(stolen);
    expect(stored).toHaveLength(2);
    expect(bruteForce(stored)).toEqual([]);
    // The secret itself verifies the codes.
    expect(s.secretHashes.verify(STAFF_CODE, stored[0]!)).toBe(true);
    expect(s.secretHashes.verify(PIN, s.cache.pinHashOf('a1')!)).toBe(true);
  }, 60_000);

  it('would give the codes up unkeyed (the brute force above is a real one)', async () => {
    dir = tempDir('plain-');
    const s = await storeWith(plainSecretHashes);
    seed(s);
    const found = new Set(bruteForce(hashesIn(copied(dir.file))));
    expect([...found].sort()).toEqual([PIN, STAFF_CODE]);
  }, 60_000);

  it('re-keys a cache written before the terminal had a secret, leaving no old hash in the file', async () => {
    dir = tempDir('rekey-');
    const before = await storeWith(plainSecretHashes);
    seed(before);
    before.applyPage({
      changes: [
        // Quarantined (no customer_id), with its hash: re-keyed too.
        {
          entity: 'special_account',
          op: 'upsert',
          id: 'a2',
          data: { id: 'a2', pin_hash: pinHash },
        },
      ],
      cursor: 'c2',
      requestedAt: before.clock.now(),
    });
    const copy = await before.backup();
    close(before);
    const keyed = keyedSecretHashes(newHashKey());
    const after = await storeWith(keyed);
    expect(after.rekeyed).toEqual({ rekeyed: 3, foreign: 0 });
    const staff = after.cache.get('staff', 's1') as { auth_code_hash: string };
    expect(staff.auth_code_hash.startsWith(keyed.prefix)).toBe(true);
    expect(after.secretHashes.verify(STAFF_CODE, staff.auth_code_hash)).toBe(true);
    expect(after.secretHashes.verify('0000', staff.auth_code_hash)).toBe(false);
    expect(after.secretHashes.verify(PIN, after.cache.pinHashOf('a1')!)).toBe(true);
    // Nothing of the central's hashes is left in the file or its log (free pages included).
    // Nor in a backup taken before (a database file as good as the live one to a thief).
    for (const f of [dir.file, `${dir.file}-wal`, copy].filter((x) => existsSync(x))) {
      const bytes = readFileSync(f).toString('latin1');
      for (const h of [staffHash, pinHash]) expect(bytes.includes(hashPart(h)), f).toBe(false);
    }
    // A second start finds nothing left to re-key.
    close(after);
    expect((await storeWith(keyed)).rekeyed).toEqual({ rekeyed: 0, foreign: 0 });
  });

  it('has the next pull fetch a full snapshot when the secret was lost', async () => {
    dir = tempDir('lost-');
    const first = await storeWith(keyedSecretHashes(newHashKey()));
    seed(first);
    expect(first.sync.cursor()).toBe('c1');
    close(first);
    const other = keyedSecretHashes(newHashKey());
    const again = await storeWith(other);
    expect(again.rekeyed.foreign).toBe(2);
    expect(again.sync.cursor()).toBeNull();
    expect(
      other.verify(
        STAFF_CODE,
        (again.cache.get('staff', 's1') as { auth_code_hash: string }).auth_code_hash,
      ),
    ).toBe(false);
  });

  it('keys a hash from the feed once, whatever its path in the record', () => {
    const keyed = keyedSecretHashes(newHashKey());
    const record = { id: 'x', nested: [{ pin_hash: pinHash }], auth_code_hash: staffHash };
    const once = keyHashes(record, (h) => keyed.wrap(h));
    expect(keyHashes(once, (h) => keyed.wrap(h))).toBe(once);
    expect(JSON.stringify(once)).not.toContain(hashPart(pinHash));
    expect(keyed.verify(PIN, once.nested[0]!.pin_hash)).toBe(true);
  });
});
