// The cashier UI's view model, composed of one slice per screen (slices/*/state.ts): each
// slice has its own state, its events and its reducer (slices/*/reduce.ts, composed in
// reduce.ts). The frame's fields (screen, status, message, form, focus…) sit at the top,
// since every view reads them. Everything the screen shows is derived from State, and every
// change goes through `reduce`, so the whole workflow (sign in, sell, pay, refund) is
// testable in Node without a DOM. Effects (API calls, clocks, random ids) are the actions'
// (actions.ts) and come back as events.
import type { Lang } from './i18n.js';
import type { AttentionEvent, AttentionField, AttentionState } from './slices/attention/state.js';
import { initialAttention } from './slices/attention/state.js';
import { initialFrame, type FrameEvent, type FrameState } from './slices/frame/state.js';
import {
  initialPayment,
  PAYMENT_FORM,
  type PaymentEvent,
  type PaymentField,
  type PaymentState,
  type PaymentTarget,
} from './slices/payment/state.js';
import { initialReceipt, type ReceiptEvent, type ReceiptState } from './slices/receipt/state.js';
import {
  initialRefund,
  type RefundEvent,
  type RefundField,
  type RefundState,
} from './slices/refund/state.js';
import {
  initialReport,
  type ReportEvent,
  type ReportField,
  type ReportState,
} from './slices/report/state.js';
import {
  initialSale,
  SALE_FORM,
  type SaleEvent,
  type SaleField,
  type SaleState,
} from './slices/sale/state.js';
import {
  initialSettings,
  type SettingsEvent,
  type SettingsState,
} from './slices/settings/state.js';
import type { SignInEvent, SignInField } from './slices/sign-in/state.js';
import {
  initialRecent,
  RECENT_FORM,
  type RecentEvent,
  type RecentField,
  type RecentState,
} from './slices/recent/state.js';
import {
  initialCash,
  CASH_FORM,
  type CashEvent,
  type CashField,
  type CashState,
} from './slices/cash/state.js';
import { initialGoods, type GoodsEvent, type GoodsState } from './slices/goods/state.js';
import { initialKeypad, type KeypadEvent, type KeypadState } from './slices/keypad/state.js';
import {
  initialForecourt,
  FORECOURT_FORM,
  type ForecourtEvent,
  type ForecourtField,
  type ForecourtState,
} from './slices/forecourt/state.js';
import {
  initialLoyalty,
  LOYALTY_FORM,
  type LoyaltyEvent,
  type LoyaltyField,
  type LoyaltyState,
} from './slices/loyalty/state.js';
import {
  initialTanks,
  TANKS_FORM,
  type TanksEvent,
  type TanksField,
  type TanksState,
} from './slices/tanks/state.js';

export interface State extends FrameState {
  sale: SaleState;
  payment: PaymentState;
  receipt: ReceiptState;
  refund: RefundState;
  attention: AttentionState;
  report: ReportState;
  settings: SettingsState;
  recent: RecentState;
  cash: CashState;
  goods: GoodsState;
  keypad: KeypadState;
  loyalty: LoyaltyState;
  forecourt: ForecourtState;
  tanks: TanksState;
}

/** Every event, each of one slice. */
export type Event =
  | FrameEvent
  | SignInEvent
  | SaleEvent
  | PaymentEvent
  | ReceiptEvent
  | RefundEvent
  | AttentionEvent
  | ReportEvent
  | SettingsEvent
  | RecentEvent
  | CashEvent
  | GoodsEvent
  | KeypadEvent
  | LoyaltyEvent
  | ForecourtEvent
  | TanksEvent;

/** Every input's name: each slice names its own. */
export type FieldName =
  | SignInField
  | SaleField
  | PaymentField
  | RefundField
  | AttentionField
  | ReportField
  | RecentField
  | CashField
  | LoyaltyField
  | ForecourtField
  | TanksField;

/** The text of the inputs, by field name. */
export type Form = Partial<Record<FieldName, string>>;

/** Where a refusal is shown: under a field, or at a place of the payment screen. */
export type Target = FieldName | PaymentTarget;

/** A slice's reducer: one function per event type of its union, each given exactly its event. */
export type Reducer<E extends { type: string }> = {
  [T in E['type']]: (state: State, event: Extract<E, { type: T }>) => State;
};

export function initialState(language: Lang = 'en'): State {
  return {
    ...initialFrame({
      ...SALE_FORM,
      ...PAYMENT_FORM,
      ...RECENT_FORM,
      ...CASH_FORM,
      ...LOYALTY_FORM,
      ...FORECOURT_FORM,
      ...TANKS_FORM,
    }),
    sale: initialSale(),
    payment: initialPayment(),
    receipt: initialReceipt(),
    refund: initialRefund(),
    attention: initialAttention(),
    report: initialReport(),
    settings: initialSettings(language),
    recent: initialRecent(),
    cash: initialCash(),
    goods: initialGoods(),
    keypad: initialKeypad(),
    loyalty: initialLoyalty(),
    forecourt: initialForecourt(),
    tanks: initialTanks(),
  };
}
