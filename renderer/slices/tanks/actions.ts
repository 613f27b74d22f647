// The tanks screen's actions: opened from the forecourt (its readings and the shift's wet
// stock loaded), the gauge read now, a dip entered, a delivery recorded, the wet stock printed.
// A refusal that names a field puts the focus there (its words are the message line's).
import type { Event } from '../../state.js';
import type { Performers, Till } from '../../till.js';
import type { ErrorBody } from '../../types.js';
import { deliveryInput, dipInput } from './input.js';
import { tanksFieldOf } from './state.js';

export type TanksAction =
  | { type: 'tanks-open' }
  | { type: 'tanks-gauge' }
  | { type: 'tank-dip' }
  | { type: 'tank-delivery' }
  | { type: 'wetstock-print' };

const readings = (till: Till, read = false) =>
  till.run('tank-readings', read ? { read } : {}, (o) => ({
    type: 'tanks-read',
    readings: o.readings,
  }));

const wetStock = (till: Till, print = false) =>
  till.run('wetstock-report', print ? { print } : {}, (o): Event[] => [
    { type: 'wetstock-loaded', report: o.report },
    ...(print ? [{ type: 'notice' as const, key: 'tanks.printed' as const }] : []),
  ]);

/** A refusal of a form's command: the message line, and the focus on its field. */
const refusedAt =
  (till: Till, form: 'dip' | 'delivery', fallback: string) =>
  (error: ErrorBody): Event => {
    till.dispatch({ type: 'failed', error });
    return { type: 'focus', testid: tanksFieldOf(form, error.path) ?? fallback };
  };

export const tanksActions: Performers<TanksAction> = {
  'tanks-open': async (till) => {
    till.dispatch({ type: 'tanks-open' });
    await readings(till);
    await wetStock(till);
  },
  'tanks-gauge': async (till) => {
    if (await readings(till, true)) await wetStock(till);
  },
  'tank-dip': async (till) => {
    const built = dipInput(till.state);
    if (till.invalid(built)) return;
    const tank = built.input.dip?.tank ?? 0;
    const ok = await till.run(
      'tank-readings',
      built.input,
      (o) => ({ type: 'tank-dipped', readings: o.readings, tank }),
      refusedAt(till, 'dip', 'dip-volume'),
    );
    if (ok) await wetStock(till);
  },
  'tank-delivery': async (till) => {
    const built = deliveryInput(till.state);
    if (till.invalid(built)) return;
    const ok = await till.run(
      'tank-delivery',
      built.input,
      (o) => ({ type: 'tank-delivered', delivery: o.delivery }),
      refusedAt(till, 'delivery', 'delivery-note'),
    );
    if (ok) await wetStock(till);
  },
  'wetstock-print': async (till) => {
    await wetStock(till, true);
  },
};
