// Reads an ESC/POS byte stream back into commands: for `devices decode escpos`, the printer
// simulator and tests. Unknown escape sequences are refused, cut-off ones reported truncated.
// `previewOf` lays the commands out again as the paper shows them (text lines with their style,
// and markers for QR codes, barcodes, the cut and the drawer's pulse): the screen's receipt
// preview is drawn from the very bytes the printer was sent.
import type { PreviewRow, ReceiptPreview } from '../../contract/receipt.js';
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
  | { cmd: 'qr-print' }
  | { cmd: 'drawer-pulse'; pin: 2 | 5; on_ms: number; off_ms: number }
  | { cmd: 'barcode-height'; dots: number }
  | { cmd: 'barcode-width'; dots: number }
  | { cmd: 'barcode-hri'; position: number }
  | { cmd: 'barcode'; symbology: string; data: string };

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

/** ESC @ (init), ESC E n (bold), ESC a n (align), ESC p m t1 t2 (drawer pulse). */
function decodeEsc(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 2)) return CUT_OFF;
  const op = bytes[i + 1];
  if (op === 0x40) return step({ cmd: 'init' }, i + 2);
  if (op === 0x70) return decodeDrawerPulse(bytes, i);
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

/** ESC p m t1 t2: m 0/48 is pin 2, 1/49 pin 5; the times are in units of 2 ms. */
function decodeDrawerPulse(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 5)) return CUT_OFF;
  const m = bytes[i + 2] as number;
  if (m !== 0 && m !== 1 && m !== 0x30 && m !== 0x31)
    return fail('malformed', `ESC p ${m}: the drawer pin is 0 or 1`);
  const pin = m === 0 || m === 0x30 ? 2 : 5;
  const on_ms = (bytes[i + 3] as number) * 2;
  const off_ms = (bytes[i + 4] as number) * 2;
  return step({ cmd: 'drawer-pulse', pin, on_ms, off_ms }, i + 5);
}

/** GS commands of one parameter byte: size, cut, barcode height, width and HRI position. */
const GS_ONE: Record<number, (n: number) => EscPosCommand> = {
  0x21: (n) => ({ cmd: 'size', width: (n >> 4) + 1, height: (n & 7) + 1 }),
  0x56: () => ({ cmd: 'cut' }),
  0x68: (n) => ({ cmd: 'barcode-height', dots: n }),
  0x77: (n) => ({ cmd: 'barcode-width', dots: n }),
  0x48: (n) => ({ cmd: 'barcode-hri', position: n & 3 }),
};

/** GS ! n (size), GS V m (cut), GS h/w/H (barcode settings), GS k (barcode), GS ( k (QR). */
function decodeGs(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 2)) return CUT_OFF;
  const op = bytes[i + 1] as number;
  const one = GS_ONE[op];
  if (one) {
    if (!has(bytes, i, 3)) return CUT_OFF;
    return step(one(bytes[i + 2] as number), i + 3);
  }
  if (op === 0x6b) return decodeBarcode(bytes, i);
  if (op === 0x28) return decodeGsParen(bytes, i);
  return fail('malformed', `unknown GS ${op.toString(16)} at byte ${i}`);
}

/** GS k m: function A (m 0..6, data up to NUL) and B (m 65..73, a length byte, the data). */
const SYMBOLOGIES = ['UPC-A', 'UPC-E', 'EAN13', 'EAN8', 'CODE39', 'ITF', 'CODABAR'];

function decodeBarcode(bytes: Uint8Array, i: number): Step {
  if (!has(bytes, i, 4)) return CUT_OFF;
  const m = bytes[i + 2] as number;
  if (m <= 6) {
    const end = bytes.indexOf(0x00, i + 3);
    if (end < 0) return CUT_OFF;
    const data = latin1(bytes.subarray(i + 3, end));
    return step({ cmd: 'barcode', symbology: SYMBOLOGIES[m] as string, data }, end + 1);
  }
  const symbology = m === 0x48 ? 'CODE93' : m === 0x49 ? 'CODE128' : SYMBOLOGIES[m - 65];
  if (symbology === undefined) return fail('malformed', `GS k ${m}: unknown barcode system`);
  const n = bytes[i + 3] as number;
  if (!has(bytes, i, 4 + n)) return CUT_OFF;
  const raw = bytes.subarray(i + 4, i + 4 + n);
  const data = symbology === 'CODE128' ? code128Text(raw) : latin1(raw);
  return step({ cmd: 'barcode', symbology, data }, i + 4 + n);
}

/**
 * CODE128 data as text: `{A` `{B` `{C` select the code set (in C each byte is two digits),
 * `{{` is a brace; other `{x` function codes are dropped.
 */
function code128Text(raw: Uint8Array): string {
  let set = 'B';
  let out = '';
  for (let k = 0; k < raw.length; k++) {
    const b = raw[k] as number;
    if (b === 0x7b && k + 1 < raw.length) {
      const next = String.fromCharCode(raw[k + 1] as number);
      k++;
      if (next === 'A' || next === 'B' || next === 'C') set = next;
      else if (next === '{') out += '{';
      continue;
    }
    out += set === 'C' ? String(b).padStart(2, '0') : String.fromCharCode(b);
  }
  return out;
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

/** The style in force while a line is laid out. */
interface Style {
  align: 'left' | 'center' | 'right';
  bold: boolean;
  large: boolean;
}

const PLAIN: Style = { align: 'left', bold: false, large: false };

/**
 * The commands laid out as the paper shows them: each line feed ends a text row (with the
 * alignment, bold and size it started with, bold or large if any of it was), a QR prints where
 * its print function comes, a barcode where it is, and the cut and the drawer's pulse are
 * markers. Text left before a cut is a row of its own.
 */
export function previewOf(commands: readonly EscPosCommand[], width: number): ReceiptPreview {
  const rows: PreviewRow[] = [];
  let style: Style = { ...PLAIN };
  let line: { text: string; style: Style } | null = null;
  let qrData: string | null = null;
  const endLine = () => {
    const s = line?.style ?? style;
    rows.push({ kind: 'text', text: line?.text ?? '', ...s });
    line = null;
  };
  for (const c of commands) {
    if (c.cmd === 'text') {
      line ??= { text: '', style: { ...style } };
      line.text += c.text;
      line.style.bold ||= style.bold;
      line.style.large ||= style.large;
    } else if (c.cmd === 'feed') endLine();
    else if (c.cmd === 'init') style = { ...PLAIN };
    else if (c.cmd === 'bold') style = { ...style, bold: c.on };
    else if (c.cmd === 'align') style = { ...style, align: c.align };
    else if (c.cmd === 'size') style = { ...style, large: c.width > 1 || c.height > 1 };
    else if (c.cmd === 'qr-store') qrData = c.data;
    else if (c.cmd === 'qr-print' && qrData !== null) rows.push({ kind: 'qr', data: qrData });
    else if (c.cmd === 'barcode')
      rows.push({ kind: 'barcode', symbology: c.symbology, data: c.data });
    else if (c.cmd === 'drawer-pulse') rows.push({ kind: 'drawer', pin: c.pin });
    else if (c.cmd === 'cut') {
      if (line) endLine();
      rows.push({ kind: 'cut' });
    }
  }
  if (line) endLine();
  return { width, rows };
}

/** A whole capture decoded and laid out (see previewOf). */
export function decodePreview(bytes: Uint8Array, width: number): Decoded<ReceiptPreview> {
  const r = decodeEscPos(bytes);
  return r.ok ? ok(previewOf(r.value, width)) : r;
}
