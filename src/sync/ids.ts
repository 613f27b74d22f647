// Transaction ids: UUIDv7 (RFC 9562), made on the terminal before anything is sent and never
// remade; it is the Idempotency-Key. Time-ordered, so the outbox and the server sort alike.
// The `uuid` package builds them; the time comes from the caller's clock (never Date.now).
import { v7 } from 'uuid';

/** A UUIDv7 for the wall time `ms`; `random` supplies 16 random bytes (tests pin it). */
export function uuidv7(ms: number, random?: Uint8Array): string {
  return v7({ msecs: Math.max(0, Math.floor(ms)), ...(random ? { random } : {}) });
}
