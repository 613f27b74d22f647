// The contract's types as the renderer names them. Types only: the renderer never loads
// src/ at run time (eslint.config.js holds that line), so every shape comes from here.
export type {
  CommandInput,
  CommandName,
  CommandOutput,
  CommandResult,
  DeviceState,
  ErrorBody,
  ErrorResponse,
  EventName,
  EventPayload,
  StaffRole,
  TerminalBridge,
  Warning,
} from '../src/contract/commands.js';
export type {
  CheckCoupon,
  CheckImplementedRule,
  CheckItem,
  CheckResponse,
} from '../src/contract/shared.js';
export type {
  DataRequiredType as DataRequired,
  IdType,
  OdometerUnitType,
  TransactionPaymentType,
} from '../src/contract/enums.js';
// `export type ... from` names nothing here: what this file derives from is imported too.
import type {
  CommandInput,
  CommandOutput,
  DeviceState,
  EventPayload,
} from '../src/contract/commands.js';
import type { CheckImplementedRule, CheckResponse } from '../src/contract/shared.js';

export type Status = CommandOutput<'status'>;
export type Staff = NonNullable<Status['staff']>;
export type Shift = NonNullable<Status['shift']>;
export type SyncState = NonNullable<Status['sync']>;
export type Connection = SyncState['connection'];
export type CustomerSummary = CommandOutput<'customer-identify'>['customer'];
export type CustomerSource = CommandOutput<'customer-identify'>['source'];
export type SaleResult = CommandOutput<'sale-process'>;
export type SaleStatus = CommandOutput<'sale-status'>;
export type CommittedSale = Extract<SaleStatus, { state: 'committed' }>;
export type CancelResult = CommandOutput<'sale-cancel'>;
export type RefundResult = CommandOutput<'sale-refund'>;
export type RecoverResult = CommandOutput<'payment-recover'>;
export type AttentionItem = CommandOutput<'attention-list'>['items'][number];
export type ShiftReport = CommandOutput<'shift-report'>['report'];
export type SyncNowResult = CommandOutput<'sync-now'>;
export type SyncProgress = EventPayload<'sync-progress'>;
export type CustomerDisplay = EventPayload<'customer-display'>;
export type DeviceKind = DeviceState['kind'];
/** The check a UI sends to `check-calc` and `sale-process`. */
export type CheckRequest = CommandInput<'check-calc'>['check'];
export type CheckItemRequest = NonNullable<CheckRequest['check_items']>[number];
export type PaymentRequest = NonNullable<CheckRequest['payments']>[number];
export type RuleNotAppliedReason = NonNullable<
  NonNullable<CheckImplementedRule['implementation_data']>['reason']
>;
export type CheckItemEnterMode = NonNullable<
  NonNullable<CheckResponse['pos']>['check_item_enter_mode']
>;
export type RecentSales = CommandOutput<'sales-recent'>;
export type RecentSale = RecentSales['sales'][number];
export type Reprint = CommandOutput<'receipt-reprint'>;
export type CashMovement = CommandOutput<'cash-movement'>['movement'];
export type CouponBatchOnSale = CommandOutput<'coupon-batches'>['batches'][number];
export type CouponSale = CommandOutput<'coupon-sell'>;
export type BonusOperation = CommandOutput<'bonus-operation'>;
export type PastShift = CommandOutput<'shifts-recent'>['shifts'][number];
export type ForecourtState = CommandOutput<'forecourt-state'>;
export type PumpView = ForecourtState['pumps'][number];
export type FillView = ForecourtState['unpaid'][number];
export type PumpGrade = ForecourtState['grades'][number];
export type PumpStateEvent = EventPayload<'pump-state'>;
export type PumpStateName = PumpView['state'];
export type SimulatedPump = CommandOutput<'simulator-pump'>['simulated'];
export type SimulatorPumpAction = CommandInput<'simulator-pump'>['action'];
export type TankReading = CommandOutput<'tank-readings'>['readings'][number];
export type TankDelivery = CommandOutput<'tank-delivery'>['delivery'];
export type WetStock = CommandOutput<'wetstock-report'>['report'];
export type WetStockLine = WetStock['tanks'][number];
