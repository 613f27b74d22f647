// Shapes the terminal answers, for the renderer's tests: typed by the contract, so a change
// of the command map breaks them at compile time rather than in the browser.
import type {
  AttentionItem,
  CashMovement,
  CouponBatchOnSale,
  CouponSale,
  PastShift,
  RecentSales,
  CheckResponse,
  CommittedSale,
  CustomerSummary,
  DeviceState,
  ForecourtState,
  PumpView,
  SaleResult,
  ShiftReport,
  Status,
  SyncState,
} from '../../renderer/types.js';

export const TERMINAL_ID = '018f0000-0000-7000-8000-000000000001';
export const STAFF_ID = '018f0000-0000-7000-8000-0000000000aa';
export const SHIFT_ID = '018f0000-0000-7000-8000-0000000000bb';
export const CUSTOMER_ID = '018f0000-0000-7000-8000-0000000000cc';
export const TX_ID = '0190c2a4-0000-7000-8000-000000000001';

export const sync: SyncState = {
  connection: 'online',
  outbox_depth: 2,
  outbox_rejected: 0,
  last_contact_at: '2025-01-10T10:00:00Z',
  last_pull_at: '2025-01-10T09:59:00Z',
  cache_age_s: 60,
  clock_skew_s: 0,
  clock_skew_warning: false,
  tls_failure: null,
  running: true,
  standin: { terminal_limit: 1000, terminal_left: 950, spending_until: '2025-01-11T10:00:00Z' },
};

export const shift = {
  id: SHIFT_ID,
  number: 3,
  opened_at: '2025-01-10T08:00:00Z',
  opened_by: { id: STAFF_ID, name: 'Ann' },
  closed_at: null,
  closed_by: null,
};

export function status(over: Partial<Status> = {}): Status {
  return {
    app: { name: 'loyalty-terminal', version: '0.1.0' },
    terminal: { id: TERMINAL_ID, name: 'Till 1' },
    staff: { id: STAFF_ID, name: 'Ann', roles: ['cashier'], signed_in_at: '2025-01-10T08:00:00Z' },
    shift,
    sync,
    attention: 0,
    ready: true,
    ...over,
  };
}

export function customer(over: Partial<CustomerSummary> = {}): CustomerSummary {
  return {
    id: CUSTOMER_ID,
    type: 'customer',
    name: 'Bob',
    access_type: 'full-bonuses-access',
    card_category: { id: '018f0000-0000-7000-8000-0000000000dd', title: 'Gold' },
    corporate_customer_id: null,
    bonuses: { regular: 100, promotional: 20.5, available: 120.5 },
    special_accounts: [
      {
        id: 'acc-1',
        title: 'Fuel card',
        type: 'money',
        currency: 'EUR',
        available: 500,
        pin_required: true,
        payment_type: 'special-account',
      },
    ],
    ...over,
  };
}

export function calcCheck(over: Partial<CheckResponse> = {}): CheckResponse {
  return {
    amount: 30,
    discount_amount: 3,
    amount_to_pay: 27,
    bonuses_added_amount: 1.35,
    bonuses_redeemed_amount: 0,
    amount_decimal_digits: 2,
    check_items: [
      { code: 'A1', title: 'Coffee', quantity: 2, price: 10, amount: 20, discount_amount: 2 },
      { code: 'B2', title: 'Bun', quantity: 1, price: 10, amount: 10, discount_amount: 1 },
    ],
    implemented_rules: [
      {
        id: 'r-auto',
        title: '10% off',
        automatic: 1,
        action_type: 'discount',
        implementation_data: { applied: true, amount: 3 },
      },
      {
        id: 'r-manual',
        title: 'Staff discount',
        automatic: 0,
        action_type: 'discount',
        implementation_data: { applied: false },
      },
      {
        id: 'r-display',
        title: 'Buy 2 more',
        automatic: 3,
        implementation_data: { applied: false, reason: 'display', missing: 2 },
      },
    ],
    pos: { check_item_enter_mode: 'without-limits' },
    ...over,
  };
}

