// Tanks and wet stock on screen (issue 16, points 5 and 6; docs/forecourt.md, "Tanks and wet
// stock"): the latest reading of each tank (the gauge's, or a dip entered by hand), a delivery
// recorded against its delivery note, and the open shift's wet stock (book stock against the
// closing reading), printed on request.
import type { TankDelivery, TankReading, WetStock } from '../../types.js';

export interface TanksState {
  readings: readonly TankReading[];
  /** The open shift's wet stock, as last asked; null before. */
  report: WetStock | null;
  /** The delivery this screen recorded last. */
  delivery: TankDelivery | null;
  /** The readings answered at least once (else the screen says it is loading). */
  loaded: boolean;
}

export type TanksField =
  | 'dip-tank'
  | 'dip-volume'
  | 'dip-water'
  | 'dip-temperature'
  | 'delivery-tank'
  | 'delivery-note'
  | 'delivery-before'
  | 'delivery-after';

/** The fields' first values. */
export const TANKS_FORM = { 'dip-tank': '1', 'delivery-tank': '1' } as const;

export function initialTanks(): TanksState {
  return { readings: [], report: null, delivery: null, loaded: false };
}

export type TanksEvent =
  | { type: 'tanks-open' }
  | { type: 'tanks-read'; readings: readonly TankReading[] }
  | { type: 'tank-dipped'; readings: readonly TankReading[]; tank: number }
  | { type: 'tank-delivered'; delivery: TankDelivery }
  | { type: 'wetstock-loaded'; report: WetStock };

/** The tanks a form offers: every tank read or dipped so far, else tank 1. */
export function tankNumbers(state: { tanks: TanksState }): number[] {
  const seen = [...new Set(state.tanks.readings.map((r) => r.tank))].sort((a, b) => a - b);
  return seen.length > 0 ? seen : [1];
}

/** The field a refusal's `path` names, where the cashier fixes it. */
export function tanksFieldOf(
  form: 'dip' | 'delivery',
  path: string | undefined,
): TanksField | null {
  const p = path ?? '';
  if (form === 'dip') {
    if (p.endsWith('volume')) return 'dip-volume';
    if (p.endsWith('water')) return 'dip-water';
    if (p.endsWith('temperature')) return 'dip-temperature';
    if (p.endsWith('tank')) return 'dip-tank';
    return null;
  }
  if (p === 'note_quantity') return 'delivery-note';
  if (p === 'volume_before') return 'delivery-before';
  if (p === 'volume_after') return 'delivery-after';
  if (p === 'tank') return 'delivery-tank';
  return null;
}
