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

/** One command read at a byte offset, and the offset after it; null when it is cut off. */
type Step = Decoded<{ command: EscPosCommand; next: number } | null>;

const CUT_OFF: Step = ok(null);

const step = (command: EscPosCommand, next: number): Step => ok({ command, next });

/** Whether `n` bytes from `i` are all there. */
const has = (bytes: Uint8Array, i: number, n: number) => i + n <= bytes.length;

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
    if (b >= 0x20 && b !== 0x7f) {
      text += String.fromCharCode(b);
      i++;
      continue;
    }
    // CR is dropped without ending the text: LF alone ends a line.
    if (b === 0x0d) {
      i++;
      continue;
    }
    flush();
    const r = b === 0x0a ? step({ cmd: 'feed' }, i + 1) : decodeControl(bytes, i);
    if (!r.ok) return r;
    if (r.value === null) return ok({ commands: out, used: i });
    out.push(r.value.command);
    i = r.value.next;
  }
  flush();
  return ok({ commands: out, used: i });
}

/** A control sequence starting at `i` (ESC, GS or DLE); any other control byte is refused. */
function decodeControl(bytes: Uint8Array, i: number): Step {
  const b = bytes[i] as number;
  if (b === 0x1b) return decodeEsc(bytes, i);
  if (b === 0x1d) return decodeGs(bytes, i);
  if (b === 0x10) return decodeDle(bytes, i);
  return fail('malformed', `control byte ${b.toString(16)} at byte ${i}`);
}

/** ESC @ (init), ESC E n (bold), ESC a n (align). */
function decodeEsc(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 2)) return CUT_OFF;
  const op = bytes[i + 1];
  if (op === 0x40) return step({ cmd: 'init' }, i + 2);
  if (op !== 0x45 && op !== 0x61)
    return fail('malformed', `unknown ESC ${op?.toString(16)} at byte ${i}`);
  if (!has(bytes, i, 3)) return CUT_OFF;
  const n = bytes[i + 2] as number;
  if (op === 0x45) return step({ cmd: 'bold', on: (n & 1) === 1 }, i + 3);
  const align = alignOf(n);
  if (align === null) return fail('malformed', `ESC a ${n}`);
  return step({ cmd: 'align', align }, i + 3);
}

/** ESC a takes 0..2 or their ASCII digits '0'..'2'. */
function alignOf(n: number): 'left' | 'center' | 'right' | null {
  if (n === 0 || n === 0x30) return 'left';
  if (n === 1 || n === 0x31) return 'center';
  if (n === 2 || n === 0x32) return 'right';
  return null;
}

/** GS ! n (size), GS V m (cut), GS ( k (QR). */
function decodeGs(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 2)) return CUT_OFF;
  const op = bytes[i + 1];
  if (op === 0x21 || op === 0x56) {
    if (!has(bytes, i, 3)) return CUT_OFF;
    const n = bytes[i + 2] as number;
    if (op === 0x56) return step({ cmd: 'cut' }, i + 3);
    return step({ cmd: 'size', width: (n >> 4) + 1, height: (n & 7) + 1 }, i + 3);
  }
  if (op === 0x28) return decodeGsParen(bytes, i);
  return fail('malformed', `unknown GS ${op?.toString(16)} at byte ${i}`);
}

/** GS ( k pL pH cn fn [params]: only the QR functions (cn 0x31) are supported. */
function decodeGsParen(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 5)) return CUT_OFF;
  if (bytes[i + 2] !== 0x6b)
    return fail('malformed', `GS ( ${bytes[i + 2]?.toString(16)} is not supported`);
  const len = (bytes[i + 3] as number) | ((bytes[i + 4] as number) << 8);
  if (!has(bytes, i, 5 + len)) return CUT_OFF;
  if (len < 2 || bytes[i + 5] !== 0x31) return fail('malformed', 'GS ( k is not a QR function');
  const command = qrCommand(bytes[i + 6], bytes.subarray(i + 7, i + 5 + len));
  return command.ok ? step(command.value, i + 5 + len) : command;
}

/** One QR function with its parameter bytes. */
function qrCommand(fn: number | undefined, p: Uint8Array): Decoded<EscPosCommand> {
  if (fn === 0x41) return ok({ cmd: 'qr-model', model: (p[0] ?? 0x32) - 0x30 });
  if (fn === 0x43) return ok({ cmd: 'qr-size', size: p[0] ?? 3 });
  if (fn === 0x45) {
    const level = 'LMQH'[(p[0] ?? 0x30) - 0x30];
    if (level === undefined) return fail('malformed', 'QR error correction is 30..33');
    return ok({ cmd: 'qr-correction', level: level as 'L' | 'M' | 'Q' | 'H' });
  }
  if (fn === 0x50) return ok({ cmd: 'qr-store', data: latin1(p.subarray(1)) });
  if (fn === 0x51) return ok({ cmd: 'qr-print' });
  return fail('malformed', `QR function ${fn?.toString(16)}`);
}

/** DLE EOT n: a status request. */
function decodeDle(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 3)) return CUT_OFF;
  if (bytes[i + 1] !== 0x04) return fail('malformed', 'DLE other than DLE EOT');
  return step({ cmd: 'status-request', n: bytes[i + 2] as number }, i + 3);
}

/** A whole capture: every command must be complete. */
export function decodeEscPos(bytes: Uint8Array): Decoded<EscPosCommand[]> {
  const r = decodeEscPosPrefix(bytes);
  if (!r.ok) return r;
  if (r.value.used < bytes.length)
    return fail('truncated', `command cut off at byte ${r.value.used}`);
  return ok(r.value.commands);
}
