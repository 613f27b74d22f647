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

export const PROTOCOLS = [
  'msr',
  'scanner',
  'zvt-serial',
  'zvt-tcp',
  'concert',
  'tls',
  'escpos',
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

export function decodeCapture(
  protocol: DecodeProtocol,
  bytes: Uint8Array,
): Decoded<Record<string, unknown>> {
  switch (protocol) {
    case 'msr': {
      const swipe = parseSwipe(latin1(unframe(bytes)));
      if (!swipe.track1 && !swipe.track2 && swipe.track3 === null) {
        return fail(
          swipe.errors.some((e) => e.includes('sentinel')) ? 'truncated' : 'malformed',
          swipe.errors[0] ?? 'no track in the swipe',
        );
      }
      return ok({
        protocol,
        ...safeSwipe(swipe),
        recognition: new Recognizer().recogniseSwipe(swipe),
      });
    }
    case 'scanner': {
      const scan = parseScan(unframe(bytes));
      if (!scan.ok) return scan;
      return ok({
        protocol,
        ...scan.value,
        recognition: new Recognizer().recogniseScan(scan.value),
      });
    }
    case 'zvt-serial': {
      const f = decodeFrame(bytes);
      if (!f.ok) {
        if (bytes.length === 1 && (bytes[0] === 0x06 || bytes[0] === 0x15)) {
          return ok({ protocol, link: bytes[0] === 0x06 ? 'ACK' : 'NAK' });
        }
        return f;
      }
      return ok({
        protocol,
        crc: hexNumber(f.value.crc, 4),
        apdu: describeApdu(f.value.apdu),
      });
    }
    case 'zvt-tcp': {
      const a = parseApdu(bytes);
      if (!a.ok) return a;
      return ok({ protocol, apdu: describeApdu(a.value) });
    }
    case 'concert': {
      if (bytes.length === 1) {
        const names: Record<number, string> = {
          [ENQ]: 'ENQ',
          [ACK]: 'ACK',
          [NAK]: 'NAK',
          [EOT]: 'EOT',
        };
        const name = names[bytes[0] as number];
        if (name) return ok({ protocol, control: name });
      }
      const m = decodeConcert(bytes);
      if (!m.ok) return m;
      const text = m.value;
      if (text.length === 34 || text.length === 26) {
        const r = parseRequest(text);
        if (!r.ok) return r;
        return ok({
          protocol,
          message: 'request',
          version: text.length === 34 ? 'E+' : 'E',
          ...r.value,
        });
      }
      const a = parseAnswer(text);
      if (!a.ok) return a;
      return ok({ protocol, message: 'answer', ...a.value, accepted: a.value.status === '0' });
    }
    case 'tls': {
      if (bytes[0] === SOH && bytes[bytes.length - 1] !== 0x03 && bytes.length === 7) {
        return ok({ protocol, request: latin1(bytes.subarray(1)) });
      }
      const t = decodeTls(bytes);
      if (!t.ok) return t;
      if (t.value.kind === 'unsupported') return ok({ protocol, unsupported: true });
      if (t.value.body.startsWith('i201')) {
        const inv = parseInventory(t.value.body);
        if (!inv.ok) return inv;
        return ok({ protocol, function: 'i201', ...inv.value });
      }
      return ok({ protocol, function: t.value.body.slice(0, 4), body: t.value.body });
    }
    case 'escpos': {
      const e = decodeEscPos(bytes);
      if (!e.ok) return e;
      return ok({ protocol, commands: e.value });
    }
  }
}
