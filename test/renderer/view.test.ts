// The views are pure: render every screen from a view model (Preact components expanded to
// plain elements, tree.ts) and check what a cashier and a browser test rely on: labelled
// inputs, buttons with text that ask for a known action, and the data-testids README.md
// documents.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_GROUPS, type Action } from '../../renderer/actions.js';
import { dateStyle, numberStyle, translator } from '../../renderer/i18n.js';
import { initialState, type Event, type State } from '../../renderer/state.js';
import { reduce } from '../../renderer/reduce.js';
import { rowChanged } from '../../renderer/views/lines.js';
import { ruleChanged, rulesChanged } from '../../renderer/views/offers.js';
import { view } from '../../renderer/views/page.js';
import { fieldTestid } from '../../renderer/slices/frame/state.js';
import {
  attentionItem,
  calcCheck,
  committed,
  couponBatches,
  couponSale,
  customer,
  pastShifts,
  printer,
  report,
  saleResult,
  status,
  movements,
  recentSales,
  TX_ID,
  forecourtState,
  pumpsDevice,
} from './fixtures.js';
import { byTestId, elements, textOf, tree, type El } from './tree.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);
const render = (s: State, act: (a: Action) => void = () => undefined): El =>
  tree(view(s, translator('en'), numberStyle('en'), dateStyle('en', 'UTC'), act));

/** What `receipt-reprint` answers: the copy as printed. */
const copyOf = (id: string) => ({
  transaction_id: id,
  receipt_printed: true,
  receipt: {
    width: 32,
    rows: [
      { kind: 'text' as const, text: 'COPY', align: 'center' as const, bold: true, large: true },
    ],
  },
});

const manager = status({ staff: { ...status().staff!, roles: ['manager'] }, attention: 2 });

