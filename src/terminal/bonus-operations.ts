// `bonus-operation` (docs/terminal.md, "Loyalty at the till"): a manager adds bonuses to or
// writes them off the identified customer's balance, with why. The terminal builds the
// contract's BonusesOperationObject itself (terminal_id, users: never the caller's) and sends
// it online first under the client-made transaction_id (the Idempotency-Key); when the link
// fails it stands in: the operation is queued under the same key, so the outbox delivers it
// exactly once, lost answers included. A write-off beyond what the till knows the customer
// holds is refused in plain words, online or not; nothing moves twice for one key.
import type { CommandOutput, ErrorResponse, HandlerInput } from '../contract/commands.js';
import type { CachedCustomer } from '../store/cache.js';
import { dec, gt, min, sub, toNumber, ZERO, type Dec } from '../money/index.js';
import { refuse } from './command-map.js';
import type { IdentifyService } from './identify.js';
import { InFlight, requestHash } from './idempotency.js';
import { bonusOperation, type Answered, payloadMetaOf } from './ledger-ops.js';
import { posToday } from './pos-date.js';
import type { TerminalPorts } from './ports.js';
import { staffRefOf } from './business-staff.js';
import { iso, type Workflow } from './workflow.js';

type Input = HandlerInput<'bonus-operation'>;
type Output = CommandOutput<'bonus-operation'>;

const conflict = (): ErrorResponse =>
  refuse(
    'idempotency-conflict',
    'this transaction_id was used for another bonus operation; make a new one',
    'transaction_id',
  );

export class BonusOperationService {
  private readonly p: TerminalPorts;
  private readonly wf: Workflow;
  private readonly identify: IdentifyService;
  private readonly inFlight = new InFlight();

  constructor(p: TerminalPorts, wf: Workflow, identify: IdentifyService) {
    this.p = p;
    this.wf = wf;
    this.identify = identify;
  }

  run(i: Input): Promise<Output | ErrorResponse> {
    const hash = requestHash(i);
    return this.inFlight.run(i.transaction_id, hash, conflict, () => this.once(i, hash));
  }

  /** The customer's regular bonuses the till can still take: cached, less its holds. */
  regularNow(c: CachedCustomer): Dec {
    const s = this.identify.summary(c).bonuses;
    const left = sub(dec(s.available), dec(s.promotional));
    return gt(left, ZERO) ? min(left, dec(s.regular)) : ZERO;
  }

  private async once(i: Input, hash: string): Promise<Output | ErrorResponse> {
    const { store, sync, config } = this.p;
    const kept = store.commandResults.get('bonus-operation', i.transaction_id);
    if (kept) return kept.requestHash === hash ? kept.response : conflict();
    const c = store.cache.customerById(i.customer_id);
    if (!c)
      return refuse(
        'customer-not-found',
        'this customer is not known here: identify them first (card, phone or QR code)',
        'customer_id',
      );
    const held = this.regularNow(c);
    if (i.kind === 'write-off' && gt(dec(i.amount), held))
      return refuse(
        'bonuses-insufficient',
        `the customer has ${toNumber(held)} bonuses: ${i.amount} cannot be written off`,
        'amount',
        { balance: toNumber(held), amount: i.amount },
      );
    const body = {
      terminal_id: this.p.terminalId,
      amount: i.amount,
      comment: i.comment,
      users: [i.customer_id],
    };
    const online =
      sync.link.current === 'offline'
        ? null
        : await sync.client.write(
            i.kind === 'add' ? 'bonusesAdd' : 'bonusesWriteOff',
            body,
            i.transaction_id,
            { deadlineMs: config.central.timeouts.online_deadline_ms },
          );
    if (online && !online.ok && online.failure.kind === 'http' && !online.failure.retryable) {
      const f = online.failure;
      return refuse(f.code, `the central service refused it: ${f.message}`, 'amount');
    }
    if (online?.ok) {
      const balance = online.value.results.find((r) => r.customer_id === i.customer_id)?.balance;
      return this.record(i, hash, c, body, { status: 'done', response: online.value }, balance);
    }
    // No answer (offline, time-out, 5xx, 429, a dropped answer): stand in and queue it under
    // the same key; the central service applies it once when the outbox delivers it.
    const out = this.record(i, hash, c, body, { status: 'queued' }, undefined);
    sync.kick();
    return out;
  }

  private record(
    i: Input,
    hash: string,
    c: CachedCustomer,
    body: Record<string, unknown>,
    answered: Answered,
    serverBalance: number | undefined,
  ): Output {
    const { store, clock } = this.p;
    const staff = this.wf.staff!;
    const now = clock.now();
    return store.write(() => {
      store.record(
        bonusOperation({
          id: i.transaction_id,
          subtype: answered.status === 'done' ? 'online' : 'offline',
          localDate: posToday(store.cache, now),
          customerId: i.customer_id,
          kind: i.kind,
          amount: i.amount,
          body,
          answered,
          meta: payloadMetaOf(this.p, now),
        }),
      );
      const out: Output = {
        transaction_id: i.transaction_id,
        customer_id: i.customer_id,
        kind: i.kind,
        amount: i.amount,
        comment: i.comment,
        balance: serverBalance ?? toNumber(this.regularNow(c)),
        subtype: answered.status === 'done' ? 'online' : 'offline',
        sync: answered.status === 'done' ? 'done' : 'queued',
        staff: staffRefOf(staff),
        recorded_at: iso(now)!,
      };
      store.commandResults.put('bonus-operation', i.transaction_id, hash, out, now);
      this.p.log.info('bonus operation', {
        kind: i.kind,
        customer_id: i.customer_id,
        sync: out.sync,
      });
      return out;
    });
  }
}
