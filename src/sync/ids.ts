// Transaction ids: UUIDv7 (RFC 9562), made on the terminal before anything is sent and never
// remade; it is the Idempotency-Key. Time-ordered, so the outbox and the server sort alike.
import { randomBytes } from 'node:crypto';

/** A UUIDv7 for the wall time `ms`; `random` supplies the 10 random bytes (tests pin it). */
export function uuidv7(
  ms: number,
  random: (n: number) => Uint8Array = (n) => randomBytes(n),
): string {
  const b = new Uint8Array(16);
  let t = Math.max(0, Math.floor(ms));
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b.set(random(10), 6);
  b[6] = (b[6]! & 0x0f) | 0x70; // version 7
  b[8] = (b[8]! & 0x3f) | 0x80; // variant 10
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