/** Every screen, filled in as far as it goes. */
function screens(): Record<string, State> {
  const base = run(
    initialState(),
    {
      type: 'status',
      status: {
        ...manager,
        sync: { ...manager.sync!, clock_skew_warning: true, outbox_rejected: 1 },
      },
    },
    { type: 'devices', devices: [printer] },
    { type: 'presets', presets: [{ code: 'CF', title: 'Coffee', price: 2 }] },
    {
      type: 'sync-progress',
      progress: { phase: 'snapshot', done: 1, total: 10, sync: manager.sync! },
    },
  );
  const sale = run(
    base,
    {
      type: 'customer-identified',
      output: { customer: customer(), source: 'cache' },
      identity: { id: '12345', id_type: 'card' },
    },
    { type: 'field', name: 'item-code', value: 'A1' },
    { type: 'field', name: 'item-price', value: '10' },
    { type: 'item-add' },
    { type: 'field', name: 'item-code', value: 'B2' },
    { type: 'field', name: 'item-price', value: '10' },
    { type: 'item-add' },
    { type: 'field', name: 'bonuses', value: '5' },
    { type: 'bonuses-apply' },
    { type: 'field', name: 'coupon-code', value: 'C1' },
    { type: 'coupon-add' },
    { type: 'calc-started', seq: 1 },
    {
      type: 'calc-done',
      seq: 1,
      result: {
        check: calcCheck({
          services_amount: 1,
          redeemed_coupons: [{ code: 'C1', valid: true, applicable: true }],
          special_account_pin_required: true,
          special_account_odometer_required: 'required',
          special_account_vehicle_id_required: 'optional',
        }),
        warnings: [{ code: 'bonuses-redeemed-capped', message: 'capped', path: 'check' }],
      },
    },
  );
  const cashPayment = run(
    sale,
    { type: 'payment-open', transactionId: TX_ID },
    { type: 'field', name: 'tender-amount', value: '7' },
    { type: 'tender-add' },
  );
  const accountPayment = run(
    sale,
    { type: 'payment-open', transactionId: TX_ID },
    { type: 'payment-method', method: 'special-account' },
    { type: 'payment-account', accountId: 'acc-1' },
  );
  const unknown = run(cashPayment, {
    type: 'sale-failed',
    error: { code: 'unreachable', message: '', path: '' },
  });
  const receipt = run(
    sale,
    { type: 'payment-open', transactionId: TX_ID },
    {
      type: 'sale-done',
      result: saleResult({
        subtype: 'offline',
        check: calcCheck({
          emitted_coupons: [{ code: 'T01-000001' }],
          payments: [{ type: 'cash', amount: 27 }],
        }),
        payments: [
          {
            payment_id: TX_ID,
            transaction_id: TX_ID,
            operation: 'purchase',
            status: 'success',
            amount: 27,
            card: '400000******1234',
          },
        ],
        cash: { given: 30, change: 3 },
        receipt: {
          width: 42,
          rows: [
            { kind: 'drawer', pin: 2 },
            { kind: 'text', text: 'Demo Station Nord', align: 'center', bold: false, large: false },
            { kind: 'text', text: 'TOTAL    27.00', align: 'left', bold: true, large: true },
            { kind: 'barcode', symbology: 'CODE128', data: 'T01-000001' },
            { kind: 'qr', data: 'https://fb.example/dn' },
            { kind: 'cut' },
          ],
        },
      }),
    },
  );
  const refund = run(
    receipt,
    { type: 'refund-open', transactionId: TX_ID },
    { type: 'refund-loaded', output: committed() },
  );
  const refunded = run(refund, {
    type: 'refund-done',
    output: {
      transaction_id: TX_ID,
      original_transaction_id: TX_ID,
      check: calcCheck(),
      warnings: [],
      payments: [],
      paid_back: [{ type: 'cash', amount: 27 }],
      owed: { bonuses: 3 },
      sync: committed().sync,
    },
  });
  const cancelled = run(refund, {
    type: 'cancel-done',
    output: {
      transaction_id: TX_ID,
      check: calcCheck(),
      warnings: [],
      payments: [],
      paid_back: [{ type: 'cash', amount: 27 }],
      sync: committed().sync,
    },
  });
  const attention = run(
    base,
    { type: 'navigate', screen: 'attention' },
    {
      type: 'attention-loaded',
      items: [
        attentionItem(),
        attentionItem({
          id: '018f0000-0000-7000-8000-0000000000ef',
          resolved_at: '2025-01-10T10:00:00Z',
          resolved_by: { id: TX_ID, name: 'Ann' },
          comment: 'ok',
        }),
      ],
    },
  );
  const reportOpen = run(
    base,
    { type: 'navigate', screen: 'report' },
    { type: 'report-loaded', report: report() },
  );
  const reportClosed = run(reportOpen, { type: 'shift-closed', report: report() });
  const reportPast = run(reportOpen, { type: 'past-loaded', shifts: pastShifts() });
  const recentList = run(
    base,
    { type: 'navigate', screen: 'recent' },
    { type: 'recent-loaded', output: recentSales(), query: {}, more: false },
  );
  const recentSale = run(
    recentList,
    { type: 'recent-select', transactionId: TX_ID },
    { type: 'recent-reprinted', output: copyOf(TX_ID) },
  );
  const refundFromRecent = run(
    recentSale,
    { type: 'refund-open', transactionId: TX_ID, refunded: [{ index: 0, quantity: 1 }] },
    { type: 'refund-loaded', output: committed() },
  );
  const withFloat = { ...report().shift, opening_cash: 100 };
  const cashOpen = run(
    base,
    { type: 'navigate', screen: 'cash' },
    {
      type: 'report-loaded',
      report: { ...report(), shift: withFloat, cash_movements: movements() },
    },
  );
  const closedShift = { ...withFloat, closed_at: '2025-01-10T18:00:00Z', counted_cash: 198.5 };
  const cashClosed = run(
    cashOpen,
    { type: 'shift-closed', report: { ...report(), shift: closedShift } },
    { type: 'status', status: { ...manager, shift: null } },
  );
  const loyalty = run(
    sale,
    { type: 'navigate', screen: 'loyalty' },
    { type: 'batches-loaded', batches: couponBatches() },
    { type: 'coupon-sold', sale: couponSale() },
  );
  return {
    loyalty,
    loyaltyCashier: run(loyalty, { type: 'status', status: status() }),
    signIn: run(initialState(), {
      type: 'failed',
      error: {
        code: 'staff-locked',
        message: 'locked',
        path: 'auth_code',
        details: { retry_after_s: 30 },
      },
    }),
    shiftOpen: run(base, { type: 'status', status: status({ shift: null }) }),
    emptySale: base,
    sale,
    cashPayment,
    accountPayment,
    unknown,
    receipt,
    refund,
    refunded,
    cancelled,
    attention,
    reportOpen,
    reportClosed,
    reportPast,
    recentList,
    recentEmpty: run(recentList, {
      type: 'recent-loaded',
      output: { sales: [], next_cursor: null },
      query: { amount: 1 },
      more: false,
    }),
    recentSale,
    refundFromRecent,
    cashOpen,
    cashClosed,
    settings: run(base, { type: 'navigate', screen: 'settings' }),
    settingsPumps: run(
      base,
      { type: 'devices', devices: [printer, pumpsDevice] },
      { type: 'forecourt-loaded', forecourt: forecourtState() },
      { type: 'navigate', screen: 'settings' },
      {
        type: 'pump-simulated',
        simulated: { pump: 1, nozzle: 2, volume: '1.50', amount: '2.70', flowing: true },
      },
    ),
    forecourt: run(
      base,
      { type: 'forecourt-open' },
      { type: 'forecourt-loaded', forecourt: forecourtState() },
      { type: 'prepay-ready', transactionId: TX_ID },
    ),
    prepaySale: run(
      base,
      { type: 'forecourt-open' },
      { type: 'forecourt-loaded', forecourt: forecourtState() },
      { type: 'prepay-for', pump: 1 },
    ),
    tanks: run(
      base,
      { type: 'tanks-open' },
      {
        type: 'tanks-read',
        readings: [
          {
            tank: 1,
            source: 'gauge',
            goods_code: 'FUEL-95',
            volume: 12345.5,
            water: 0.5,
            temperature: 14.2,
            ullage: 7654.5,
            read_at: '2026-11-27T08:00:00.000Z',
          },
          { tank: 2, source: 'dip', volume: 800, read_at: '2026-11-27T08:00:00.000Z' },
        ],
      },
      {
        type: 'wetstock-loaded',
        report: {
          period: {
            kind: 'shift',
            from: '2026-11-27T06:00:00.000Z',
            to: '2026-11-27T08:00:00.000Z',
          },
          sales_source: 'totalizers',
          threshold_percent: 0.5,
          tanks: [
            {
              tank: 1,
              goods_code: 'FUEL-95',
              opening: 12000,
              deliveries: 995,
              sales: 650,
              book: 12345,
              closing: 12345.5,
              variance: 0.5,
              variance_percent: 0.08,
              over_threshold: false,
            },
          ],
          grades: [
            {
              goods_code: 'FUEL-95',
              opening: 12000,
              deliveries: 995,
              sales: 650,
              book: 12345,
              closing: 12345.5,
              variance: 0.5,
              variance_percent: 0.08,
              over_threshold: false,
            },
          ],
          generated_at: '2026-11-27T08:00:00.000Z',
        },
      },
    ),
    offline: run(base, {
      type: 'status',
      status: { ...manager, sync: { ...manager.sync!, connection: 'offline' } },
    }),
    session: run(base, { type: 'session-expired' }),
  };
}

