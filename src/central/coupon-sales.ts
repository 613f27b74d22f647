// `POST /v1/terminal/coupons/sell` (ours, docs/sync.md "Coupon sales"): a coupon or
// certificate of a batch sold at the batch's price (`customers_price_*`), paid with the
// customer's regular bonuses or from their account. The price the terminal saw must be the
// batch's; a shortfall is refused, never owed. The emitted coupon's id and code derive from
// the transaction id, so a replay makes the same coupon.
import { createHash } from 'node:crypto';
import type { CouponSell, CouponSold } from '../contract/central-api.js';
import { localDate } from '../contract/local-time.js';
import { dec, eq, lt, sub, toNumber } from '../money/index.js';
import type { Rec } from './context.js';
import { HttpError } from './errors.js';
import type { CentralStore } from './store/central-store.js';
import type { Session } from './service.js';

/** A name-based UUID (version 5) of the transaction and `what`: the same for a replay. */
function derivedId(transactionId: string, what: string): string {
  const b = createHash('sha1').update(`${transactionId}/${what}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const refused = (code: string, message: string, path: string) =>
  new HttpError(422, code, message, path);

/** A sold coupon lasts a year unless its batch names an expiry (the sandbox's rule). */
function expiryOf(batch: Rec, nowMs: number, zone: string): string {
  if (typeof batch.expire_date === 'string') return batch.expire_date;
  const next = new Date(nowMs);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return localDate(next.getTime(), zone);
}

/** Debits the price from what `body` pays with; answers the balance left. */
function debit(store: CentralStore, body: CouponSell, customer: Rec): number {
  const price = dec(body.amount);
  if (body.price_type === 'bonuses') {
    const bonuses = (customer.bonuses ?? {}) as Rec;
    const balance = dec(typeof bonuses.regular === 'number' ? bonuses.regular : 0);
    if (lt(balance, price))
      throw refused(
        'insufficient-bonuses',
        `the customer has ${toNumber(balance)} bonuses`,
        'amount',
      );
    const left = sub(balance, price);
    store.upsert('customer', customer.id as string, {
      ...customer,
      bonuses: { ...bonuses, regular: toNumber(left) },
    });
    return toNumber(left);
  }
  const id = body.special_account_id ?? '';
  const account = store.getRecord('special_account', id) as Rec | undefined;
  if (!account || account.customer_id !== customer.id)
    throw refused('invalid-input', 'not an account of this customer', 'special_account_id');
  const balance = dec(typeof account.balance === 'number' ? account.balance : 0);
  if (lt(balance, price))
    throw refused('insufficient-funds', `the account holds ${toNumber(balance)}`, 'amount');
  const left = sub(balance, price);
  store.upsert('special_account', id, { ...account, balance: toNumber(left) });
  return toNumber(left);
}

export function sellCoupon(
  store: CentralStore,
  nowMs: number,
  zone: string,
  session: Session,
  body: CouponSell,
): CouponSold {
  if (body.terminal_id !== session.terminal.id)
    throw new HttpError(
      403,
      'forbidden',
      'terminal_id is not the signed-in terminal',
      'terminal_id',
    );
  const batch = store.getRecord('coupon_batch', body.batch_id) as Rec | undefined;
  if (!batch) throw refused('invalid-input', `no coupon batch ${body.batch_id}`, 'batch_id');
  if (
    batch.customers_price_type !== body.price_type ||
    typeof batch.customers_price_amount !== 'number' ||
    !eq(dec(batch.customers_price_amount), dec(body.amount))
  )
    throw refused('price-differs', "the batch's price is not the one sent", 'amount');
  const customer = store.getRecord('customer', body.customer_id) as Rec | undefined;
  if (!customer) throw refused('invalid-input', `no customer ${body.customer_id}`, 'customer_id');
  const balance = debit(store, body, customer);
  const id = derivedId(body.transaction_id, 'coupon-0');
  const prefix = typeof batch.code === 'string' ? batch.code : 'COUPON';
  const coupon = {
    id,
    code: `${prefix}-${id.slice(0, 8).toUpperCase()}`,
    batch_id: batch.id as string,
    ...(typeof batch.public_title === 'string' ? { title: batch.public_title } : {}),
    ...(typeof batch.type === 'string' ? { type: batch.type } : {}),
    expire_date: expiryOf(batch, nowMs, zone),
  };
  store.upsert('coupon', id, {
    ...coupon,
    loyalty_id: batch.loyalty_id,
    customer_id: customer.id,
    status: 'open',
    redeem_at_terminal: batch.redeem_at_terminal,
    batch,
  });
  store.insertTransaction({
    transaction_id: body.transaction_id,
    terminal_id: session.terminal.id,
    operation: 'coupons_sell',
    customer_id: customer.id as string,
    subtype: 'online',
    body: JSON.stringify({ request: body, coupon }),
    created: new Date(nowMs).toISOString(),
  });
  return { transaction_id: body.transaction_id, coupon, balance };
}
