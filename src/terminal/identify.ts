// Identifying the customer (engine.md 14, IdType): from a card reader, a scanner or what the
// cashier typed; a phone, card code, QR, e-mail, external id, or a vehicle QR, tag or AVI id
// for a corporate sale. Online first: the central service's lookup refreshes the customer's
// records in the cache (a short deadline); offline, or when it is slow, the cache answers.
// The summary shows what the customer may spend here now: cached minus this till's holds,
// and for an account the least of its funds and every limit (the engine's figures).
import type { CommandOutput, CustomerSummary, ErrorResponse } from '../contract/commands.js';
import type { IdType } from '../contract/enums.js';
import { spendableNow } from '../engine/index.js';
import { add, dec, gt, sub, toNumber, ZERO } from '../money/index.js';
import type { CachedCustomer } from '../store/cache.js';
import { refuse } from './command-map.js';
import { withinDeadline } from './deadline.js';
import { posToday } from './pos-date.js';
import type { TerminalPorts } from './ports.js';

interface AccountRec {
  id: string;
  title?: string;
  type?: 'money' | 'quantity';
  currency?: string;
  balance?: number;
  credit_type?: 'none' | 'limited' | 'unlimited';
  credit_limit?: number;
  security_code?: number;
  pin_hash?: string;
}

export class IdentifyService {
  private readonly p: TerminalPorts;

  constructor(p: TerminalPorts) {
    this.p = p;
  }

  /** Writes a lookup's records into the cache in one transaction, releasing reflected holds. */
  private applyLookup(changes: readonly unknown[], requestedAt: number): void {
    const { store } = this.p;
    store.write(() => {
      for (const raw of changes) {
        const checked = store.cache.check(raw as Parameters<typeof store.cache.check>[0]);
        if (!checked.ok) {
          this.p.log.warn('lookup record refused', { error: checked.error });
          continue;
        }
        store.cache.apply(checked, this.p.clock.now());
        if (checked.op === 'upsert')
          store.ledger.releaseReflected(checked.entity, checked.id, checked.record, requestedAt);
      }
    });
  }

  async identify(input: {
    id: string;
    id_type: IdType;
  }): Promise<CommandOutput<'customer-identify'> | ErrorResponse> {
    const { store, sync, config, clock } = this.p;
    let source: 'online' | 'cache' = 'cache';
    const requestedAt = clock.now();
    // Known offline: the cache answers at once. Else one deadline bounds the lookup.
    const r =
      sync.link.current === 'offline'
        ? null
        : await withinDeadline(config.central.timeouts.online_deadline_ms, (signal) =>
            sync.client.lookup(input.id, input.id_type, { signal }),
          );
    if (r?.ok) {
      this.applyLookup(r.value.changes, requestedAt);
      source = 'online';
    } else if (r && r.failure.kind === 'http' && r.failure.status === 404) {
      return refuse('customer-not-found', 'no customer has this identifier', 'id');
    }
    const found = store.cache.identify(input.id, input.id_type);
    if (!found.customer)
      return refuse('customer-not-found', 'no customer has this identifier', 'id');
    this.p.log.info('customer identified', {
      customer_id: found.customer.id,
      id_type: input.id_type,
      source,
    });
    return { customer: this.summary(found.customer), source };
  }

  /**
   * The card category with its title when the cache knows one: the customer record's own
   * `card_category` (a lookup may carry it); the feed has no category entity of its own.
   */
  private cardCategory(c: CachedCustomer): NonNullable<CustomerSummary['card_category']> {
    const id = c.card_category_id!;
    const rec = c as Record<string, unknown>;
    const embedded = rec['card_category'] as { id?: unknown; title?: unknown } | null | undefined;
    const title =
      embedded?.id === id && typeof embedded.title === 'string'
        ? embedded.title
        : rec['card_category_title'];
    return typeof title === 'string' ? { id, title } : { id };
  }

  summary(c: CachedCustomer): CustomerSummary {
    const { store, clock } = this.p;
    const pos = store.cache.all('pos')[0];
    const today = posToday(store.cache, clock.now(), pos?.id);
    const regular = dec(c.bonuses?.regular ?? 0);
    let promotional = ZERO;
    for (const lot of store.cache.bonusLotsOf(c.id)) {
      if ((!lot.starting || lot.starting <= today) && (!lot.expire || lot.expire >= today))
        promotional = add(promotional, dec(lot.amount));
    }
    const accounts = store.cache.specialAccountsOf(c.id) as unknown as AccountRec[];
    const accesses = store.cache.corporateAccessesOf(c.id) as unknown as Array<{
      id: string;
      security_code?: number;
      corporate_customer_special_account?: { special_account?: AccountRec };
    }>;
    // The engine's own view of the customer (server usage rolled to today, this till's holds),
    // so the figure shown is the one a payment is checked against.
    const ctx = store.assembleContext({
      check: { customer_id: c.id },
      ...(pos?.id ? { posId: pos.id } : {}),
    }).context;
    const spendable = (type: 'special-account' | 'corporate-special-account', id: string) => {
      const v = spendableNow(ctx, type, id);
      return v === null ? null : toNumber(v);
    };
    const specials: CustomerSummary['special_accounts'] = [
      ...accounts.map((a) => ({
        id: a.id,
        ...(a.title ? { title: a.title } : {}),
        type: a.type ?? 'money',
        ...(a.currency ? { currency: a.currency } : {}),
        available: spendable('special-account', a.id),
        pin_required: a.security_code === 1 || typeof a.pin_hash === 'string',
        payment_type: 'special-account' as const,
      })),
      ...accesses.flatMap((x) => {
        const inner = x.corporate_customer_special_account?.special_account;
        if (!inner) return [];
        return [
          {
            id: x.id,
            ...(inner.title ? { title: inner.title } : {}),
            type: inner.type ?? 'money',
            ...(inner.currency ? { currency: inner.currency } : {}),
            available: spendable('corporate-special-account', x.id),
            pin_required: x.security_code === 1,
            payment_type: 'corporate-special-account' as const,
          },
        ];
      }),
    ];
    const held = ctx.pending;
    const total = add(regular, promotional);
    const heldBonuses = dec(held.bonuses_redeemed);
    const availableBonuses = gt(total, heldBonuses) ? sub(total, heldBonuses) : ZERO;
    return {
      id: c.id,
      type: c.type,
      ...(typeof c.name === 'string' ? { name: c.name } : {}),
      access_type: c.access_type,
      card_category: c.card_category_id ? this.cardCategory(c) : null,
      corporate_customer_id:
        typeof c.corporate_customer_id === 'string' ? c.corporate_customer_id : null,
      bonuses: {
        regular: toNumber(regular),
        promotional: toNumber(promotional),
        available: toNumber(availableBonuses),
      },
      special_accounts: specials,
    };
  }
}
