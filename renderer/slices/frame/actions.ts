// The frame's actions: moving between screens (each loads what it shows), Esc, the message
// line, the focus shortcuts, and typing.
import type { FieldName } from '../../state.js';
import { send, type Performers } from '../../till.js';
import type { NavScreen } from './state.js';

export type FrameAction =
  | { type: 'nav'; screen: NavScreen | 'shift-open' }
  | { type: 'back' }
  | { type: 'dismiss' }
  | { type: 'focus'; testid: string }
  | { type: 'field'; name: FieldName; value: string };

export const frameActions: Performers<FrameAction> = {
  nav: async (till, { screen }) => {
    if (screen === 'refund') till.dispatch({ type: 'refund-open', transactionId: null });
    else till.dispatch({ type: 'navigate', screen });
    if (screen === 'attention') await till.loadAttention();
    if (screen === 'report' || screen === 'cash') await till.loadReport();
    if (screen === 'recent') await till.perform({ type: 'recent-search' });
    if (screen === 'settings') {
      await Promise.all([till.refreshStatus(), till.refreshDevices()]);
      // the simulated pumps' controls list the pumps
      if (till.state.devices.some((d) => d.kind === 'pumps'))
        await till.perform({ type: 'forecourt-load' });
    }
    if (screen === 'sale' && till.state.sale.calc.check === null) await till.calculate();
  },
  back: send,
  dismiss: send,
  focus: send,
  field: send,
};
