// `sales-recent` (docs/terminal.md, "Recent sales"): this terminal's sales, newest first, each
// with its payments, customer, status and what was refunded per line, filtered by time,
// amount, card or customer and paged by a cursor (the seq of the last sale answered).
import type { CommandOutput, HandlerInput } from '../contract/commands.js';
import { dec, eq, gt, lt, toNumber, ZERO } from '../money/index.js';
import type { CachedCustomer as Customer } from '../store/cache.js';
import type { IndexedSale } from '../store/sales-index.js';
import type { TerminalPorts } from './ports.js';
import { takenBack } from './taken-back.js';

type Input = HandlerInput<'sales-recent'>;
type Output = CommandOutput<'sales-recent'>;
type Entry = Output['sales'][number];

const DEFAULT_LIMIT = 20;
/** Rows read per scan step while filters drop some. */
const STEP = 200;
const FAR = Number.MAX_SAFE_INTEGER;

export class SalesRecent {
  private readonly p: TerminalPorts;

  constructor(p: TerminalPorts) {
    this.p = p;
  }

  list(i: Input): Output {
    const limit = i.limit ?? DEFAULT_LIMIT;
    const from = i.from ? Date.parse(i.from) : 0;
    const to = i.to ? Date.parse(i.to) : FAR;
    const out: Entry[] = [];
    let before = i.cursor ? Number(i.cursor) : FAR;
    let lastSeq: number | null = null;
    for (;;) {
      const rows = this.p.store.salesIndex.before(before, from, to, STEP);
      for (const r of rows) {
        lastSeq = r.seq;
        const c = r.customerId ? this.p.store.cache.customerById(r.customerId) : null;
        if (!this.matches(r, c, i)) continue;
        out.push(this.entryOf(r, c));
        if (out.length === limit) return { sales: out, next_cursor: String(r.seq) };
      }
      if (rows.length < STEP || lastSeq === null) break;
      before = lastSeq;
    }
    return { sales: out, next_cursor: null };
  }

  private matches(r: IndexedSale, c: Customer | null, i: Input): boolean {
    const total = dec(r.amountToPay);
    if (i.amount !== undefined && !eq(total, dec(i.amount))) return false;
    if (i.amount_min !== undefined && lt(total, dec(i.amount_min))) return false;
    if (i.amount_max !== undefined && gt(total, dec(i.amount_max))) return false;
    if (i.card !== undefined && !this.cardMatches(r, i.card)) return false;
    if (i.customer !== undefined && !customerMatches(r, c, i.customer)) return false;
    return true;
  }

  private cardMatches(r: IndexedSale, card: string): boolean {
    if (r.cards.some((pan) => pan.endsWith(card))) return true;
    return r.document.id_type === 'card' && r.document.id === card;
  }

  private entryOf(r: IndexedSale, c: Customer | null): Entry {
    const card = r.document.id_type === 'card' ? r.document.id : undefined;
    return {
      transaction_id: r.id,
      recorded_at: new Date(r.createdAt).toISOString(),
      total: toNumber(dec(r.amountToPay)),
      payment_types: [...r.paymentTypes],
      cards: [...r.cards],
      customer: r.customerId
        ? {
            id: r.customerId,
            ...(typeof c?.name === 'string' && c.name ? { name: c.name } : {}),
            ...(card ? { card } : {}),
          }
        : null,
      status: statusOf(r),
      lines: this.linesOf(r),
    };
  }

  /** Each line of the sale with what this terminal's refunds of it took back. */
  private linesOf(r: IndexedSale): Entry['lines'] {
    const back = takenBack(this.p.store.refunds.of(r.id));
    return (r.document.check_items ?? []).map((it, index) => {
      const b = back.get(index);
      return {
        index,
        ...(it.title ? { title: it.title } : {}),
        quantity: it.quantity,
        amount: it.amount ?? 0,
        refunded: {
          quantity: toNumber(b?.quantity ?? ZERO),
          amount: toNumber(b?.amount ?? ZERO),
        },
      };
    });
  }
}

/** Whether the sale's customer is the one asked for: by id, card, cached name or phone. */
function customerMatches(r: IndexedSale, c: Customer | null, words: string): boolean {
  const q = words.toLowerCase();
  const known = [r.customerId, r.document.id, c?.name, c?.phone];
  return known.some((v) => typeof v === 'string' && v.toLowerCase().includes(q));
}

function statusOf(r: IndexedSale): Entry['status'] {
  if (r.cancelledBy !== null) return 'cancelled';
  if (r.syncStatus === 'rejected' || r.outboxStatus === 'rejected') return 'rejected';
  // Online sales reach the outbox as done; a stand-in one waits there until sent.
  if (r.outboxStatus === 'queued' || r.outboxStatus === 'sending') return 'queued';
  return 'committed';
}
