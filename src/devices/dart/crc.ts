// CRC-16/ARC of Wayne DART data blocks: reflected polynomial 0xA001 (0x8005), init 0, no final
// XOR (check value 0xBB3D for "123456789"). Wayne's text calls it "CRC16 (CCITT)", but every
// public capture matches ARC and none matches a CCITT variant (docs/forecourt.md, "The DART
// codec"). Computed over ADR..last data byte before DLE stuffing; sent low byte first.

export function crc16Arc(bytes: Uint8Array | readonly number[], init = 0): number {
  let crc = init;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc & 0xffff;
}

/** The two CRC bytes in wire order: low byte first. */
export function crcBytes(crc: number): [number, number] {
  return [crc & 0xff, (crc >>> 8) & 0xff];
}
