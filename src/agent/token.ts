// The agent's API token (interfaces.md): DIR/agent-token, mode 0600, made on first start and
// kept, so an integrator's scripts keep working across restarts.
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE = 'agent-token';

const tokenShape = /^[A-Za-z0-9_-]{32,}$/;

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Reads DIR/agent-token, creating it when absent; narrows a too-open mode back to 0600. */
function loadOrCreateToken(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The data directory is the till's alone (docs/store.md, "File modes").
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  const file = join(dir, TOKEN_FILE);
  try {
    writeFileSync(file, `${newSecret()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  if (!tokenShape.test(token)) {
    throw new Error(
      `${file} does not hold a token (32 or more of A-Z a-z 0-9 _ -); delete it and a new one is made`,
    );
  }
  return token;
}

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * DIR/agent-token as it is now: read again whenever the file changed (replaced, rewritten or
 * deleted: a new one is made), so a rotation takes effect without a restart. `onRotate` runs
 * when the token differs from the one before.
 */
export function watchToken(dir: string, onRotate: () => void): { current(): string } {
  const file = join(dir, TOKEN_FILE);
  let token = loadOrCreateToken(dir);
  const stamp = (): string => {
    try {
      const s = statSync(file);
      return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      return 'absent';
    }
  };
  let seen = stamp();
  return {
    current() {
      const now = stamp();
      if (now === seen) return token;
      const next = loadOrCreateToken(dir);
      seen = stamp();
      if (next !== token) {
        token = next;
        onRotate();
      }
      return token;
    },
  };
}
