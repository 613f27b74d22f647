// The forecourt on screen (issue 16; docs/forecourt.md, "The forecourt on screen"): every pump
// as `forecourt-state` answered it and as `pump-state` events changed it since, the fills
// waiting to be paid, a prepay the sale handed over for a pump to be chosen, and the
// simulated pumps' controls of the settings screen (what their last `simulator-pump` said).
import type {
  FillView,
  ForecourtState as Answer,
  PumpGrade,
  PumpStateEvent,
  PumpView,
} from '../../types.js';
import type { SimulatedPump } from '../../types.js';

export interface ForecourtState {
  /** Every pump, by number. */
  pumps: readonly PumpView[];
  /** Every unpaid fill, oldest first. */
  unpaid: readonly FillView[];
  /** Each pump's nozzles with their grade's catalogue name and price (a prepay picks one). */
  grades: readonly PumpGrade[];
  /** `forecourt-state` answered at least once (else the screen says it is loading). */
  loaded: boolean;
  /** A prepay's pump authorisation (its transaction id) waiting for the cashier to pick a pump. */
  prepay: string | null;
  /** What each simulated pump's display showed at its last `simulator-pump`. */
  simulated: Readonly<Record<number, SimulatedPump>>;
}

export type ForecourtField = 'sim-pump' | 'sim-nozzle' | 'sim-litres';

/** The simulated pump controls' first values. */
export const FORECOURT_FORM = { 'sim-pump': '1', 'sim-nozzle': '1', 'sim-litres': '' } as const;

export function initialForecourt(): ForecourtState {
  return { pumps: [], unpaid: [], grades: [], loaded: false, prepay: null, simulated: {} };
}

export type ForecourtEvent =
  | { type: 'forecourt-open' }
  | { type: 'forecourt-loaded'; forecourt: Answer }
  | { type: 'pump-changed'; event: PumpStateEvent }
  /** Pumps as a command (release, stop, resume, authorise) answered them. */
  | { type: 'pumps-answered'; pumps: readonly PumpView[] }
  /** The sale recorded a prepay's pump authorisation: its pump is picked on the forecourt. */
  | { type: 'prepay-ready'; transactionId: string | null }
  | { type: 'pump-simulated'; simulated: SimulatedPump };

// ---- selectors ----

/** A pump's unpaid fills, oldest first. */
export function fillsOf(state: { forecourt: ForecourtState }, pump: number): FillView[] {
  return state.forecourt.unpaid.filter((f) => f.pump === pump);
}

/** A pump may be released (postpay) or authorised for a prepay in these states. */
export function releasable(p: PumpView): boolean {
  return (p.state === 'idle' || p.state === 'calling' || p.state === 'finished') && p.unpaid < 2;
}

export function stoppable(p: PumpView): boolean {
  return p.state === 'authorised' || p.state === 'fuelling' || p.state === 'suspended';
}

export function resumable(p: PumpView): boolean {
  return p.state === 'stopped' || p.state === 'suspended';
}

/** The grades a pump sells, one per code, in nozzle order. */
export function gradesOf(state: { forecourt: ForecourtState }, pump: number): PumpGrade[] {
  const out: PumpGrade[] = [];
  for (const g of state.forecourt.grades)
    if (g.pump === pump && !out.some((o) => o.code === g.code)) out.push(g);
  return out;
}

// ---- updates ----

/** The pumps with `changed` put in their place (by number, kept in order). */
export function withPumps(state: ForecourtState, changed: readonly PumpView[]): ForecourtState {
  const byNumber = new Map(state.pumps.map((p) => [p.pump, p]));
  for (const p of changed) byNumber.set(p.pump, p);
  const pumps = [...byNumber.values()].sort((a, b) => a.pump - b.pump);
  return { ...state, pumps };
}

/**
 * The pumps of an answer (a load, a command's) the screen already knows in a state at least as
 * new: an answer travels apart from the pumps' events and may land after an event newer than
 * it. On a tie the screen's is kept, since every change comes as an event too.
 */
export function staleIn(state: ForecourtState, answered: readonly PumpView[]): Set<number> {
  const known = new Map(state.pumps.map((p) => [p.pump, p]));
  return new Set(
    answered
      .filter((p) => {
        const k = known.get(p.pump);
        return k !== undefined && k.changed_at >= p.changed_at && !samePump(k, p);
      })
      .map((p) => p.pump),
  );
}

const samePump = (a: PumpView, b: PumpView) => JSON.stringify(a) === JSON.stringify(b);
