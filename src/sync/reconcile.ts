// The server's answer to a queued cancel or refund, set against what the till recorded. The
// till computed the bonuses owed (a write-off past the balance, engine.md 15) from its cached
// balance, which may be stale; the server's answer says what it could not write off. Where the
// two differ the server's figure stands: the till's attention item is settled, corrected or
// raised with both figures, never left to say something the server did not do.
import { z } from 'zod';
import { cmp, dec, ZERO } from '../money/index.js';
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
