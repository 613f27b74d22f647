// The tanks slice's reducer: the readings and the wet stock as answered; a dip or a delivery
// recorded clears its form and says what was kept.
import { formatAmount } from '../../format.js';
import { numberStyle } from '../../i18n.js';
import type { Reducer } from '../../state.js';
import { focusOn, go, withForm, withMessage } from '../frame/state.js';
import type { TanksEvent } from './state.js';

export const tanks: Reducer<TanksEvent> = {
  'tanks-open': (state) => (state.status?.staff ? go(state, 'tanks') : state),
  'tanks-read': (state, event) => ({
    ...state,
    tanks: { ...state.tanks, readings: event.readings, loaded: true },
  }),
  'tank-dipped': (state, event) => {
    const next = withForm(
      { ...state, tanks: { ...state.tanks, readings: event.readings, loaded: true } },
      { 'dip-volume': '', 'dip-water': '', 'dip-temperature': '' },
    );
    const said = withMessage(next, {
      kind: 'notice',
      key: 'tanks.dip-done',
      params: { tank: event.tank },
    });
    return focusOn(said, 'dip-volume');
  },
  'tank-delivered': (state, event) => {
    const d = event.delivery;
    const num = numberStyle(state.settings.language);
    const next = withForm(
      { ...state, tanks: { ...state.tanks, delivery: d } },
      { 'delivery-note': '', 'delivery-before': '', 'delivery-after': '' },
    );
    // read from a gauge that gives volumes at 15 °C: the note's litres, compared alike
    const tc = d.received_tc !== undefined && d.difference_tc !== undefined;
    const said = withMessage(next, {
      kind: 'notice',
      key: tc ? 'tanks.delivery-done-tc' : 'tanks.delivery-done',
      params: {
        tank: d.tank,
        received: formatAmount(d.received, 2, num),
        difference: formatAmount(d.difference, 2, num),
        ...(tc
          ? {
              received_tc: formatAmount(d.received_tc, 2, num),
              difference_tc: formatAmount(d.difference_tc, 2, num),
            }
          : {}),
      },
    });
    return focusOn(said, 'delivery-note');
  },
  'wetstock-loaded': (state, event) => ({
    ...state,
    tanks: { ...state.tanks, report: event.report },
  }),
};
