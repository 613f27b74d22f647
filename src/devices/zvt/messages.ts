// ZVT commands the ECR sends and the answers it interprets (ECR interface, public revision
// 13.x): registration 06 00, authorisation 06 01, pre-authorisation 06 22, book total 06 24,
// pre-authorisation reversal 06 25, reversal 06 30, refund 06 31, repeat receipt 06 20,
// abort 06 B0, read card 06 C0, display text 06 E0 (BMPs F0..F9), status enquiry 05 01.
import { concatBytes, hexNumber, toHex } from '../bytes.js';
import type { Apdu } from './apdu.js';
import { apduName } from './apdu.js';
import {
  asciiField,
  bcdAmount,
  bcdCurrency,
  type FieldValue,
  fieldValue,
  fromBcd,
  parseBmps,
  toBcd,
} from './bmp.js';

export const EUR = 978;

/** An APDU whose data is `parts` joined. */
export function apdu(cls: number, ins: number, ...parts: Uint8Array[]): Apdu {
  return { cls, ins, data: concatBytes(parts) };
}
const tag = (t: number, body: Uint8Array): Uint8Array => concatBytes([Uint8Array.of(t), body]);

export const ACK_APDU: Apdu = { cls: 0x80, ins: 0x00, data: new Uint8Array(0) };

export function registration(password: string, configByte: number, currency = EUR): Apdu {
  return apdu(0x06, 0x00, toBcd(password, 3), Uint8Array.of(configByte), bcdCurrency(currency));
}

export function authorisation(cents: number, currency = EUR): Apdu {
  return apdu(0x06, 0x01, tag(0x04, bcdAmount(cents)), tag(0x49, bcdCurrency(currency)));
}

export function preAuthorisation(cents: number, currency = EUR): Apdu {
  return apdu(0x06, 0x22, tag(0x04, bcdAmount(cents)), tag(0x49, bcdCurrency(currency)));
}

export function bookTotal(receiptNo: number, cents: number): Apdu {
  return apdu(0x06, 0x24, tag(0x87, toBcd(String(receiptNo), 2)), tag(0x04, bcdAmount(cents)));
}

export function preAuthReversal(receiptNo: number, cents: number): Apdu {
  return apdu(0x06, 0x25, tag(0x87, toBcd(String(receiptNo), 2)), tag(0x04, bcdAmount(cents)));
}

export function reversal(password: string, receiptNo: number): Apdu {
  return apdu(0x06, 0x30, toBcd(password, 3), tag(0x87, toBcd(String(receiptNo), 2)));
}

export function refund(password: string, cents: number, currency = EUR): Apdu {
  return apdu(
    0x06,
    0x31,
    toBcd(password, 3),
    tag(0x04, bcdAmount(cents)),
    tag(0x49, bcdCurrency(currency)),
  );
}

/**
 * Commands that move money (authorisation, pre-authorisation, book total, pre-authorisation
 * reversal, reversal, refund). Once the PT may have received one, it is never sent again
 * (devices.md: only a NAKed frame is repeated).
 */
const MONEY_COMMANDS = new Set([0x0601, 0x0622, 0x0624, 0x0625, 0x0630, 0x0631]);

export function movesMoney(a: Apdu): boolean {
  return MONEY_COMMANDS.has((a.cls << 8) | a.ins);
}

export function repeatReceipt(password: string): Apdu {
  return apdu(0x06, 0x20, toBcd(password, 3));
}

/** Read card: time-out in seconds (binary), then the card types wanted (19, 0 = any). */
export function readCard(timeoutS: number): Apdu {
  return apdu(
    0x06,
    0xc0,
    Uint8Array.of(Math.min(255, Math.max(0, timeoutS))),
    tag(0x19, Uint8Array.of(0)),
  );
}

/** Display text: duration (F0, seconds) and up to eight lines (F1..F8, LL-var ASCII). */
export function displayText(lines: readonly string[], durationS: number): Apdu {
  const parts: Uint8Array[] = [tag(0xf0, Uint8Array.of(Math.min(255, Math.max(0, durationS))))];
  lines.slice(0, 8).forEach((line, i) => parts.push(asciiField(0xf1 + i, line.slice(0, 40))));
  return apdu(0x06, 0xe0, ...parts);
}

