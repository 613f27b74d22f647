// The forecourt slice's reducer: the pumps as answered and as their events change them.
import type { Reducer } from '../../state.js';
import { go } from '../frame/state.js';
import { staleIn, withPumps, type ForecourtEvent } from './state.js';

export const forecourt: Reducer<ForecourtEvent> = {
  'forecourt-open': (state) => (state.status?.staff ? go(state, 'forecourt') : state),
  // An answer may land after an event newer than it (the load was asked first): a pump an
  // event changed since keeps that event's state and fills.
  'forecourt-loaded': (state, event) => {
    const newer = staleIn(state.forecourt, event.forecourt.pumps);
    const known = new Map(state.forecourt.pumps.map((p) => [p.pump, p]));
    const pumps = event.forecourt.pumps.map((p) => (newer.has(p.pump) ? known.get(p.pump)! : p));
    const unpaid = [
      ...event.forecourt.unpaid.filter((f) => !newer.has(f.pump)),
      ...state.forecourt.unpaid.filter((f) => newer.has(f.pump)),
    ].sort((a, b) => (a.finished_at < b.finished_at ? -1 : a.finished_at > b.finished_at ? 1 : 0));
    const { grades } = event.forecourt;
    return { ...state, forecourt: { ...state.forecourt, pumps, unpaid, grades, loaded: true } };
  },
  // An event carries one pump and all its unpaid fills: both replace what was known of it.
  'pump-changed': (state, event) => {
    const { pump, unpaid } = event.event;
    const others = state.forecourt.unpaid.filter((f) => f.pump !== pump.pump);
    const fills = [...others, ...unpaid].sort((a, b) =>
      a.finished_at === b.finished_at ? a.pump - b.pump : a.finished_at < b.finished_at ? -1 : 1,
    );
    return { ...state, forecourt: { ...withPumps(state.forecourt, [pump]), unpaid: fills } };
  },
  // A command's answer (release, stop, authorise) is read when the pump took the command; the
  // pump's next state (authorised, stopped) comes as an event, which may land first.
  'pumps-answered': (state, event) => {
    const stale = staleIn(state.forecourt, event.pumps);
    const fresh = event.pumps.filter((p) => !stale.has(p.pump));
    return { ...state, forecourt: withPumps(state.forecourt, fresh) };
  },
  'prepay-ready': (state, event) => ({
    ...state,
    forecourt: { ...state.forecourt, prepay: event.transactionId },
  }),
  'pump-simulated': (state, event) => ({
    ...state,
    forecourt: {
      ...state.forecourt,
      simulated: { ...state.forecourt.simulated, [event.simulated.pump]: event.simulated },
    },
  }),
};
