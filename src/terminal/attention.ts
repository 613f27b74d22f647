// The attention list: what staff must look at. Sale rejections the central service sent back
// (the outbox keeps them), card operations still unresolved, bonuses a customer owes after a
// cancel, records quarantined by the pull, a clock the server disagrees with, a damaged
// database recovered at start (noted by the start itself, src/store/recovery.ts). Each source is
// mirrored into the store's attention items when listed, so every item has one uuid and one
// resolution; resolving needs a manager (interfaces.md, Roles).
import {
  AttentionKind,
  type AttentionItem,
  type CommandOutput,
  type ErrorResponse,
} from '../contract/commands.js';
import { KeptRefusal } from '../contract/stored.js';
import type { AttentionRecord } from '../store/attention.js';
import { refuse } from './command-map.js';
import type { TerminalPorts } from './ports.js';
import type { Workflow } from './workflow.js';

/** The contract's kinds (one list); a stored kind it does not know reads as an outbox refusal. */
const kindOf = AttentionKind.catch('outbox-rejected');

function itemOf(r: AttentionRecord): AttentionItem {
  const e = r.error;
  return {
    id: r.id,
    kind: kindOf.parse(r.kind),
    created_at: new Date(r.createdAt).toISOString(),
    transaction_id: r.transactionId,
    message: r.message,
    error: e
      ? { code: e.code ?? 'error', message: e.message ?? '', path: e.path ?? '(root)' }
      : null,
    ...(r.details ? { details: r.details } : {}),
    resolved_at: r.resolvedAt === null ? null : new Date(r.resolvedAt).toISOString(),
    resolved_by: r.resolvedBy
      ? { id: r.resolvedBy, ...(r.resolvedByName ? { name: r.resolvedByName } : {}) }
      : null,
    comment: r.comment,
  };
}

export class AttentionService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;
  /** Whether a card operation is on the unit now (its entry is in process, not stuck). */
  private readonly cardBusy: () => boolean;

  constructor(p: TerminalPorts, wf: Workflow, cardBusy: () => boolean = () => false) {
    this.p = p;
    this.wf = wf;
    this.cardBusy = cardBusy;
  }

  /** Mirrors the sources into the store's items (idempotent by kind and ref). */
  refresh(): void {
    const { store, clock, ids, sync } = this.p;
    const now = clock.now();
    for (const row of store.outbox.attention()) {
      const reason = KeptRefusal.parse(row.response);
      store.attention.note(
        {
          id: ids.newId(),
          kind: 'outbox-rejected',
          ref: row.transactionId,
          transactionId: row.transactionId,
          message: `the central service refused ${row.operation}: ${reason.error?.message ?? row.lastError ?? 'no reason given'}`,
          error: reason.error ?? null,
          details: { operation: row.operation },
        },
        now,
      );
    }
    for (const op of this.cardBusy() ? [] : store.cardJournal.listUnresolved()) {
      store.attention.note(
        {
          id: ids.newId(),
          kind: 'payment-unresolved',
          ref: op.id,
          transactionId: op.transactionId,
          message: `a ${op.operationType} on the card unit is unresolved: run payment-recover`,
          details: { payment_id: op.id, phase: op.phase },
        },
        now,
      );
    }
    const quarantined = store.sync.quarantineCount();
    if (quarantined > 0) {
      store.attention.note(
        {
          id: ids.newId(),
          kind: 'record-quarantined',
          ref: `quarantine:${quarantined}`,
          message: `${quarantined} record(s) from the central service failed validation and were set aside`,
          details: { count: quarantined },
        },
        now,
      );
    }
    if (sync.link.status().skewWarning) {
      const day = new Date(now).toISOString().slice(0, 10);
      store.attention.note(
        {
          id: ids.newId(),
          kind: 'clock-skew',
          ref: `skew:${day}`,
          message: "this till's clock differs from the central service's",
          details: { skew_ms: sync.link.status().skewMs },
        },
        now,
      );
    }
  }

  count(): number {
    this.refresh();
    return this.p.store.attention.openCount();
  }

  list(includeResolved: boolean): CommandOutput<'attention-list'> {
    this.refresh();
    return { items: this.p.store.attention.list(includeResolved).map(itemOf) };
  }

  resolve(
    id: string,
    comment: string | undefined,
  ): CommandOutput<'attention-resolve'> | ErrorResponse {
    const staff = this.wf.staff!;
    const { store, clock, log } = this.p;
    const item = store.attention.get(id);
    if (!item) return refuse('not-found', 'no attention item has this id', 'id');
    if (item.resolvedAt !== null) return { item: itemOf(item) };
    store.attention.resolve(
      id,
      { id: staff.id, name: staff.name ?? null },
      comment ?? null,
      clock.now(),
    );
    log.info('attention item resolved', { item_id: id, kind: item.kind, staff_id: staff.id });
    return { item: itemOf(store.attention.get(id)!) };
  }
}
