// `devices decode PROTOCOL HEX`: a captured frame as JSON, for field technicians. A frame that
// does not parse gives the reason (bad checksum, bad stuffing, truncated...). Clear PANs never
// appear: bank-card numbers are masked like everywhere else.
import { type Decoded, fail, hexNumber, latin1, ok } from './bytes.js';
import {
  decodeMessage as decodeConcert,
  parseAnswer,
  parseRequest,
  ACK,
  ENQ,
  EOT,
  NAK,
} from './concert/frame.js';
import { decodeFrame as decodeDartFrame } from './dart/frame.js';
import {
  type ControllerTransaction,
  decodeControllerTransactions,
  decodePumpTransactions,
  fillingValues,
  type PumpTransaction,
  unitPrice,
  type UnknownTransaction,
} from './dart/transactions.js';
import { decodeEscPos } from './escpos/decode.js';
import { LineFramer } from './line-framer.js';
import { isBankCard, maskPan } from './mask.js';
import { parseSwipe, type Swipe } from './msr.js';
import { Recognizer } from './recognition.js';
import { parseScan } from './scanner.js';
import { decodeAnswer as decodeTls, SOH } from './tls/frame.js';
import { parseInventory } from './tls/i201.js';
import { parseApdu } from './zvt/apdu.js';
import { decodeFrame } from './zvt/frame.js';
import { describeApdu } from './zvt/messages.js';
import { toHex } from './bytes.js';
import { toFixed } from '../money/index.js';

export const PROTOCOLS = [
  'msr',
  'scanner',
  'zvt-serial',
  'zvt-tcp',
  'concert',
  'tls',
  'escpos',
  'dart',
] as const;
export type DecodeProtocol = (typeof PROTOCOLS)[number];

/** Strips a reader's framing if present (STX..ETX, trailing CR/LF). */
function unframe(bytes: Uint8Array): Uint8Array {
  if (bytes[0] === 0x02) {
    const f = new LineFramer('stx-etx').push(bytes);
    if (f[0]) return f[0];
  }
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x0d || bytes[end - 1] === 0x0a)) end--;
  return bytes.subarray(0, end);
}

function safeSwipe(s: Swipe): Record<string, unknown> {
  const out: Record<string, unknown> = { errors: s.errors };
  const pan = s.track2?.pan ?? s.track1?.pan ?? null;
  const bank = pan !== null && isBankCard(pan);
  const hide = (p: string) => (bank ? maskPan(p) : p);
  if (s.track1) {
    out['track1'] = bank
      ? { pan: hide(s.track1.pan), expiry: s.track1.expiry, service_code: s.track1.service_code }
      : s.track1;
  }
  if (s.track2) {
    out['track2'] = bank
      ? { pan: hide(s.track2.pan), expiry: s.track2.expiry, service_code: s.track2.service_code }
      : s.track2;
  }
  if (s.track3 !== null && !bank) out['track3'] = s.track3;
  out['bank_card'] = bank;
  return out;
}

type Fields = Record<string, unknown>;

function decodeMsr(bytes: Uint8Array): Decoded<Fields> {
  const swipe = parseSwipe(latin1(unframe(bytes)));
  if (!swipe.track1 && !swipe.track2 && swipe.track3 === null) {
    return fail(
      swipe.errors.some((e) => e.includes('sentinel')) ? 'truncated' : 'malformed',
      swipe.errors[0] ?? 'no track in the swipe',
    );
  }
  return ok({ ...safeSwipe(swipe), recognition: new Recognizer().recogniseSwipe(swipe) });
}

function decodeScanner(bytes: Uint8Array): Decoded<Fields> {
  const scan = parseScan(unframe(bytes));
  if (!scan.ok) return scan;
  return ok({ ...scan.value, recognition: new Recognizer().recogniseScan(scan.value) });
}

function decodeZvtSerial(bytes: Uint8Array): Decoded<Fields> {
  const f = decodeFrame(bytes);
  if (!f.ok) {
    // A lone ACK or NAK is the link layer answering, not a broken frame.
    if (bytes.length === 1 && (bytes[0] === 0x06 || bytes[0] === 0x15)) {
      return ok({ link: bytes[0] === 0x06 ? 'ACK' : 'NAK' });
    }
    return f;
  }
  return ok({ crc: hexNumber(f.value.crc, 4), apdu: describeApdu(f.value.apdu) });
}