const all = screens();

describe('views', () => {
  it('say while offline since when, what waits to be sent and what may still be spent', () => {
    const banner = byTestId(render(all.offline!), 'offline-banner');
    expect(banner).toBeDefined();
    expect(textOf(banner!)).toContain('OFFLINE since');
    expect(textOf(byTestId(banner!, 'offline-queued')!)).toBe('Waiting to be sent: 2');
    expect(textOf(byTestId(banner!, 'offline-allowance')!)).toMatch(
      /may still spend 950\.00 of 1,000\.00 offline, until /,
    );
  });

  it('show no offline banner while online', () => {
    expect(byTestId(render(all.sale!), 'offline-banner')).toBeUndefined();
  });

  it('show a refused secure link on the status bar under its code', () => {
    const tls_failure = {
      code: 'tls-pin-mismatch',
      message: "the central service's key is not one of the pinned keys",
      since: '2025-01-10T10:00:00Z',
    };
    const s = run(initialState(), {
      type: 'status',
      status: { ...manager, sync: { ...manager.sync!, connection: 'offline', tls_failure } },
    });
    expect(textOf(byTestId(render(s), 'status-tls-failure')!)).toBe(
      'Secure link refused: tls-pin-mismatch',
    );
    expect(
      byTestId(
        render(run(initialState(), { type: 'status', status: manager })),
        'status-tls-failure',
      ),
    ).toBeUndefined();
  });

  it('show a database recovered at start on the attention list, with what happened', () => {
    const message =
      "The terminal's database was damaged; it was set aside and the backup manual-1.sqlite was restored.";
    const s = run(
      initialState(),
      { type: 'status', status: status({ attention: 1 }) },
      { type: 'navigate', screen: 'attention' },
      { type: 'attention-loaded', items: [attentionItem({ kind: 'store-recovered', message })] },
    );
    const tree = render(s);
    expect(textOf(byTestId(tree, 'status-attention')!)).toBe('Attention: 1');
    expect(textOf(byTestId(tree, 'attention-item-0-kind')!)).toBe(
      'Damaged database recovered from a backup',
    );
    expect(textOf(byTestId(tree, 'attention-item-0-message')!)).toBe(message);
  });

  it('say in words that a coupon belongs to another customer', () => {
    const s = run(
      all.sale!,
      { type: 'calc-started', seq: 2 },
      {
        type: 'calc-done',
        seq: 2,
        result: {
          check: calcCheck({
            redeemed_coupons: [
              { code: 'C1', valid: false, applicable: false, error: 'other-customer' },
            ],
          }),
          warnings: [],
        },
      },
    );
    expect(textOf(byTestId(render(s), 'coupon-0-state')!)).toBe(
      'not valid: belongs to another customer',
    );
  });

  it('show a cash refusal with the cash due and given, not the terminal’s message', () => {
    const s = run(all.cashPayment!, {
      type: 'sale-failed',
      error: {
        code: 'cash-short',
        message: 'the cash given (5) is less than the 7 to pay in cash',
        path: 'cash_given',
        details: { cash_due: 7, cash_given: 5 },
      },
    });
    expect(textOf(byTestId(render(s), 'message-text')!)).toBe(
      'Not enough cash: 7 is to be paid in cash, 5 was given.',
    );
  });

  it('render the expected screen', () => {
    expect(byTestId(render(all.sale!), 'screen-sale')).toBeDefined();
    expect(byTestId(render(all.cashPayment!), 'screen-payment')).toBeDefined();
    expect(byTestId(render(all.session!), 'session-expired')).toBeDefined();
  });

  it('label every input and select', () => {
    for (const [name, s] of Object.entries(all)) {
      const tree = render(s);
      const labels = new Set(
        elements(tree)
          .filter((e) => e.tag === 'label')
          .map((e) => e.attrs.for),
      );
      for (const e of elements(tree)) {
        if ((e.tag === 'input' && e.attrs.type !== 'checkbox') || e.tag === 'select') {
          expect(
            labels.has(e.attrs.id as string),
            `${name}: ${String(e.attrs['data-testid'])}`,
          ).toBe(true);
        }
      }
    }
  });

  it('give every button a test id and a name', () => {
    for (const s of Object.values(all)) {
      for (const e of elements(render(s)).filter((x) => x.tag === 'button')) {
        expect(e.attrs['data-testid']).toBeTruthy();
        expect(textOf(e).trim() || e.attrs.title).toBeTruthy();
      }
    }
  });

  it('use no inline style, which the CSP refuses', () => {
    for (const s of Object.values(all)) {
      expect(elements(render(s)).filter((e) => 'style' in e.attrs)).toEqual([]);
    }
  });

  it('show the engine amounts at the check digits', () => {
    const tree = render(all.sale!);
    expect(textOf(byTestId(tree, 'totals-to-pay')!)).toBe('27.00');
    expect(textOf(byTestId(tree, 'line-0-amount')!)).toBe('20.00');
    expect(textOf(byTestId(tree, 'status-connection')!)).toBe('Online');
  });

  it("key the check's rows by their line, so a removal moves no other row", () => {
    const keys = (s: State) =>
      elements(render(s))
        .filter((e) => e.tag === 'tr' && /^line-\d+$/.test(String(e.attrs['data-testid'])))
        .map((e) => e.key);
    const before = keys(all.sale!);
    expect(before).toEqual(all.sale!.sale.draft.lines.map((l) => l.key));
    expect(keys(run(all.sale!, { type: 'line-remove', index: 0 }))).toEqual(before.slice(1));
  });

  it('show on the receipt the cash given and the change the terminal recorded', () => {
    const tree = render(all.receipt!);
    expect(textOf(byTestId(tree, 'receipt-cash-given')!)).toContain('30.00');
    expect(textOf(byTestId(tree, 'receipt-change')!)).toContain('3.00');
  });

  it('draw the receipt as printed, row by row, from the bytes the terminal decoded', () => {
    const tree = render(all.receipt!);
    const row = (i: number) => byTestId(tree, `receipt-paper-${i}`)!;
    expect(textOf(row(0))).toBe('[cash drawer opened]');
    expect(textOf(row(1))).toBe('Demo Station Nord');
    expect(row(1).attrs.class).toContain('align-center');
    expect(row(2).attrs.class).toContain('large');
    expect(textOf(row(3))).toBe('[CODE128 barcode: T01-000001]');
    const qr = elements(row(4)).find((e) => e.tag === 'svg')!;
    expect(qr.attrs['data-text']).toBe('https://fb.example/dn');
    expect(qr.attrs['aria-label']).toBe('[QR code: https://fb.example/dn]');
    expect(textOf(row(5))).toBe('- - - cut - - -');
  });

  it('say in words why an offer found no item or found its items taken (engine.md 17.9)', () => {
    const s = run(
      all.sale!,
      { type: 'calc-started', seq: 2 },
      {
        type: 'calc-done',
        seq: 2,
        result: {
          check: calcCheck({
            implemented_rules: [
              {
                id: 'r1',
                title: 'Coffee -10%',
                automatic: 1,
                action_type: 'discount',
                implementation_data: { applied: false, reason: 'no-line' },
              },
              {
                id: 'r2',
                title: 'Bun -5%',
                automatic: 1,
                action_type: 'discount',
                implementation_data: { applied: false, reason: 'lines-taken' },
              },
            ],
          }),
          warnings: [],
        },
      },
    );
    // they do not concern these lines: listed on request only, the button says how many
    const few = render(s);
    expect(byTestId(few, 'rule-0')).toBeUndefined();
    expect(textOf(byTestId(few, 'rules-all')!)).toBe(
      '2 more rules that do not concern these lines',
    );
    const tree = render(run(s, { type: 'rules-all', show: true }));
    expect(textOf(byTestId(tree, 'rule-0')!)).toContain('no item on the check for this offer');
    expect(textOf(byTestId(tree, 'rule-1')!)).toContain('other offers already took these items');
  });

  it("leave the offers' rows as they are while a calculation runs, and rebuild them on its answer", () => {
    const sale = all.sale!;
    const running = run(sale, { type: 'calc-started', seq: 2 });
    expect(rulesChanged(sale, running)).toBe(false);
    const answer = { check: calcCheck({ amount: 12 }), warnings: [] };
    const answered = run(running, { type: 'calc-done', seq: 2, result: answer });
    expect(rulesChanged(running, answered)).toBe(true);
  });

  it("leave a line's row as it is while a calculation runs, and rebuild it on its answer", () => {
    const sale = all.sale!;
    const line = sale.sale.draft.lines[0]!;
    const props = (state: State) => ({
      ctx: {
        state,
        t: translator('en'),
        num: numberStyle('en'),
        dates: dateStyle('en', 'UTC'),
        act: () => undefined,
      },
      line,
      i: 0,
    });
    const running = run(sale, { type: 'calc-started', seq: 2 });
    expect(rowChanged(props(sale), props(running))).toBe(false);
    const items = calcCheck().check_items!;
    const moved = [{ ...items[0]!, discount_amount: 4, amount: 16 }, items[1]!];
    const answer = { check: calcCheck({ amount: 26, check_items: moved }), warnings: [] };
    const answered = run(running, { type: 'calc-done', seq: 2, result: answer });
    expect(rowChanged(props(running), props(answered))).toBe(true);
  });

  it("leave a line's row as it is when an answer leaves its figures as they were", () => {
    const sale = all.sale!;
    const props = (state: State, i: number) => ({
      ctx: {
        state,
        t: translator('en'),
        num: numberStyle('en'),
        dates: dateStyle('en', 'UTC'),
        act: () => undefined,
      },
      line: sale.sale.draft.lines[i]!,
      i,
    });
    const items = calcCheck().check_items!;
    const moved = [items[0]!, { ...items[1]!, discount_amount: 2, amount: 8 }];
    const answer = { check: calcCheck({ amount: 28, check_items: moved }), warnings: [] };
    const answered = run(
      sale,
      { type: 'calc-started', seq: 2 },
      { type: 'calc-done', seq: 2, result: answer },
    );
    expect(answered.sale.calc.check).not.toBe(sale.sale.calc.check);
    expect(rowChanged(props(sale, 0), props(answered, 0))).toBe(false);
    expect(rowChanged(props(sale, 1), props(answered, 1))).toBe(true);
  });

  it("re-render only the offers' rows whose figures an answer moved", () => {
    const sale = all.sale!;
    const rules = sale.sale.calc.check!.implemented_rules!;
    const props = (state: State, i: number) => ({
      ctx: {
        state,
        t: translator('en'),
        num: numberStyle('en'),
        dates: dateStyle('en', 'UTC'),
        act: () => undefined,
      },
      r: state.sale.calc.check!.implemented_rules![i]!,
      i,
    });
    const data = { ...rules[0]!.implementation_data!, amount: 4 };
    const again = [
      { ...rules[0]!, implementation_data: data },
      ...rules.slice(1).map((r) => ({ ...r })),
    ];
    const answer = { check: calcCheck({ implemented_rules: again }), warnings: [] };
    const answered = run(
      sale,
      { type: 'calc-started', seq: 2 },
      { type: 'calc-done', seq: 2, result: answer },
    );
    expect(ruleChanged(props(sale, 0), props(answered, 0))).toBe(true);
    expect(ruleChanged(props(sale, 1), props(answered, 1))).toBe(false);
  });

  it('show a coupon emitted without a code yet as to follow (engine.md 17.14)', () => {
    const s = run(
      all.sale!,
      { type: 'payment-open', transactionId: TX_ID },
      {
        type: 'sale-done',
        result: saleResult({
          check: calcCheck({ emitted_coupons: [{ code: null, processing_status: 'pending' }] }),
        }),
      },
    );
    const text = textOf(byTestId(render(s), 'receipt-coupon-0')!);
    expect(text).toBe('Coupon (code to follow)');
  });

  it('show the lock-out with its wait', () => {
    expect(textOf(byTestId(render(all.signIn!), 'sign-in-lockout')!)).toContain('30 s');
  });

  it("give every button a known action: its own when pressed, or its form's on submit", () => {
    const known = new Set(Object.values(ACTION_GROUPS).flatMap((g) => Object.keys(g)));
    for (const [name, s] of Object.entries(all)) {
      const asked: Action[] = [];
      const root = render(s, (a) => asked.push(a));
      for (const { button, form } of buttonsWithForms(root)) {
        const id = `${name}: ${String(button.attrs['data-testid'])}`;
        asked.length = 0;
        if (button.attrs.type === 'submit') {
          expect(form, `${id} submits no form`).toBeDefined();
          call(form!.attrs.onSubmit, { preventDefault: () => undefined });
        } else call(button.attrs.onClick, { stopPropagation: () => undefined });
        expect(asked.length, `${id} asks for one action`).toBe(1);
        expect(known.has(asked[0]!.type), `${id} asks for ${asked[0]?.type}`).toBe(true);
      }
    }
  });

  it('report what is typed or chosen in every input and select', () => {
    for (const [name, s] of Object.entries(all)) {
      const asked: Action[] = [];
      for (const e of elements(render(s, (a) => asked.push(a)))) {
        if (e.tag !== 'input' && e.tag !== 'select') continue;
        if (e.attrs.type === 'checkbox') continue;
        asked.length = 0;
        const handler = e.tag === 'select' ? e.attrs.onChange : e.attrs.onInput;
        call(handler, { currentTarget: { value: 'typed' } });
        // a field of the form, or the language (the settings' own)
        expect(asked, `${name}: ${String(e.attrs['data-testid'])}`).toMatchObject([
          {
            type: e.attrs['data-testid'] === 'settings-language' ? 'language' : 'field',
            value: 'typed',
          },
        ]);
      }
    }
  });

  it('put the focus after a refusal in the very input its field is typed in', () => {
    for (const [name, s] of Object.entries(all)) {
      const asked: Action[] = [];
      for (const e of elements(render(s, (a) => asked.push(a)))) {
        if (e.tag !== 'input' && e.tag !== 'select') continue;
        if (e.attrs.type === 'checkbox') continue;
        asked.length = 0;
        const handler = e.tag === 'select' ? e.attrs.onChange : e.attrs.onInput;
        call(handler, { currentTarget: { value: 'typed' } });
        const [typed] = asked;
        if (typed?.type !== 'field') continue;
        // an attention item's comment is never refused: its field is named by the item's id,
        // its input by the item's place in the list
        if (typed.name.startsWith('attention-comment-')) continue;
        expect(fieldTestid(typed.name), `${name}: ${typed.name}`).toBe(e.attrs['data-testid']);
      }
    }
  });

  it('show on a sale opened from the recent sales what refunds took back per line', () => {
    const tree = render(all.recentSale!);
    expect(textOf(byTestId(tree, 'recent-line-0-refunded')!)).toBe('1 · 1.49');
    expect(textOf(byTestId(tree, 'recent-line-1-refunded')!)).toBe('—');
    expect(textOf(byTestId(tree, 'recent-detail-status')!)).toBe('sold · partly refunded');
    expect(textOf(byTestId(tree, 'recent-detail-who')!)).toBe('Bob · 7700001 · 411111******4242');
  });

  it('show the reprinted receipt as printed, marked COPY', () => {
    const tree = render(all.recentSale!);
    expect(textOf(byTestId(tree, 'receipt-paper-0')!)).toBe('COPY');
    expect(textOf(byTestId(tree, 'recent-copy-printed')!)).toBe('A copy was printed.');
  });

  it('say on the refund screen what was refunded already, from the recent sales', () => {
    expect(textOf(byTestId(render(all.refundFromRecent!), 'refund-line-0-refunded')!)).toBe('1');
  });

  it('say after a close how far the counted cash is over or short', () => {
    const tree = render(all.cashClosed!);
    expect(textOf(byTestId(tree, 'report-counted')!)).toBe('198.50');
    expect(textOf(byTestId(tree, 'report-over-short')!)).toBe('2.00 short');
    expect(textOf(byTestId(tree, 'report-opening-cash')!)).toBe('100.00');
  });

  it('list the cash paid in and out of the shift with its reason', () => {
    expect(textOf(byTestId(render(all.cashOpen!), 'cash-movement-1')!)).toMatch(
      /Paid out 5\.00 · window cleaner · Ann$/,
    );
  });

  it('say in words how a refund’s money goes back', () => {
    expect(textOf(byTestId(render(all.refunded!), 'refund-give-back-0')!)).toMatch(
      /^Give back \d+\.\d\d in cash\.$/,
    );
  });

  it('list the coupons on sale with their price, and show the one sold with its code as a QR', () => {
    const tree = render(all.loyalty!);
    expect(textOf(byTestId(tree, 'coupon-batch-0')!)).toMatch(
      /^10 bonus gift certificate · 25\.00 bonuses/,
    );
    expect(textOf(byTestId(tree, 'coupon-batch-1')!)).toMatch(/^Partner car wash · 8\.50/);
    expect(textOf(byTestId(tree, 'loyalty-sold-code')!)).toBe('GIFT-10-AB12');
    expect(byTestId(tree, 'loyalty-qr')!.attrs['data-text']).toBe('GIFT-10-AB12');
  });

  it('list past shifts with their reports kept, a copy offered for a closed one only', () => {
    const tree = render(all.reportPast!);
    expect(textOf(byTestId(tree, 'report-past-1')!)).toMatch(
      /^Shift 1 · .* – .* · Ann · X reports: 2 · Z report printed/,
    );
    expect(textOf(byTestId(tree, 'report-past-0')!)).toMatch(/still open/);
    expect(byTestId(tree, 'report-past-1-print')).toBeDefined();
    expect(byTestId(tree, 'report-past-0-print')).toBeUndefined();
  });

  it('offer the bonus operation to a manager only', () => {
    expect(byTestId(render(all.loyalty!), 'bonus-form')).toBeDefined();
    expect(byTestId(render(all.loyaltyCashier!), 'bonus-form')).toBeUndefined();
    expect(byTestId(render(all.loyaltyCashier!), 'loyalty-bonus-role')).toBeDefined();
  });

  it('show each pump as a tile: its state in words, the litres running, its unpaid fills to sell', () => {
    const tree = render(all.forecourt!);
    expect(textOf(byTestId(tree, 'pump-1-state')!)).toBe('Nozzle up · nozzle 1');
    expect(byTestId(tree, 'pump-1-release')).toBeDefined();
    expect(byTestId(tree, 'pump-1-prepay')).toBeDefined();
    expect(textOf(byTestId(tree, 'pump-2-volume')!)).toBe('3.20 l');
    expect(textOf(byTestId(tree, 'pump-2-amount')!)).toBe('5.76');
    expect(byTestId(tree, 'pump-2-stop')).toBeDefined();
    expect(byTestId(tree, 'pump-2-release')).toBeUndefined();
    expect(textOf(byTestId(tree, 'pump-3-unpaid')!)).toBe('1 unpaid');
    expect(textOf(byTestId(tree, 'pump-3-fill-0')!)).toMatch(/^FUEL-95 · 11\.37 l · 20\.45/);
    expect(byTestId(tree, 'pump-3-fill-0-sell')).toBeDefined();
    expect(byTestId(tree, 'pump-4-resume')).toBeDefined();
    expect(textOf(byTestId(tree, 'pump-5-state')!)).toBe('Not answering');
    expect(byTestId(tree, 'pump-5')!.attrs['data-state']).toBe('offline');
  });

  it('offer a prepay the pump’s fuels at their catalogue prices, each once', () => {
    const tree = render(all.prepaySale!);
    expect(textOf(byTestId(tree, 'sale-prepay-grade-0')!)).toBe('Super 95 1.759');
    expect(textOf(byTestId(tree, 'sale-prepay-grade-1')!)).toBe('Diesel 1.659');
    expect(byTestId(tree, 'sale-prepay-grade-2')).toBeUndefined();
    // a plain sale offers none, nor a prepay whose fuel line is on the check
    expect(byTestId(render(all.sale!), 'sale-prepay-grades')).toBeUndefined();
    const picked = run(
      all.prepaySale!,
      { type: 'prepay-grade', code: 'FUEL-95', price: '1.759' },
      { type: 'field', name: 'item-amount', value: '20' },
      { type: 'item-add' },
    );
    expect(picked.sale.draft.lines).toHaveLength(1);
    expect(byTestId(render(picked), 'sale-prepay-grades')).toBeUndefined();
  });

  it('offer a presets-only till a prepay’s fuels too: a press asks for the amount only, no price', () => {
    const presetsOnly = run(all.prepaySale!, {
      type: 'quick-keys',
      pages: [],
      mode: 'presets-only',
    });
    expect(byTestId(render(presetsOnly), 'sale-prepay-grade-0')).toBeDefined();
    const picked = render(
      run(presetsOnly, { type: 'prepay-grade', code: 'FUEL-95', price: '1.759' }),
    );
    expect(byTestId(picked, 'item-amount')).toBeDefined();
    expect(byTestId(picked, 'item-price')).toBeUndefined();
    expect(byTestId(picked, 'item-kind')).toBeUndefined();
  });

  it('offer the simulated pumps’ controls on the settings screen only for simulated pumps', () => {
    expect(byTestId(render(all.settings!), 'sim-pumps')).toBeUndefined();
    const tree = render(all.settingsPumps!);
    expect(byTestId(tree, 'sim-lift')).toBeDefined();
    expect(textOf(byTestId(tree, 'sim-display')!)).toBe(
      'Pump 1: nozzle 2 lifted · 1.50 l · 2.70 · fuel running',
    );
  });

  it('have every test id documented in README.md', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../renderer/README.md'), 'utf8');
    const ids = new Set<string>();
    for (const s of Object.values(all)) {
      for (const e of elements(render(s))) {
        const id = e.attrs['data-testid'];
        if (typeof id === 'string') ids.add(id.replace(/-\d+(?=-|$)/g, '-<i>'));
      }
    }
    const undocumented = [...ids].filter((id) => !readme.includes(`\`${id}\``));
    expect(undocumented).toEqual([]);
  });
});

/** Every button with the form it is in, if any. */
function buttonsWithForms(node: El, form?: El): { button: El; form: El | undefined }[] {
  const here = node.tag === 'form' ? node : form;
  const own = node.tag === 'button' ? [{ button: node, form: here }] : [];
  return [
    ...own,
    ...node.children.flatMap((c) => (typeof c === 'string' ? [] : buttonsWithForms(c, here))),
  ];
}

/** Calls an element's handler with a stand-in for the browser's event. */
function call(handler: unknown, event: object): void {
  expect(typeof handler).toBe('function');
  (handler as (e: object) => void)(event);
}
