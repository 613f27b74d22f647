// Gauge readings into CheckTank values: the volume before and after a delivery; the dip is
// what the attendant measured by hand.
import type { TankReading } from './i201.js';

export interface TankMapping {
  tank_id?: string;
  code?: string;
  goods_code?: string;
  title?: string;
  /** The tank's capacity, from the station's set-up (the gauge reports ullage, not capacity). */
  volume?: number;
}

export interface CheckTankValues {
  tank_id?: string;
  code?: string;
  goods_code?: string;
  title?: string;
  volume?: number;
  product_volume_before?: number;
  product_volume_after?: number;
  physical_dip_amount?: number;
}

/** Gauge floats carry noise in the last bits; three decimals is what a gauge resolves. */
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function checkTank(
  mapping: TankMapping,
  before: TankReading,
  after: TankReading,
  physicalDip?: number,
): CheckTankValues {
  const out: CheckTankValues = { ...mapping };
  out.product_volume_before = round3(before.volume);
  out.product_volume_after = round3(after.volume);
  if (physicalDip !== undefined) out.physical_dip_amount = physicalDip;
  return out;
}
