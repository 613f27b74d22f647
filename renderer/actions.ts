// What the cashier can ask for: one typed union, `Action`, composed of each slice's actions
// (slices/*/actions.ts), that buttons, forms, fields and shortcuts (keys.ts) hand to the
// controller. Each slice maps its actions to what they do: an event the reducer takes as it
// is, or commands whose answers become events. An action nobody handles, or a misspelt one,
// does not compile, and nothing is ever read back from the page as a name.
import { attentionActions, type AttentionAction } from './slices/attention/actions.js';
import { frameActions, type FrameAction } from './slices/frame/actions.js';
import { paymentActions, type PaymentAction } from './slices/payment/actions.js';
import { receiptActions, type ReceiptAction } from './slices/receipt/actions.js';
import { refundActions, type RefundAction } from './slices/refund/actions.js';
import { reportActions, type ReportAction } from './slices/report/actions.js';
import { saleActions, type SaleAction } from './slices/sale/actions.js';
import { settingsActions, type SettingsAction } from './slices/settings/actions.js';
import { signInActions, type SignInAction } from './slices/sign-in/actions.js';
import { recentActions, type RecentAction } from './slices/recent/actions.js';
import { cashActions, type CashAction } from './slices/cash/actions.js';
import { goodsActions, type GoodsAction } from './slices/goods/actions.js';
import { keypadActions, type KeypadAction } from './slices/keypad/actions.js';
import { loyaltyActions, type LoyaltyAction } from './slices/loyalty/actions.js';
import { forecourtActions, type ForecourtAction } from './slices/forecourt/actions.js';
import { tanksActions, type TanksAction } from './slices/tanks/actions.js';
import type { Performers, Till } from './till.js';

/** Everything the cashier can ask for. */
export type Action =
  | FrameAction
  | SignInAction
  | SaleAction
  | PaymentAction
  | ReceiptAction
  | RefundAction
  | AttentionAction
  | ReportAction
  | SettingsAction
  | RecentAction
  | CashAction
  | GoodsAction
  | KeypadAction
  | LoyaltyAction
  | ForecourtAction
  | TanksAction;

/** Every slice's actions (exported for the test that they do not overlap). */
export const ACTION_GROUPS = {
  frame: frameActions,
  signIn: signInActions,
  sale: saleActions,
  payment: paymentActions,
  receipt: receiptActions,
  refund: refundActions,
  attention: attentionActions,
  report: reportActions,
  settings: settingsActions,
  recent: recentActions,
  cash: cashActions,
  goods: goodsActions,
  keypad: keypadActions,
  loyalty: loyaltyActions,
  forecourt: forecourtActions,
  tanks: tanksActions,
} as const;

const PERFORMERS: Performers<Action> = {
  ...frameActions,
  ...signInActions,
  ...saleActions,
  ...paymentActions,
  ...receiptActions,
  ...refundActions,
  ...attentionActions,
  ...reportActions,
  ...settingsActions,
  ...recentActions,
  ...cashActions,
  ...goodsActions,
  ...keypadActions,
  ...loyaltyActions,
  ...forecourtActions,
  ...tanksActions,
};

/** Runs an action. */
export async function perform(till: Till, action: Action): Promise<void> {
  // PERFORMERS[action.type] takes exactly this action's type; TypeScript cannot correlate
  // the two through the union, so the function is called as one of the whole Action.
  const run = PERFORMERS[action.type] as (till: Till, action: Action) => void | Promise<void>;
  await run(till, action);
}
