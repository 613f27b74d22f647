// Wayne DART application level: a data block holds transactions `TRANS LNG DATA`, back to back.
// The same TRANS means different things in each direction (CD1 command, DC1 status), so each
// direction has its own decoder. Numbers are packed BCD integers; the decimals are pump
// parameters, applied here through src/money (never floats). Unknown transactions are skipped by
// LNG and kept as values.
import { type Dec, fromMinor, pow10, toFixed } from '../../money/index.js';
import { type Decoded, fail, hexNumber, ok } from '../bytes.js';
import { decodeBcd, encodeBcd } from './bcd.js';

/** CD1 command codes (DCC), Rev 2.11 p.13 as cited by the public implementations. */
export const COMMANDS = {
  'return-status': 0x00,
  'return-pump-parameters': 0x02,
  'return-pump-identity': 0x03,
  'return-filling-information': 0x04,
  reset: 0x05,
  authorize: 0x06,
  stop: 0x08,
  'switch-off': 0x0a,
  suspend: 0x0d,
  resume: 0x0e,
} as const;
export type PumpCommand = keyof typeof COMMANDS;

export const TRANS = {
  CD1: 0x01,
  CD2: 0x02,
  CD3: 0x03,
  CD4: 0x04,
  CD5: 0x05,
  CD101: 0x65,
} as const;
export const DC = { DC1: 0x01, DC2: 0x02, DC3: 0x03, DC5: 0x05, DC101: 0x65, DC102: 0x66 } as const;

/** A transaction this codec does not know (or whose length or digits are off), kept raw. */
export type UnknownTransaction = {
  type: 'unknown';
  trans: number;
  data: Uint8Array;
  reason?: string;
};

/** Controller to pump. Volumes, amounts and prices are raw integers (no decimals on the wire). */
export type ControllerTransaction =
  | { type: 'CD1'; command: PumpCommand }
  | { type: 'CD2'; nozzles: number[] }
  | { type: 'CD3'; volume: number }
  | { type: 'CD4'; amount: number }
  | { type: 'CD5'; prices: number[] }
  | { type: 'CD101'; counter: number };

export type PumpStatus =
  | 'not-programmed'
  | 'reset'
  | 'authorised'
  | 'filling'
  | 'filling-completed'
  | 'max-reached'
  | 'switched-off'
  | 'suspended'
  | 'unknown';

/** DC1 codes. 0x0B is "suspended" on some heads [variant]; 3 and others are unknown. */
const STATUS = new Map<number, PumpStatus>([
  [0, 'not-programmed'],
  [1, 'reset'],
  [2, 'authorised'],
  [4, 'filling'],
  [5, 'filling-completed'],
  [6, 'max-reached'],
  [7, 'switched-off'],
  [8, 'suspended'],
  [0x0b, 'suspended'],
]);

/** DC101 and the DC102 amount-counters variant: COUN, TOTVAL, TOTM1, TOTM2 (raw). */
export interface Counters {
  counter: number;
  total: number;
  meter1: number;
  meter2: number;
}

/** Pump to controller. `code` keeps the status byte as sent (for logs of unknown codes). */
export type PumpTransaction =
  | { type: 'DC1'; status: PumpStatus; code: number }
  | { type: 'DC2'; volume: number; amount: number }
  | { type: 'DC3'; price: number; nozzle: number; nozzleOut: boolean }
  | { type: 'DC5'; alarm: number }
  | ({ type: 'DC101' } & Counters)
  | { type: 'DC102'; variant: 'stand-alone'; enabled: boolean; localAuthorise: boolean }
  | ({ type: 'DC102'; variant: 'amount-counters' } & Counters);

interface Raw {
  trans: number;
  data: Uint8Array;
}

/** Splits a block's data into transactions; refused when an LNG runs past the end. */
export function splitTransactions(data: Uint8Array): Decoded<Raw[]> {
  const out: Raw[] = [];
  let i = 0;
  while (i < data.length) {
    if (i + 2 > data.length) return fail('truncated', `transaction at byte ${i} has no LNG`);
    const trans = data[i] as number;
    const lng = data[i + 1] as number;
    if (i + 2 + lng > data.length)
      return fail('truncated', `transaction ${hexNumber(trans)} says ${lng} bytes, fewer follow`);
    out.push({ trans, data: data.slice(i + 2, i + 2 + lng) });
    i += 2 + lng;
  }
  return ok(out);
}

function joinTransactions(parts: readonly Raw[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) out.push(p.trans, p.data.length, ...p.data);
  return Uint8Array.from(out);
}

/** BCD fields of fixed widths, in order; null when a digit is not decimal. */
function bcdFields(data: Uint8Array, widths: readonly number[]): number[] | null {
  const out: number[] = [];
  let at = 0;
  for (const w of widths) {
    const v = decodeBcd(data.subarray(at, at + w));
    if (v === null) return null;
    out.push(v);
    at += w;
  }
  return out;
}

function bcdAll(values: readonly number[], width: number, field: string): Decoded<number[]> {
  const out: number[] = [];
  for (const v of values) {
    const r = encodeBcd(v, width, field);
    if (!r.ok) return r;
    out.push(...r.value);
  }
  return ok(out);
}

