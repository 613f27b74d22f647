// CRC-16/KERMIT of ZVT serial frames: reflected polynomial 0x8408, init 0, no final XOR, over the
// unstuffed APDU plus ETX (0x03); sent low byte first.

export function crc16Kermit(bytes: Uint8Array, init = 0): number {
  let crc = init;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc & 0xffff;
}

/** The frame CRC: over the APDU, then ETX. */
export function zvtFrameCrc(apdu: Uint8Array): number {
  return crc16Kermit(Uint8Array.of(0x03), crc16Kermit(apdu));
}
