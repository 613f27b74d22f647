// Reads an ESC/POS byte stream back into commands: for `devices decode escpos`, the printer
// simulator and tests. Unknown escape sequences are refused, cut-off ones reported truncated.
import { type Decoded, fail, latin1, ok } from '../bytes.js';

export type EscPosCommand =
  | { cmd: 'init' }
  | { cmd: 'bold'; on: boolean }
  | { cmd: 'align'; align: 'left' | 'center' | 'right' }
  | { cmd: 'size'; width: number; height: number }
  | { cmd: 'cut' }
  | { cmd: 'text'; text: string }
  | { cmd: 'feed' }
  | { cmd: 'status-request'; n: number }
  | { cmd: 'qr-model'; model: number }
  | { cmd: 'qr-size'; size: number }
  | { cmd: 'qr-correction'; level: 'L' | 'M' | 'Q' | 'H' }
  | { cmd: 'qr-store'; data: string }
  | { cmd: 'qr-print' };

/** Decodes complete commands; a command cut off at the end leaves `used` before it. */
export function decodeEscPosPrefix(
  bytes: Uint8Array,
): Decoded<{ commands: EscPosCommand[]; used: number }> {
  const out: EscPosCommand[] = [];
  let i = 0;
  let text = '';
  const flush = () => {
    if (text) out.push({ cmd: 'text', text });
    text = '';
  };
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const need = (n: number) => i + n <= bytes.length;
    if (b >= 0x20 && b !== 0x7f) {
      text += String.fromCharCode(b);
      i++;
      continue;
    }
    if (b === 0x0a) {
      flush();
      out.push({ cmd: 'feed' });
      i++;
      continue;
    }
    if (b === 0x0d) {
      i++;
      continue;
    }
    flush();
    if (b === 0x1b) {
      if (!need(2)) return ok({ commands: out, used: i });
      const op = bytes[i + 1];
      if (op === 0x40) {
        out.push({ cmd: 'init' });
        i += 2;
        continue;
      }
      if (op === 0x45 || op === 0x61) {
        if (!need(3)) return ok({ commands: out, used: i });
        const n = bytes[i + 2] as number;
        if (op === 0x45) out.push({ cmd: 'bold', on: (n & 1) === 1 });
        else {
          const a =
            n === 0 || n === 0x30
              ? 'left'
              : n === 1 || n === 0x31
                ? 'center'
                : n === 2 || n === 0x32
                  ? 'right'
                  : null;
          if (a === null) return fail('malformed', `ESC a ${n}`);
          out.push({ cmd: 'align', align: a });
        }
        i += 3;
        continue;
      }
      return fail('malformed', `unknown ESC ${op?.toString(16)} at byte ${i}`);
    }
    if (b === 0x1d) {
      if (!need(2)) return ok({ commands: out, used: i });
      const op = bytes[i + 1];
      if (op === 0x21) {
        if (!need(3)) return ok({ commands: out, used: i });
        const n = bytes[i + 2] as number;
        out.push({ cmd: 'size', width: (n >> 4) + 1, height: (n & 7) + 1 });
        i += 3;
        continue;
      }
      if (op === 0x56) {
        if (!need(3)) return ok({ commands: out, used: i });
        out.push({ cmd: 'cut' });
        i += 3;
        continue;
      }
      if (op === 0x28) {
        if (!need(5)) return ok({ commands: out, used: i });
        if (bytes[i + 2] !== 0x6b)
          return fail('malformed', `GS ( ${bytes[i + 2]?.toString(16)} is not supported`);
        const len = (bytes[i + 3] as number) | ((bytes[i + 4] as number) << 8);
        if (!need(5 + len)) return ok({ commands: out, used: i });
        if (len < 2 || bytes[i + 5] !== 0x31)
          return fail('malformed', 'GS ( k is not a QR function');
        const fn = bytes[i + 6];
        const p = bytes.subarray(i + 7, i + 5 + len);
        if (fn === 0x41) out.push({ cmd: 'qr-model', model: (p[0] ?? 0x32) - 0x30 });
        else if (fn === 0x43) out.push({ cmd: 'qr-size', size: p[0] ?? 3 });
        else if (fn === 0x45) {
          const level = 'LMQH'[(p[0] ?? 0x30) - 0x30];
          if (level === undefined) return fail('malformed', 'QR error correction is 30..33');
          out.push({ cmd: 'qr-correction', level: level as 'L' | 'M' | 'Q' | 'H' });
        } else if (fn === 0x50) out.push({ cmd: 'qr-store', data: latin1(p.subarray(1)) });
        else if (fn === 0x51) out.push({ cmd: 'qr-print' });
        else return fail('malformed', `QR function ${fn?.toString(16)}`);
        i += 5 + len;
        continue;
      }
      return fail('malformed', `unknown GS ${op?.toString(16)} at byte ${i}`);
    }
    if (b === 0x10) {
      if (!need(3)) return ok({ commands: out, used: i });
      if (bytes[i + 1] !== 0x04) return fail('malformed', 'DLE other than DLE EOT');
      out.push({ cmd: 'status-request', n: bytes[i + 2] as number });
      i += 3;
      continue;
    }
    return fail('malformed', `control byte ${b.toString(16)} at byte ${i}`);
  }
  flush();
  return ok({ commands: out, used: i });
}

/** A whole capture: every command must be complete. */
export function decodeEscPos(bytes: Uint8Array): Decoded<EscPosCommand[]> {
  const r = decodeEscPosPrefix(bytes);
  if (!r.ok) return r;
  if (r.value.used < bytes.length)
    return fail('truncated', `command cut off at byte ${r.value.used}`);
  return ok(r.value.commands);
}