function nozzleList(nozzles: readonly number[]): Decoded<number[]> {
  if (nozzles.length === 0 || nozzles.length > 15)
    return fail('malformed', `allowed nozzles: 1 to 15 of them, not ${nozzles.length}`);
  const bad = nozzles.find((n) => !Number.isInteger(n) || n < 1 || n > 15);
  if (bad !== undefined) return fail('malformed', `allowed nozzle ${bad} is not 1..15`);
  return ok([...nozzles]);
}

function counterNumber(counter: number): Decoded<number[]> {
  const ok1 = (counter >= 0x01 && counter <= 0x09) || (counter >= 0x11 && counter <= 0x19);
  if (!Number.isInteger(counter) || !ok1)
    return fail('malformed', `total counter ${counter} is not 01..09 or 11..19`);
  return ok([counter]);
}

function encodeCd(t: ControllerTransaction): Decoded<number[]> {
  switch (t.type) {
    case 'CD1':
      return ok([COMMANDS[t.command]]);
    case 'CD2':
      return nozzleList(t.nozzles);
    case 'CD3':
      return bcdAll([t.volume], 4, 'preset volume');
    case 'CD4':
      return bcdAll([t.amount], 4, 'preset amount');
    case 'CD5':
      if (t.prices.length === 0 || t.prices.length > 15)
        return fail('malformed', `prices: 1 to 15 of them, not ${t.prices.length}`);
      return bcdAll(t.prices, 3, 'price');
    case 'CD101':
      return counterNumber(t.counter);
  }
}

/** The data of a controller block (one or more transactions); refused when a value does not fit. */
export function encodeControllerTransactions(
  list: readonly ControllerTransaction[],
): Decoded<Uint8Array> {
  const parts: Raw[] = [];
  for (const t of list) {
    const data = encodeCd(t);
    if (!data.ok) return data;
    parts.push({ trans: TRANS[t.type], data: Uint8Array.from(data.value) });
  }
  return ok(joinTransactions(parts));
}

function unknown(raw: Raw, reason?: string): UnknownTransaction {
  return { type: 'unknown', trans: raw.trans, data: raw.data, ...(reason ? { reason } : {}) };
}

const COMMAND_BY_CODE = new Map<number, PumpCommand>(
  Object.entries(COMMANDS).map(([name, code]) => [code, name as PumpCommand]),
);

function decodeCd(raw: Raw): ControllerTransaction | UnknownTransaction {
  const { trans, data } = raw;
  const fixed = (lng: number): boolean => data.length === lng;
  if (trans === TRANS.CD1 && fixed(1)) {
    const command = COMMAND_BY_CODE.get(data[0] as number);
    return command ? { type: 'CD1', command } : unknown(raw, 'unknown command code');
  }
  if (trans === TRANS.CD2 && nozzleList([...data]).ok) return { type: 'CD2', nozzles: [...data] };
  if ((trans === TRANS.CD3 || trans === TRANS.CD4) && fixed(4)) {
    const [v] = bcdFields(data, [4]) ?? [];
    if (v === undefined) return unknown(raw, 'not BCD');
    return trans === TRANS.CD3 ? { type: 'CD3', volume: v } : { type: 'CD4', amount: v };
  }
  if (trans === TRANS.CD5 && data.length > 0 && data.length % 3 === 0) {
    const prices = bcdFields(data, new Array<number>(data.length / 3).fill(3));
    return prices ? { type: 'CD5', prices } : unknown(raw, 'not BCD');
  }
  if (trans === TRANS.CD101 && fixed(1)) return { type: 'CD101', counter: data[0] as number };
  return unknown(raw);
}

/** A controller block's transactions (for the simulator and `devices decode`). */
export function decodeControllerTransactions(
  data: Uint8Array,
): Decoded<(ControllerTransaction | UnknownTransaction)[]> {
  const raws = splitTransactions(data);
  return raws.ok ? ok(raws.value.map(decodeCd)) : raws;
}

function counters(data: Uint8Array): Counters | null {
  const v = bcdFields(data.subarray(1), [5, 5, 5]);
  if (!v) return null;
  const [total, meter1, meter2] = v as [number, number, number];
  return { counter: data[0] as number, total, meter1, meter2 };
}

function decodeDc102(raw: Raw): PumpTransaction | UnknownTransaction {
  const { data } = raw;
  if (data.length === 2)
    return {
      type: 'DC102',
      variant: 'stand-alone',
      enabled: data[0] === 1,
      localAuthorise: data[1] === 1,
    };
  if (data.length === 16) {
    const c = counters(data);
    return c ? { type: 'DC102', variant: 'amount-counters', ...c } : unknown(raw, 'not BCD');
  }
  return unknown(raw, `DC102 of ${data.length} bytes (2 or 16 known)`);
}

/** LNG of the fixed-length pump transactions. */
const DC_LENGTHS = new Map<number, number>([
  [DC.DC1, 1],
  [DC.DC2, 8],
  [DC.DC3, 4],
  [DC.DC5, 1],
  [DC.DC101, 16],
]);

