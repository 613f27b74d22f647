// The recent sales and cash slices: how the search box is read, what the list and the sale
// opened do, refunds bounded by what is left, how the money goes back, cash movements and
// their refusals, over or short at close, the opening float.
import { describe, expect, it } from 'vitest';
import { perform } from '../../renderer/actions.js';
import { toFixed } from '../../renderer/money.js';
import { reduce } from '../../renderer/reduce.js';
import { refundInput, shiftOpenInput } from '../../renderer/requests.js';
import { cashMovementInput } from '../../renderer/slices/cash/input.js';
import type { Errors } from '../../renderer/slices/frame/state.js';
import { guessSearch, recentQuery, timeRange } from '../../renderer/slices/recent/query.js';
import { selectedSale } from '../../renderer/slices/recent/state.js';
import { giveBack } from '../../renderer/slices/refund/state.js';
import { overShort } from '../../renderer/slices/report/state.js';
import { initialState, type Event, type FieldName, type State } from '../../renderer/state.js';
import type { CommandName, ErrorBody, RefundResult } from '../../renderer/types.js';
import {
  calcCheck,
  committed,
  movements,
  recentSales,
  report,
  shift,
  status,
  TX_ID,
  TX_ID_2,
} from './fixtures.js';
import { fakeTill } from './fake-till.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);
const typed = (s: State, name: FieldName, value: string) => run(s, { type: 'field', name, value });

const senior = status({ staff: { ...status().staff!, roles: ['senior-cashier'] } });
/** Signed in as a senior cashier, on the recent sales with a page loaded. */
function listed(): State {
  return run(
    initialState(),
    { type: 'status', status: senior },
    { type: 'navigate', screen: 'recent' },
    { type: 'recent-loaded', output: recentSales(), query: {}, more: false },
  );
}

const NOW = Date.UTC(2025, 0, 10, 12, 0);

describe('the recent sales search box', () => {
  it('reads a time, an amount, the end of a card and a customer', () => {
    expect(guessSearch('14:05', '.')).toBe('time');
    expect(guessSearch('9.46', '.')).toBe('amount');
    expect(guessSearch('9,46', ',')).toBe('amount');
    expect(guessSearch('12', '.')).toBe('amount');
    expect(guessSearch('4242', '.')).toBe('card');
    expect(guessSearch('Bob', '.')).toBe('customer');
    expect(guessSearch('+4917012345', '.')).toBe('customer');
  });

  it('asks for every sale when the box is empty', () => {
    expect(recentQuery(listed(), NOW)).toEqual({ input: {} });
  });

  it('asks for an exact amount in the language’s separators', () => {
    expect(recentQuery(typed(listed(), 'recent-search', '9.46'), NOW)).toEqual({
      input: { amount: 9.46 },
    });
    const de = run(listed(), { type: 'language', value: 'de' });
    expect(recentQuery(typed(de, 'recent-search', '9,46'), NOW)).toEqual({
      input: { amount: 9.46 },
    });
  });

  it('takes the choice of what to search by over the guess', () => {
    const s = typed(typed(listed(), 'recent-search', '1234'), 'recent-by', 'customer');
    expect(recentQuery(s, NOW)).toEqual({ input: { customer: '1234' } });
    expect(recentQuery(typed(listed(), 'recent-search', '4242'), NOW)).toEqual({
      input: { card: '4242' },
    });
  });

  it('refuses at the box what cannot be a search', () => {
    const byTime = typed(listed(), 'recent-by', 'time');
    expect(recentQuery(typed(byTime, 'recent-search', '25:00'), NOW)).toEqual({
      errors: { 'recent-search': 'recent.bad-time' },
    });
    const byCard = typed(listed(), 'recent-by', 'card');
    expect(recentQuery(typed(byCard, 'recent-search', '4'), NOW)).toEqual({
      errors: { 'recent-search': 'recent.search-short' },
    });
  });

  it('finds a time 15 minutes either side, today on the POS’s clock', () => {
    expect(timeRange('14:05', NOW, 'Europe/Berlin')).toEqual({
      from: '2025-01-10T12:50:00.000Z',
      to: '2025-01-10T13:20:00.000Z',
    });
    expect(timeRange('14:05', NOW, 'UTC')).toEqual({
      from: '2025-01-10T13:50:00.000Z',
      to: '2025-01-10T14:20:00.000Z',
    });
  });
});

