// The server's answer to a queued write, set against what the till recorded. A queued sale
// was computed here from the cache; the server computes it again from its own records, and
// where the two answers differ (bonuses, coupons, account charges) the difference is listed with both figures,
// never left to show up silently in a balance. A cancel or refund computed the bonuses owed
// (a write-off past the balance, engine.md 15) from the cached balance, which may be stale;
// the server's answer says what it could not write off, and its figure stands: the till's
// attention item is settled, corrected or raised with both figures.
import { z } from 'zod';
import { StoredCheck } from '../contract/stored.js';
import { add, cmp, dec, toNumber, ZERO, type Dec } from '../money/index.js';
import type { Store } from '../store/open.js';
import type { OutboxRow } from '../store/outbox.js';

/** Operations whose answer carries `owed` (our addition to the Check answer, docs/sync.md). */
const OWING = new Set(['cancel_check', 'refund_check']);

const ServerOwed = z.looseObject({ owed: z.looseObject({ bonuses: z.number() }) });
const TillOwed = z.looseObject({ bonuses: z.number(), customer_id: z.string().nullish() });

export interface ReconcilePorts {
  store: Store;
  now: () => number;
  newId: () => string;
}

/** Compares a done row's answer with what the till recorded. */
export function reconcile(p: ReconcilePorts, row: OutboxRow, response: unknown): void {
  if (row.operation !== 'process_check') return reconcileOwed(p, row, response);
  // One read of the stored check serves both: the codes, then the figures. One that no longer
  // reads is left alone: this runs as the row is marked done, and must not throw.
  const read = p.store.ledger.readCheck(row.transactionId)?.document;
  if (!read?.ok) return;
  confirmEmitted(p, row, read.value, response);
  reconcileSale(p, row, read.value, response);
}

const Emitting = z.looseObject({
  emitted_coupons: z.array(z.looseObject({ code: z.string().nullish() })).nullish(),
});

/**
 * A queued sale's emitted coupons carry provisional codes (engine.md 9) until the central
 * service answers with its own: the stored check takes those, so the receipt's reprint,
 * `sale-status` and a later cancel name the codes the customer's wallet holds. Paired by
 * position (the same rules emit in the same order); a different count is left to
 * reconcileSale's comparison.
 */
function confirmEmitted(
  p: ReconcilePorts,
  row: OutboxRow,
  stored: StoredCheck,
  response: unknown,
): void {
  const server = Emitting.safeParse(response);
  if (!server.success) return;
  const mine = stored.emitted_coupons ?? [];
  const theirs = server.data.emitted_coupons ?? [];
  if (mine.length === 0 || mine.length !== theirs.length) return;
  const renames = mine.flatMap((c, i): Array<[string, string]> => {
    const to = theirs[i]!.code;
    return c.code && to && c.code !== to ? [[c.code, to]] : [];
  });
  if (renames.length === 0) return;
  // The server's coupons when they read as a stored check's; else the till's with their codes
  // (a coupon shaped otherwise would leave the stored check unreadable).
  const confirmed = StoredCheck.safeParse({ ...stored, emitted_coupons: theirs });
  const to = new Map(renames);
  const document = confirmed.success
    ? confirmed.data
    : {
        ...stored,
        emitted_coupons: mine.map((c) => (c.code ? { ...c, code: to.get(c.code) ?? c.code } : c)),
      };
  p.store.ledger.confirmEmitted(row.transactionId, document, renames);
}

/** What a sale did that both sides must agree on. */
const SaleFigures = z.looseObject({
  bonuses_added_amount: z.number().nullish(),
  bonuses_redeemed_amount: z.number().nullish(),
  redeemed_coupons: z
    .array(
      z.looseObject({
        code: z.string().nullish(),
        valid: z.boolean().nullish(),
        applicable: z.boolean().nullish(),
      }),
    )
    .nullish(),
  special_accounts_charges: z
    .array(
      z.looseObject({
        special_account_id: z.string().nullish(),
        direction: z.string().nullish(),
        amount: z.number().nullish(),
      }),
    )
    .nullish(),
});
type SaleFigures = z.infer<typeof SaleFigures>;

/**
 * The money a check took from (or gave to) each money account and fleet access, per account
 * and direction, in a canonical text: the same charges in any order read the same.
 */