/** What the PT reports in its status information (04 0F). */
export interface StatusInfo {
  result_code: number | null;
  amount_cents: number | null;
  receipt_no: number | null;
  trace_no: number | null;
  /** As the PT masks it (digits as `*`); never a clear PAN. */
  pan_masked: string | null;
  card_type: number | null;
  card_name: string | null;
  date: string | null;
  time: string | null;
  terminal_id: number | null;
  /** The authorisation code (BMP 3B, AID), as the PT sends it. */
  auth_code: string | null;
  track2: string | null;
}

export function parseStatusInfo(data: Uint8Array): StatusInfo {
  const info: StatusInfo = {
    result_code: null,
    amount_cents: null,
    receipt_no: null,
    trace_no: null,
    pan_masked: null,
    card_type: null,
    card_name: null,
    date: null,
    time: null,
    terminal_id: null,
    auth_code: null,
    track2: null,
  };
  for (const f of parseBmps(data).fields) {
    const v = fieldValue(f).value;
    const num = typeof v === 'number' ? v : null;
    switch (f.tag) {
      case 0x27:
        info.result_code = num;
        break;
      case 0x04:
        info.amount_cents = num;
        break;
      case 0x87:
        info.receipt_no = num;
        break;
      case 0x0b:
        info.trace_no = num;
        break;
      case 0x22:
        info.pan_masked = String(v);
        break;
      case 0x8a:
        info.card_type = num;
        break;
      case 0x8b:
        info.card_name = String(v);
        break;
      case 0x0d:
        info.date = String(v);
        break;
      case 0x0c:
        info.time = String(v);
        break;
      case 0x29:
        info.terminal_id = num;
        break;
      case 0x3b:
        info.auth_code = String(v).trim() || null;
        break;
      case 0x23:
        // Track 2 of a card read by 06 C0: BCD nibbles, D as the separator, F as padding.
        info.track2 = fromBcd(f.raw).replace(/F+$/, '').replace(/D/g, '=');
        break;
    }
  }
  return info;
}

/** An APDU as JSON for `devices decode` and logs. */
export function describeApdu(a: Apdu): Record<string, unknown> {
  const name = apduName(a.cls, a.ins);
  const out: Record<string, unknown> = {
    class: hexNumber(a.cls),
    instr: hexNumber(a.ins),
    name,
    length: a.data.length,
  };
  if (a.cls === 0x84) out['error_code'] = hexNumber(a.ins);
  let start = 0;
  // Commands that begin with a bare password (3 BCD) or a config byte before their BMPs.
  if (a.cls === 0x06 && a.ins === 0x00) {
    out['password'] = toHex(a.data.subarray(0, 3));
    out['config_byte'] = a.data[3] !== undefined ? hexNumber(a.data[3]) : null;
    out['currency'] = a.data.length >= 6 ? Number(fromBcd(a.data.subarray(4, 6))) : null;
    start = a.data.length;
  } else if (
    (a.cls === 0x05 && a.ins === 0x01) ||
    (a.cls === 0x06 && [0x20, 0x30, 0x31].includes(a.ins))
  ) {
    out['password'] = toHex(a.data.subarray(0, 3));
    start = 3;
  } else if (a.cls === 0x04 && a.ins === 0xff) {
    out['intermediate_status'] = a.data[0] !== undefined ? hexNumber(a.data[0]) : null;
    start = 1;
  } else if (a.cls === 0x06 && a.ins === 0x1e) {
    out['result_code'] = a.data[0] !== undefined ? hexNumber(a.data[0]) : null;
    start = 1;
  } else if (a.cls === 0x06 && a.ins === 0xc0) {
    out['timeout_s'] = a.data[0] ?? null;
    start = 1;
  }
  if (start < a.data.length) {
    const bmps = parseBmps(a.data, start);
    const fields: FieldValue[] = bmps.fields.map(fieldValue);
    out['fields'] = fields;
    if (bmps.rest.length > 0) out['undecoded'] = toHex(bmps.rest);
    if (bmps.error) out['field_error'] = bmps.error;
  }
  return out;
}