/** Decodes one pump transaction; a known TRANS with an unexpected length stays unknown. */
function decodeDc(raw: Raw): PumpTransaction | UnknownTransaction {
  const { trans, data } = raw;
  if (trans === DC.DC102) return decodeDc102(raw);
  const lng = DC_LENGTHS.get(trans);
  if (lng === undefined) return unknown(raw);
  if (data.length !== lng) return unknown(raw, `${data.length} bytes, ${lng} expected`);
  const first = data[0] as number;
  if (trans === DC.DC1) return { type: 'DC1', status: STATUS.get(first) ?? 'unknown', code: first };
  if (trans === DC.DC5) return { type: 'DC5', alarm: first };
  if (trans === DC.DC101) {
    const c = counters(data);
    return c ? { type: 'DC101', ...c } : unknown(raw, 'not BCD');
  }
  if (trans === DC.DC2) {
    const v = bcdFields(data, [4, 4]);
    return v
      ? { type: 'DC2', volume: v[0] as number, amount: v[1] as number }
      : unknown(raw, 'not BCD');
  }
  const price = decodeBcd(data.subarray(0, 3));
  if (price === null) return unknown(raw, 'not BCD');
  const nozio = data[3] as number;
  return { type: 'DC3', price, nozzle: nozio & 0x0f, nozzleOut: (nozio & 0x10) !== 0 };
}

/** A pump block's transactions; refused only when the block structure (LNG) is broken. */
export function decodePumpTransactions(
  data: Uint8Array,
): Decoded<(PumpTransaction | UnknownTransaction)[]> {
  const raws = splitTransactions(data);
  return raws.ok ? ok(raws.value.map(decodeDc)) : raws;
}

function encodeCounters(c: Counters): Decoded<number[]> {
  const v = bcdAll([c.total, c.meter1, c.meter2], 5, 'total counter');
  return v.ok ? ok([c.counter, ...v.value]) : v;
}

function encodeDc(t: PumpTransaction): Decoded<number[]> {
  switch (t.type) {
    case 'DC1':
      return ok([t.code]);
    case 'DC2': {
      const v = bcdAll([t.volume], 4, 'volume');
      const a = bcdAll([t.amount], 4, 'amount');
      return !v.ok ? v : !a.ok ? a : ok([...v.value, ...a.value]);
    }
    case 'DC3': {
      const p = bcdAll([t.price], 3, 'price');
      const nozio = (t.nozzle & 0x0f) | (t.nozzleOut ? 0x10 : 0);
      return p.ok ? ok([...p.value, nozio]) : p;
    }
    case 'DC5':
      return ok([t.alarm]);
    case 'DC101':
      return encodeCounters(t);
    case 'DC102':
      if (t.variant === 'amount-counters') return encodeCounters(t);
      return ok([t.enabled ? 1 : 0, t.localAuthorise ? 1 : 0]);
  }
}

/** The data of a pump block (for the simulator); refused when a value does not fit. */
export function encodePumpTransactions(list: readonly PumpTransaction[]): Decoded<Uint8Array> {
  const parts: Raw[] = [];
  for (const t of list) {
    const data = encodeDc(t);
    if (!data.ok) return data;
    parts.push({ trans: DC[t.type], data: Uint8Array.from(data.value) });
  }
  return ok(joinTransactions(parts));
}

/** Decimal positions of one pump (DPVOL, DPAMO, DPUNP); they are configured, not on the wire. */
export interface DartDecimals {
  volume: number;
  amount: number;
  price: number;
}

export const DEFAULT_DECIMALS: DartDecimals = { volume: 2, amount: 2, price: 3 };

/** A raw wire integer as an exact decimal: 1175 at 3 decimals is 1.175. */
export function fromWire(raw: number, digits: number): Dec {
  return fromMinor(raw, digits);
}

/** An exact decimal as the wire integer; refused when negative or finer than `digits`. */
export function toWire(value: Dec, digits: number, field: string): Decoded<number> {
  const text = toFixed(value);
  if (value.units < 0n) return fail('malformed', `${field} ${text} is negative`);
  let units: bigint;
  if (value.scale <= digits) units = value.units * pow10(digits - value.scale);
  else {
    const step = pow10(value.scale - digits);
    if (value.units % step !== 0n)
      return fail('malformed', `${field} ${text} has more than ${digits} decimals`);
    units = value.units / step;
  }
  if (units > BigInt(Number.MAX_SAFE_INTEGER))
    return fail('malformed', `${field} ${text} is too large`);
  return ok(Number(units));
}

/** DC2's volume and amount with the pump's decimals. */
export function fillingValues(
  dc2: { volume: number; amount: number },
  decimals: DartDecimals = DEFAULT_DECIMALS,
): { volume: Dec; amount: Dec } {
  return {
    volume: fromWire(dc2.volume, decimals.volume),
    amount: fromWire(dc2.amount, decimals.amount),
  };
}

/** DC3's (or CD5's) unit price with the pump's decimals. */
export function unitPrice(raw: number, decimals: DartDecimals = DEFAULT_DECIMALS): Dec {
  return fromWire(raw, decimals.price);
}