function accountCharges(c: SaleFigures): string {
  const sums = new Map<string, Dec>();
  for (const x of c.special_accounts_charges ?? []) {
    const key = `${x.special_account_id ?? '?'} ${x.direction ?? 'debit'}`;
    sums.set(key, add(sums.get(key) ?? ZERO, dec(x.amount ?? 0)));
  }
  return [...sums]
    .filter(([, v]) => cmp(v, ZERO) !== 0)
    .map(([k, v]) => `${k} ${toNumber(v)}`)
    .sort()
    .join(', ');
}

/** The codes of the coupons a check actually used (not answered invalid or not applicable). */
const usedCoupons = (c: SaleFigures): string =>
  (c.redeemed_coupons ?? [])
    .filter((x) => x.code && x.valid !== false && x.applicable !== false)
    .map((x) => x.code!)
    .sort()
    .join(', ');

/** The figures of a sale on which this till and the server differ. */
function saleDifferences(
  till: SaleFigures,
  server: SaleFigures,
): Array<{ field: string; till: number | string; server: number | string }> {
  const out: Array<{ field: string; till: number | string; server: number | string }> = [];
  for (const field of ['bonuses_added_amount', 'bonuses_redeemed_amount'] as const) {
    const a = till[field] ?? 0;
    const b = server[field] ?? 0;
    if (cmp(dec(a), dec(b)) !== 0) out.push({ field, till: a, server: b });
  }
  const a = usedCoupons(till);
  const b = usedCoupons(server);
  if (a !== b) out.push({ field: 'redeemed_coupons', till: a, server: b });
  // An answer without the field says nothing about charges (the spec's answer carries it).
  const x = accountCharges(till);
  const y = server.special_accounts_charges == null ? x : accountCharges(server);
  if (x !== y) out.push({ field: 'special_accounts_charges', till: x, server: y });
  return out;
}

/** A queued sale the server answered otherwise than the till: listed with both figures. */
function reconcileSale(
  p: ReconcilePorts,
  row: OutboxRow,
  stored: StoredCheck,
  response: unknown,
): void {
  const till = SaleFigures.safeParse(stored);
  const server = SaleFigures.safeParse(response);
  if (!till.success || !server.success) return;
  const differences = saleDifferences(till.data, server.data);
  if (differences.length === 0) return;
  const said = differences
    .map(
      (d) =>
        `${d.field}: this till ${JSON.stringify(d.till)}, the central service ${JSON.stringify(d.server)}`,
    )
    .join('; ');
  p.store.attention.note(
    {
      id: p.newId(),
      kind: 'sale-differs',
      ref: row.transactionId,
      transactionId: row.transactionId,
      message: `the central service answered this queued sale otherwise (${said})`,
      details: {
        customer_id: p.store.ledger.status(row.transactionId)?.customerId ?? null,
        differences,
      },
    },
    p.now(),
  );
}

/** Compares the owed bonuses of a done cancel or refund with the server's answer. */
export function reconcileOwed(p: ReconcilePorts, row: OutboxRow, response: unknown): void {
  if (!OWING.has(row.operation)) return;
  const answer = ServerOwed.safeParse(response);
  // A server that does not say leaves the till's figure to staff, as before.
  if (!answer.success) return;
  const { store } = p;
  const opId = row.transactionId;
  const server = answer.data.owed.bonuses;
  const item = store.attention.find('bonuses-owed', opId);
  const noted = item ? TillOwed.safeParse(item.details) : null;
  const till = noted?.success ? noted.data.bonuses : 0;
  if (cmp(dec(server), dec(till)) === 0) return;
  const customerId =
    (noted?.success ? noted.data.customer_id : null) ??
    store.ledger.status(opId)?.customerId ??
    null;
  const details = { customer_id: customerId, bonuses: server, till_bonuses: till };
  const message = `the customer owes ${server} bonuses (the central service's figure; this till counted ${till})`;
  if (item && item.resolvedAt === null) {
    if (cmp(dec(server), ZERO) === 0)
      store.attention.settle(
        item.id,
        `the central service took the whole write-off: nothing is owed (this till counted ${till})`,
        p.now(),
      );
    else store.attention.amend(item.id, message, details);
    return;
  }
  // Nothing noted here, or staff already resolved the till's figure: a new item, both figures.
  store.attention.note(
    {
      id: p.newId(),
      kind: 'bonuses-owed',
      ref: item ? `${opId}:server` : opId,
      transactionId: opId,
      message: item
        ? `this till counted ${till} bonuses owed (resolved); the central service counts ${server}: check what was collected`
        : message,
      details,
    },
    p.now(),
  );
}