function decodeZvtTcp(bytes: Uint8Array): Decoded<Fields> {
  const a = parseApdu(bytes);
  if (!a.ok) return a;
  return ok({ apdu: describeApdu(a.value) });
}

const CONCERT_CONTROLS: Record<number, string> = {
  [ENQ]: 'ENQ',
  [ACK]: 'ACK',
  [NAK]: 'NAK',
  [EOT]: 'EOT',
};

function decodeConcertCapture(bytes: Uint8Array): Decoded<Fields> {
  if (bytes.length === 1) {
    const name = CONCERT_CONTROLS[bytes[0] as number];
    if (name) return ok({ control: name });
  }
  const m = decodeConcert(bytes);
  if (!m.ok) return m;
  const text = m.value;
  // Requests have a fixed length (34 in E+, 26 in E); anything else is an answer.
  if (text.length === 34 || text.length === 26) {
    const r = parseRequest(text);
    if (!r.ok) return r;
    return ok({ message: 'request', version: text.length === 34 ? 'E+' : 'E', ...r.value });
  }
  const a = parseAnswer(text);
  if (!a.ok) return a;
  return ok({ message: 'answer', ...a.value, accepted: a.value.status === '0' });
}

function decodeTlsCapture(bytes: Uint8Array): Decoded<Fields> {
  // A request is SOH and six characters, without the ETX an answer ends with.
  if (bytes[0] === SOH && bytes[bytes.length - 1] !== 0x03 && bytes.length === 7) {
    return ok({ request: latin1(bytes.subarray(1)) });
  }
  const t = decodeTls(bytes);
  if (!t.ok) return t;
  if (t.value.kind === 'unsupported') return ok({ unsupported: true });
  if (t.value.body.startsWith('i201')) {
    const inv = parseInventory(t.value.body);
    if (!inv.ok) return inv;
    return ok({ function: 'i201', ...inv.value });
  }
  return ok({ function: t.value.body.slice(0, 4), body: t.value.body });
}

function decodeEscPosCapture(bytes: Uint8Array): Decoded<Fields> {
  const e = decodeEscPos(bytes);
  if (!e.ok) return e;
  return ok({ commands: e.value });
}

/** One DART transaction as JSON: raw bytes as hex, values with the default pump decimals. */
function dartTransaction(t: PumpTransaction | ControllerTransaction | UnknownTransaction): Fields {
  if (t.type === 'unknown') return { ...t, data: toHex(t.data) };
  if (t.type === 'DC2') {
    const v = fillingValues(t);
    return { ...t, volume_l: toFixed(v.volume), amount_value: toFixed(v.amount) };
  }
  if (t.type === 'DC3') return { ...t, unit_price: toFixed(unitPrice(t.price)) };
  return { ...t };
}

/**
 * A captured DART frame. A block says nothing of its direction (the same TRANS is a command one
 * way and a status the other), so its transactions are given read both ways.
 */
function decodeDartCapture(bytes: Uint8Array): Decoded<Fields> {
  const f = decodeDartFrame(bytes);
  if (!f.ok) return f;
  const head = { address: hexNumber(f.value.address), pump: f.value.address - 0x4f };
  if (f.value.type !== 'data') return ok({ ...head, control: f.value.type, tx: f.value.tx });
  const cmd = decodeControllerTransactions(f.value.data);
  const dc = decodePumpTransactions(f.value.data);
  if (!dc.ok) return dc;
  return ok({
    ...head,
    control: 'data',
    tx: f.value.tx,
    from_pump: dc.value.map(dartTransaction),
    from_controller: cmd.ok ? cmd.value.map(dartTransaction) : null,
  });
}

const DECODERS: Record<DecodeProtocol, (bytes: Uint8Array) => Decoded<Fields>> = {
  msr: decodeMsr,
  scanner: decodeScanner,
  'zvt-serial': decodeZvtSerial,
  'zvt-tcp': decodeZvtTcp,
  concert: decodeConcertCapture,
  tls: decodeTlsCapture,
  escpos: decodeEscPosCapture,
  dart: decodeDartCapture,
};

export function decodeCapture(protocol: DecodeProtocol, bytes: Uint8Array): Decoded<Fields> {
  const r = DECODERS[protocol](bytes);
  return r.ok ? ok({ protocol, ...r.value }) : r;
}
