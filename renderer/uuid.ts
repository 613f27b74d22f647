// Transaction ids are UUIDv7 made by the client before the first attempt and reused on every
// retry (sync.md): time-ordered, so the outbox and the central service sort them naturally.
// Pure: the caller passes the clock and ten random bytes.

const hex = (bytes: ArrayLike<number>) =>
  Array.from(bytes, (b) => (b & 0xff).toString(16).padStart(2, '0')).join('');

/** RFC 9562 UUIDv7 from a Unix time in milliseconds and 10 random bytes. */
export function uuidv7(ms: number, random: ArrayLike<number>): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > 0xffff_ffff_ffff) {
    throw new RangeError('the time must be a 48-bit integer of milliseconds');
  }
  if (random.length < 10) throw new RangeError('ten random bytes are needed');
  const r = Array.from({ length: 10 }, (_, i) => random[i] ?? 0);
  const time = ms.toString(16).padStart(12, '0');
  const a = ((0x70 | (r[0]! & 0x0f)) << 8) | r[1]!; // version 7 + 12 random bits
  const b = ((0x80 | (r[2]! & 0x3f)) << 8) | r[3]!; // variant 10 + 14 random bits
  return [
    time.slice(0, 8),
    time.slice(8, 12),
    a.toString(16).padStart(4, '0'),
    b.toString(16).padStart(4, '0'),
    hex(r.slice(4, 10)),
  ].join('-');
}