describe('the recent sales list', () => {
  it('adds the next page under the first, and a new search replaces it', () => {
    const page = recentSales();
    const more = run(listed(), {
      type: 'recent-loaded',
      output: { sales: [page.sales[0]!], next_cursor: null },
      query: {},
      more: true,
    });
    expect(more.recent.sales).toHaveLength(3);
    expect(more.recent.nextCursor).toBeNull();
    const again = run(more, {
      type: 'recent-loaded',
      output: { sales: [page.sales[1]!], next_cursor: null },
      query: { amount: 2.5 },
      more: false,
    });
    expect(again.recent.sales.map((s) => s.transaction_id)).toEqual([TX_ID_2]);
    expect(again.recent.query).toEqual({ amount: 2.5 });
  });

  it('opens a sale, and Esc closes it before it leaves the screen', () => {
    const open = run(listed(), { type: 'recent-select', transactionId: TX_ID });
    expect(selectedSale(open)?.total).toBe(9.46);
    expect(open.focus?.testid).toBe('recent-reprint');
    const closed = run(open, { type: 'back' });
    expect(closed.screen).toBe('recent');
    expect(closed.recent.selected).toBeNull();
    expect(closed.focus?.testid).toBe('recent-search');
    expect(run(closed, { type: 'back' }).screen).toBe('sale');
  });

  it('hands the refund screen the sale and what was refunded, with no id typed', async () => {
    const s = run(listed(), { type: 'recent-select', transactionId: TX_ID });
    const asked: unknown[] = [];
    const till = fakeTill(s, { perform: async (a) => void asked.push(a) });
    await perform(till, { type: 'recent-refund' });
    expect(asked).toEqual([
      {
        type: 'refund-open',
        transactionId: TX_ID,
        refunded: [
          { index: 0, quantity: 1 },
          { index: 1, quantity: 0 },
        ],
      },
    ]);
  });
});

/** The refund screen with the recent sale loaded: 3 waters (1 refunded) and a sandwich. */
function refunding(): State {
  return run(
    listed(),
    { type: 'refund-open', transactionId: TX_ID, refunded: [{ index: 0, quantity: 1 }] },
    { type: 'refund-loaded', output: committed() },
  );
}

describe('a refund of a sale opened from the recent sales', () => {
  it('refuses more than is left of a line at its field', () => {
    const qty = committed().check.check_items![0]!.quantity;
    const s = typed(refunding(), 'refund-qty-0', String(qty));
    expect(refundInput(s, 'r1')).toEqual({ errors: { 'refund-qty-0': 'validation.over-left' } });
    expect(
      run(s, { type: 'invalid', errors: { 'refund-qty-0': 'validation.over-left' } }).focus?.testid,
    ).toBe('refund-qty-0');
  });

  it('fills what is left of every line for a full refund', () => {
    const s = run(refunding(), { type: 'refund-all' });
    const items = committed().check.check_items!;
    expect(s.form['refund-qty-0']).toBe(String(items[0]!.quantity - 1));
    expect(s.form['refund-qty-1']).toBe(String(items[1]!.quantity));
  });

  it('shows what it just refunded as refunded already, and clears the quantities typed', () => {
    const s = typed(refunding(), 'refund-qty-0', '1');
    const done = run(s, {
      type: 'refund-done',
      output: refundResult({}),
      lines: [{ index: 0, quantity: 1 }],
    });
    expect(done.refund.refunded?.lines).toEqual([{ index: 0, quantity: 2 }]);
    expect(done.form['refund-qty-0']).toBe('');
  });

  it('knows nothing was refunded of a sale whose id was typed', () => {
    const s = run(
      listed(),
      { type: 'refund-open', transactionId: null },
      { type: 'refund-loaded', output: committed() },
    );
    const qty = committed().check.check_items![0]!.quantity;
    expect('input' in refundInput(typed(s, 'refund-qty-0', String(qty)), 'r1')).toBe(true);
  });
});

function refundResult(over: Partial<RefundResult>, checkOver = {}): RefundResult {
  return {
    transaction_id: 'r1',
    original_transaction_id: TX_ID,
    check: calcCheck({ amount_to_pay: 9.46, ...checkOver }),
    warnings: [],
    payments: [],
    paid_back: [{ type: 'cash', amount: 9.46 }],
    sync: committed().sync,
    ...over,
  };
}

const card = (amount: number) => ({
  payment_id: '018f0000-0000-7000-8000-0000000000f1',
  transaction_id: 'r1',
  operation: 'refund' as const,
  status: 'success' as const,
  amount,
  card: '411111******4242',
});

describe('how the money goes back', () => {
  const said = (r: RefundResult) => giveBack(r).map((g) => [g.key, toFixed(g.amount), g.card]);

  it('in cash from the drawer when the terminal paid it back in cash', () => {
    expect(said(refundResult({}))).toEqual([['refund.give-cash', '9.46', undefined]]);
  });

  it('to each card as the terminal refunded it, naming the card, and the rest as paid back', () => {
    const r = refundResult({
      payments: [card(5)],
      paid_back: [
        { type: 'bank-card', amount: 5 },
        { type: 'cash', amount: 4.46 },
      ],
    });
    expect(said(r)).toEqual([
      ['refund.to-card', '5', '411111******4242'],
      ['refund.give-cash', '4.46', undefined],
    ]);
  });

  it('to the account the sale was paid from', () => {
    const r = refundResult({ paid_back: [{ type: 'special-account', amount: 9.46 }] });
    expect(said(r)).toEqual([['refund.to-account', '9.46', undefined]]);
  });
});

