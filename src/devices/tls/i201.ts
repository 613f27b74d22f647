// In-tank inventory (i201): per tank its number, product code, status bits and a count of
// big-endian IEEE-754 floats in 8 hex characters: volume, TC volume, ullage, height, water,
// temperature, water volume.
import { type Decoded, fail, ok } from '../bytes.js';

export interface TankReading {
  tank: number;
  product_code: string;
  status_bits: number;
  volume: number;
  tc_volume: number;
  ullage: number;
  height: number;
  water: number;
  temperature: number;
  water_volume: number;
  /** Fields beyond the seven known ones, as sent. */
  extra: number[];
}

export interface Inventory {
  tank_selector: string;
  /** YYMMDDHHmm as the gauge's clock says. */
  gauge_time: string;
  tanks: TankReading[];
}

const FIELDS = [
  'volume',
  'tc_volume',
  'ullage',
  'height',
  'water',
  'temperature',
  'water_volume',
] as const;

export function hexToFloat(hex: string): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, parseInt(hex, 16));
  return view.getFloat32(0);
}

export function floatToHex(x: number): string {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0).toString(16).toUpperCase().padStart(8, '0');
}

export function parseInventory(body: string): Decoded<Inventory> {
  if (!body.startsWith('i201')) return fail('malformed', 'not an i201 answer');
  if (body.length < 16) return fail('truncated', 'i201 answer shorter than its header');
  const selector = body.slice(4, 6);
  const time = body.slice(6, 16);
  if (!/^\d{10}$/.test(time)) return fail('malformed', 'the date is YYMMDDHHmm');
  const tanks: TankReading[] = [];
  let at = 16;
  while (at < body.length) {
    const head = body.slice(at, at + 9);
    if (head.length < 9) return fail('truncated', `tank record at ${at} cut off`);
    if (!/^\d{2}.[0-9A-Fa-f]{4}[0-9A-Fa-f]{2}$/.test(head))
      return fail('malformed', `tank record at ${at} is not TT p ssss NN`);
    const count = parseInt(head.slice(7, 9), 16);
    const end = at + 9 + count * 8;
    if (end > body.length)
      return fail('truncated', `tank ${head.slice(0, 2)} announces ${count} fields`);
    const values: number[] = [];
    for (let k = 0; k < count; k++) {
      const h = body.slice(at + 9 + k * 8, at + 17 + k * 8);
      if (!/^[0-9A-Fa-f]{8}$/.test(h))
        return fail('malformed', `tank ${head.slice(0, 2)} field ${k + 1} is not hex`);
      values.push(hexToFloat(h));
    }
    const reading: TankReading = {
      tank: Number(head.slice(0, 2)),
      product_code: head.slice(2, 3),
      status_bits: parseInt(head.slice(3, 7), 16),
      volume: NaN,
      tc_volume: NaN,
      ullage: NaN,
      height: NaN,
      water: NaN,
      temperature: NaN,
      water_volume: NaN,
      extra: values.slice(FIELDS.length),
    };
    FIELDS.forEach((f, i) => {
      reading[f] = values[i] ?? NaN;
    });
    tanks.push(reading);
    at = end;
  }
  return ok({ tank_selector: selector, gauge_time: time, tanks });
}

export function encodeInventory(inv: Inventory): string {
  let s = `i201${inv.tank_selector}${inv.gauge_time}`;
  for (const t of inv.tanks) {
    const values = [...FIELDS.map((f) => t[f]), ...t.extra];
    s +=
      String(t.tank).padStart(2, '0') +
      t.product_code +
      t.status_bits.toString(16).toUpperCase().padStart(4, '0');
    s +=
      values.length.toString(16).toUpperCase().padStart(2, '0') + values.map(floatToHex).join('');
  }
  return s;
}