export function saleResult(over: Partial<SaleResult> = {}): SaleResult {
  return {
    transaction_id: TX_ID,
    subtype: 'online',
    check: calcCheck(),
    warnings: [],
    payments: [],
    sync: { state: 'queued', attempts: 0, next_attempt_at: null, error: null },
    receipt_printed: true,
    ...over,
  };
}

export function committed(over: Partial<CommittedSale> = {}): CommittedSale {
  return {
    transaction_id: TX_ID,
    state: 'committed',
    subtype: 'online',
    cancelled: false,
    sync: { state: 'done', attempts: 1, next_attempt_at: null, error: null },
    check: calcCheck(),
    ...over,
  };
}

/** A simulated receipt printer, connected. */
export const printer: DeviceState = {
  kind: 'printer',
  simulated: true,
  protocol: 'escpos',
  transport: 'serial',
  state: 'connected',
  since: null,
  error: null,
};

export function attentionItem(over: Partial<AttentionItem> = {}): AttentionItem {
  return {
    id: '018f0000-0000-7000-8000-0000000000ee',
    kind: 'outbox-rejected',
    created_at: '2025-01-10T09:00:00Z',
    transaction_id: TX_ID,
    message: 'refused by the central service',
    error: { code: 'insufficient-funds', message: 'no funds', path: 'check' },
    resolved_at: null,
    resolved_by: null,
    comment: null,
    ...over,
  };
}

export function report(): ShiftReport {
  return {
    shift,
    currency: 'EUR',
    sales: { count: 4, amount: 120.5 },
    refunds: { count: 1, amount: 10 },
    cancellations: { count: 0, amount: 0 },
    offline_sales: { count: 1, amount: 20 },
    payments: [
      { type: 'cash', count: 3, amount: 100.5 },
      { type: 'bank-card', count: 1, amount: 20 },
    ],
    bonuses: { added: 5, redeemed: 2 },
    expected_cash: 200.5,
    unsynced: 1,
    generated_at: '2025-01-10T12:00:00Z',
  };
}

export const TX_ID_2 = '0190c2a4-0000-7000-8000-000000000002';

/** A `sales-recent` page: a card sale of a customer with one line partly refunded, a cash one. */
export function recentSales(): RecentSales {
  return {
    sales: [
      {
        transaction_id: TX_ID,
        recorded_at: '2025-01-10T10:05:00Z',
        total: 9.46,
        payment_types: ['bank-card'],
        cards: ['411111******4242'],
        customer: { id: CUSTOMER_ID, name: 'Bob', card: '7700001' },
        status: 'committed',
        lines: [
          {
            index: 0,
            title: 'Water',
            quantity: 3,
            amount: 4.47,
            refunded: { quantity: 1, amount: 1.49 },
          },
          {
            index: 1,
            title: 'Sandwich',
            quantity: 1,
            amount: 4.99,
            refunded: { quantity: 0, amount: 0 },
          },
        ],
      },
      {
        transaction_id: TX_ID_2,
        recorded_at: '2025-01-10T09:00:00Z',
        total: 2.5,
        payment_types: ['cash'],
        cards: [],
        customer: null,
        status: 'cancelled',
        lines: [
          {
            index: 0,
            title: 'Coffee',
            quantity: 1,
            amount: 2.5,
            refunded: { quantity: 0, amount: 0 },
          },
        ],
      },
    ],
    next_cursor: '7',
  };
}

/** A paid-in of 20 and a paid-out of 5 in the shift. */
export function movements(): CashMovement[] {
  const staff = { id: STAFF_ID, name: 'Ann' };
  return [
    {
      id: '018f0000-0000-7000-8000-0000000000d1',
      shift_id: SHIFT_ID,
      kind: 'paid-in',
      amount: 20,
      reason: 'change from the bank',
      staff,
      recorded_at: '2025-01-10T09:30:00Z',
    },
    {
      id: '018f0000-0000-7000-8000-0000000000d2',
      shift_id: SHIFT_ID,
      kind: 'paid-out',
      amount: 5,
      reason: 'window cleaner',
      staff,
      recorded_at: '2025-01-10T09:45:00Z',
    },
  ];
}

