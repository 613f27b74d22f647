// Idempotent commands (docs/terminal.md): the first answer is kept by its key with the hash
// of its request; a repeat with the same body answers it, another body is 409. The hash
// leaves the PIN out, so no trace of a PIN is kept, even hashed.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../contract/wire.js';

const NOT_HASHED: ReadonlySet<string> = new Set(['special_account_pin']);

export function requestHash(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input, NOT_HASHED)).digest('hex');
}

/**
 * One run per key at a time: a second call with the same key while the first runs (a double
 * tap, a retry after a client time-out) waits for the first and gets its answer instead of
 * charging a card twice; with another body it is refused as the stored answers are.
 */
export class InFlight {
  private readonly running = new Map<string, { hash: string; answer: Promise<unknown> }>();

  async run<T>(key: string, hash: string, conflict: () => T, fn: () => Promise<T>): Promise<T> {
    const now = this.running.get(key);
    if (now) return now.hash === hash ? ((await now.answer) as T) : conflict();
    const answer = fn();
    this.running.set(key, { hash, answer });
    try {
      return await answer;
    } finally {
      this.running.delete(key);
    }
  }
}