describe('cash paid in and out', () => {
  const cashScreen = () =>
    run(initialState(), { type: 'status', status: status() }, { type: 'navigate', screen: 'cash' });

  it('needs an amount over zero and a reason, each said at its field', () => {
    expect(cashMovementInput(cashScreen())).toEqual({
      errors: { 'cash-amount': 'validation.required', 'cash-reason': 'cash.reason-required' },
    });
    const s = typed(typed(cashScreen(), 'cash-amount', '0'), 'cash-reason', 'x');
    expect(cashMovementInput(s)).toEqual({ errors: { 'cash-amount': 'validation.positive' } });
  });

  it('pays in by default, and out when chosen', () => {
    const s = typed(typed(cashScreen(), 'cash-amount', '20.5'), 'cash-reason', ' bank ');
    expect(cashMovementInput(s)).toEqual({
      input: { kind: 'paid-in', amount: 20.5, reason: 'bank' },
    });
    expect(cashMovementInput(typed(s, 'cash-kind', 'paid-out'))).toMatchObject({
      input: { kind: 'paid-out' },
    });
  });

  it('sends one key for a movement until it is recorded, so a press again records it once', () => {
    const KEY = '0190c2a4-0000-7000-8000-0000000000c1';
    const s = run(typed(typed(cashScreen(), 'cash-amount', '20'), 'cash-reason', 'bank'), {
      type: 'cash-key',
      key: KEY,
    });
    expect(cashMovementInput(s)).toMatchObject({ input: { idempotency_key: KEY } });
    const done = run(s, { type: 'cash-moved', movement: movements()[0]! });
    expect(done.cash.key).toBeNull();
  });

  it('clears the form and says what moved and what to do with it', () => {
    const s = typed(typed(cashScreen(), 'cash-amount', '20'), 'cash-reason', 'bank');
    const done = run(s, { type: 'cash-moved', movement: movements()[0]! });
    expect(done.form['cash-amount']).toBe('');
    expect(done.form['cash-reason']).toBe('');
    expect(done.message).toEqual({
      kind: 'notice',
      key: 'cash.paid-in-done',
      params: { amount: '20.00', reason: 'change from the bank' },
    });
  });

  it('shows a refusal in words and puts the focus in the field it names', async () => {
    const s = typed(typed(cashScreen(), 'cash-amount', '20'), 'cash-reason', 'bank');
    const refused: ErrorBody = {
      code: 'invalid-input',
      message: 'reason: too long',
      path: 'reason',
    };
    const events: Event[] = [];
    const till = fakeTill(s, {
      dispatch: (e) => void events.push(e),
      run: async (_name, _input, _ok, onError) => {
        const e = onError?.(refused);
        if (e) events.push(e);
        return false;
      },
    });
    await perform(till, { type: 'cash-move' });
    expect(events).toEqual([
      { type: 'cash-key', key: expect.any(String) as string },
      { type: 'failed', error: refused },
      { type: 'focus', testid: 'cash-reason' },
    ]);
  });
});

describe('the shift’s cash', () => {
  it('says over or short as counted minus expected, exactly', () => {
    const at = (counted: number, expected: number) => {
      const d = overShort({
        ...report(),
        expected_cash: expected,
        shift: { ...shift, counted_cash: counted },
      });
      return d && [toFixed(d.value), d.sign];
    };
    expect(at(108, 110)).toEqual(['-2', -1]);
    expect(at(200.6, 200.5)).toEqual(['0.1', 1]);
    expect(at(0.3, 0.3)).toEqual(['0.0', 0]);
    expect(overShort(report())).toBeNull();
  });

  it('puts the focus in the float when the shift is opened without it', () => {
    const s = run(initialState(), { type: 'status', status: status({ shift: null }) });
    const built = shiftOpenInput(s);
    expect(built).toEqual({ errors: { 'opening-cash': 'validation.float-required' } });
    const refused = run(s, { type: 'invalid', errors: (built as { errors: Errors }).errors });
    expect(refused.focus?.testid).toBe('shift-opening-cash');
  });

  it('lists the movements on the X report it loads', () => {
    const s = run(
      initialState(),
      { type: 'status', status: status() },
      { type: 'report-loaded', report: { ...report(), cash_movements: movements() } },
    );
    expect(s.report.report?.cash_movements?.map((m) => m.kind)).toEqual(['paid-in', 'paid-out']);
  });
});

/** A controller whose effects are spies, some replaced. */
export type { CommandName };