export const BATCH = '018f0000-0000-7000-8000-0000000001f5';

export function couponBatches(): CouponBatchOnSale[] {
  return [
    {
      id: BATCH,
      title: '10 bonus gift certificate',
      price: { type: 'bonuses', amount: 25 },
      special_account_id: null,
    },
    {
      id: '018f0000-0000-7000-8000-0000000001f6',
      title: 'Partner car wash',
      price: { type: 'special-account', amount: 8.5, currency: 'EUR' },
      special_account_id: null,
    },
  ];
}

export function couponSale(over: Partial<CouponSale> = {}): CouponSale {
  return {
    transaction_id: TX_ID,
    customer_id: CUSTOMER_ID,
    batch_id: BATCH,
    price: { type: 'bonuses', amount: 25 },
    special_account_id: null,
    coupon: { id: TX_ID, code: 'GIFT-10-AB12', title: 'Gift', expire_date: '2027-11-27' },
    balance: 95.5,
    subtype: 'online',
    sync: 'done',
    staff: { id: STAFF_ID, name: 'Ann' },
    recorded_at: '2026-11-27T10:00:00Z',
    ...over,
  };
}

/** Two past shifts: one closed with its Z report printed after two X reports, the open one. */
export function pastShifts(): PastShift[] {
  const closed = {
    ...shift,
    id: '018f0000-0000-7000-8000-0000000000b1',
    number: 1,
    closed_at: '2025-01-09T16:05:00Z',
  };
  const kept = (n: number, kind: 'x' | 'z') => ({
    id: `018f0000-0000-7000-8000-0000000001a${n}`,
    kind,
    printed: true,
    created_at: '2025-01-09T12:00:00Z',
  });
  return [
    { shift, reports: [] },
    { shift: closed, reports: [kept(1, 'x'), kept(2, 'x'), kept(3, 'z')] },
  ];
}

export const pumpsDevice: DeviceState = {
  kind: 'pumps',
  simulated: true,
  protocol: 'wayne-dart',
  transport: 'serial',
  state: 'connected',
  since: null,
  error: null,
};

export const FILL_ID = '018f0000-0000-7000-8000-0000000002f1';

function pump(n: number, over: Partial<PumpView> = {}): PumpView {
  return {
    pump: n,
    state: 'idle',
    nozzle: null,
    filling: null,
    detail: null,
    changed_at: '2026-11-27T09:00:00.000Z',
    authorisation_id: null,
    unpaid: 0,
    release_expires_at: null,
    ...over,
  };
}

/** A forecourt with a pump in each state the cashier tells apart. */
export function forecourtState(): ForecourtState {
  const fill = { volume: '11.37', amount: '20.45', price: '1.799', nozzle: 1 };
  return {
    pumps: [
      pump(1, { state: 'calling', nozzle: 1 }),
      pump(2, {
        state: 'fuelling',
        nozzle: 1,
        filling: { ...fill, volume: '3.20', amount: '5.76' },
      }),
      pump(3, { state: 'finished', filling: fill, unpaid: 1 }),
      pump(4, { state: 'stopped', filling: fill }),
      pump(5, { state: 'offline' }),
    ],
    unpaid: [
      {
        id: FILL_ID,
        pump: 3,
        nozzle: 1,
        grade: 'FUEL-95',
        volume: '11.37',
        amount: '20.45',
        unit_price: '1.799',
        authorisation_id: null,
        state: 'unpaid',
        transaction_id: null,
        finished_at: '2026-11-27T09:01:00.000Z',
      },
    ],
    grades: [
      { pump: 1, nozzle: 1, code: 'FUEL-95', title: 'Super 95', price: '1.759' },
      { pump: 1, nozzle: 2, code: 'DIESEL', title: 'Diesel', price: '1.659' },
      { pump: 1, nozzle: 3, code: 'FUEL-95', title: 'Super 95', price: '1.759' },
      { pump: 2, nozzle: 1, code: 'FUEL-98', title: null, price: null },
    ],
  };
}
