// The forecourt's actions: the screen opened (F10, the sale screen's button) and loaded, a pump
// released (postpay), authorised for the prepay the sale handed over, stopped (one or all),
// resumed; an unpaid fill's Sell (the sale path's, `fill-sell`); and a person's actions at a
// simulated pump from the settings screen (`simulator-pump`).
import { numberStyle } from '../../i18n.js';
import { toNumber } from '../../money.js';
import { isDec, positive, type Built } from '../../requests.js';
import type { State } from '../../state.js';
import type { Performers, Till } from '../../till.js';
import type { CommandInput, SimulatorPumpAction } from '../../types.js';
import { field } from '../frame/state.js';

export type ForecourtAction =
  | { type: 'forecourt-open' }
  | { type: 'forecourt-load' }
  | { type: 'pump-release'; pump: number }
  | { type: 'pump-prepay'; pump: number }
  | { type: 'pump-stop'; pump: number | null }
  | { type: 'pump-resume'; pump: number }
  /** Sell an unpaid fill: a postpay fill on the check, a prepaid one completes its prepay. */
  | { type: 'fill-sell'; fillId: string }
  | { type: 'fill-drive-off'; fillId: string }
  | { type: 'sim-pump'; action: SimulatorPumpAction };

/** The pumps, their unpaid fills and their grades at the catalogue's prices, as they are now. */
export const loadForecourt = (till: Till) =>
  till.run('forecourt-state', {}, (forecourt) => ({ type: 'forecourt-loaded', forecourt }));

export const forecourtActions: Performers<ForecourtAction> = {
  'forecourt-open': async (till) => {
    till.dispatch({ type: 'forecourt-open' });
    await loadForecourt(till);
  },
  'forecourt-load': async (till) => {
    await loadForecourt(till);
  },
  'pump-release': async (till, { pump }) => {
    await till.run('pump-release', { pump }, (o) => ({ type: 'pumps-answered', pumps: [o.pump] }));
  },
  'pump-prepay': async (till, { pump }) => {
    const id = till.state.forecourt.prepay;
    if (!id) return;
    await till.run('pump-authorise', { pump, transaction_id: id }, (o) => [
      { type: 'pumps-answered', pumps: [o.pump] },
      { type: 'prepay-ready', transactionId: null },
    ]);
  },
  'pump-stop': async (till, { pump }) => {
    await till.run('pump-stop', pump === null ? {} : { pump }, (o) => [
      { type: 'pumps-answered', pumps: o.pumps },
      ...(o.not_stopped.length > 0
        ? [
            {
              type: 'notice' as const,
              key: 'forecourt.not-stopped' as const,
              params: { pumps: o.not_stopped.join('; ') },
            },
          ]
        : []),
    ]);
  },
  'pump-resume': async (till, { pump }) => {
    await till.run('pump-resume', { pump }, (o) => ({ type: 'pumps-answered', pumps: [o.pump] }));
  },
  'fill-sell': async (till, { fillId }) => {
    const fill = till.state.forecourt.unpaid.find((f) => f.id === fillId);
    if (!fill) return;
    if (fill.authorisation_id === null) {
      till.dispatch({ type: 'fill-added', fill });
      return;
    }
    // prepaid: its completion books what the pump dispensed and gives the rest back
    const input = {
      transaction_id: till.newId(),
      check: {
        transaction_type: 'completion' as const,
        preliminary_transaction_id: fill.authorisation_id,
        fills: [fill.id],
      },
    };
    await till.run('sale-process', input, (result) => ({ type: 'sale-done', result }));
    await loadForecourt(till);
  },
  'fill-drive-off': async (till, { fillId }) => {
    await till.run('pump-drive-off', { fill_id: fillId }, (o) => ({
      type: 'notice',
      key: 'forecourt.drive-off-done',
      params: { pump: String(o.fill.pump), amount: o.fill.amount },
    }));
    await loadForecourt(till);
  },
  'sim-pump': async (till, { action }) => {
    const built = simulatorInput(till.state, action);
    if (till.invalid(built)) return;
    await till.run('simulator-pump', built.input, (o) => ({
      type: 'pump-simulated',
      simulated: o.simulated,
    }));
  },
};

/** `simulator-pump` from the settings' controls: the nozzle to lift, the litres to dispense. */
export function simulatorInput(
  state: State,
  action: SimulatorPumpAction,
): Built<CommandInput<'simulator-pump'>> {
  const pump = Number(field(state, 'sim-pump'));
  if (action === 'lift')
    return { input: { pump, action, nozzle: Number(field(state, 'sim-nozzle')) } };
  if (action === 'hang-up') return { input: { pump, action } };
  const text = field(state, 'sim-litres');
  // no litres: until the pump's preset
  if (text.trim() === '') return { input: { pump, action } };
  const litres = positive(text, numberStyle(state.settings.language));
  if (!isDec(litres)) return { errors: { 'sim-litres': litres } };
  return { input: { pump, action, litres: toNumber(litres) } };
}
