// The Ingenico Concert E+ payment unit (ECR side). Concert has no status enquiry, no card read
// and no display text: those report unsupported, and recovery marks an interrupted operation
// `error` for a person to check on the unit's own journal (never a blind repeat).
import type { BankCardExternalPaymentOperationType } from '../../contract/enums.js';
import { currencyNumber } from '../currency.js';
import { Inbox } from '../inbox.js';
import { type ByteLink, LinkError } from '../link.js';
import { Mutex } from '../mutex.js';
import type { JournalEntry } from '../payment-journal.js';
import {
  type CardTransactionRequest,
  type CardTransactionResult,
  type MagReaderResult,
  type PaymentUnit,
  type Resolution,
  type UnitOperationResult,
  type UnitProgress,
  unsupported,
} from '../payment-unit.js';
import {
  ACK,
  type ConcertEvent,
  ConcertStream,
  decodeMessage,
  encodeMessage,
  encodeRequest,
  ENQ,
  EOT,
  NAK,
  parseAnswer,
} from './frame.js';

export interface ConcertOptions {
  timeouts: { inter_byte_ms: number; ack_ms: number; message_ms: number; transaction_ms: number };
  /** The POS number every request carries (two digits, `01`). */
  pos?: string;
  /**
   * Repeats of our request after a NAK or no ACK, and NAKs of an unreadable answer (3). Safe:
   * the unit acts on a request only when the session ends (EOT), and a repeat inside the
   * session replaces it. The ENQ attempts stay at the spec's three.
   */
  maxRetries?: number;
}

const TYPES: Partial<Record<BankCardExternalPaymentOperationType, string>> = {
  purchase: '0',
  refund: '1',
  cancel: '2',
  authorize: '4',
};

export class ConcertUnit implements PaymentUnit {
  readonly protocol = 'concert' as const;
  readonly supports = new Set(['connect', 'card-transactions'] as const);
  readonly lastReceipt = null;
  private readonly link: ByteLink;
  private readonly options: Required<ConcertOptions>;
  private readonly events = new Inbox<ConcertEvent>();
  private readonly stream = new ConcertStream();
  private readonly mutex = new Mutex();
  private readonly off: () => void;
  private lastChunkAt = 0;

  constructor(link: ByteLink, options: ConcertOptions) {
    this.link = link;
    this.options = { pos: '01', maxRetries: 3, ...options };
    this.off = link.onData((chunk) => {
      const now = Date.now();
      if (this.stream.pending && now - this.lastChunkAt > this.options.timeouts.inter_byte_ms)
        this.stream.reset();
      this.lastChunkAt = now;
      for (const ev of this.stream.push(chunk)) this.events.push(ev);
    });
  }

  async close(): Promise<void> {
    this.off();
    this.events.failAll(new LinkError('not-open', 'closed'));
  }

  connect(): Promise<UnitOperationResult> {
    return this.mutex.run(async () => {
      try {
        this.events.clear();
        await this.enquire();
        await this.link.write(Uint8Array.of(EOT));
        return { operation: 'connect', status: 'success', message: 'the unit answers' };
      } catch (e) {
        return { operation: 'connect', status: 'fail', message: (e as Error).message };
      }
    });
  }

  magReader(): Promise<UnitOperationResult> {
    return Promise.resolve(unsupported('mag-reader', 'concert'));
  }

  magReaderResult(): Promise<MagReaderResult> {
    return Promise.resolve({
      ...unsupported('mag-reader-result', 'concert'),
      operation: 'mag-reader-result',
      recognition: null,
    });
  }

  welcomeScreen(): Promise<UnitOperationResult> {
    return Promise.resolve(unsupported('welcome-screen', 'concert'));
  }

  async resolve(entry: JournalEntry): Promise<Resolution> {
    if (entry.phase === 'created')
      return { status: 'fail', receipt_no: null, note: 'never sent to the unit: not charged' };
    return {
      status: 'error',
      receipt_no: null,
      note: 'Concert has no status enquiry: check the unit’s own journal for this amount before charging again',
    };
  }

  cardTransaction(
    req: CardTransactionRequest,
    progress?: (p: UnitProgress) => void | Promise<void>,
  ): Promise<CardTransactionResult> {
    return this.mutex.run(async () => {
      const type = TYPES[req.operation];
      const empty = {
        receipt_no: null,
        trace_no: null,
        pan_masked: null,
        amount_cents: null,
        print_lines: [],
      };
      if (type === undefined)
        return {
          ...empty,
          status: 'fail',
          result_code: null,
          message: `${req.operation} is not supported by concert`,
        };
      const privateData = req.reference.replace(/-/g, '').slice(0, 10);
      const text = encodeRequest({
        pos: this.options.pos,
        amount_cents: req.amount_cents,
        answer_flag: '1',
        mode: '1',
        type,
        currency: String(currencyNumber(req.currency) ?? 978),
        private_data: privateData,
        delay: 'A010',
        authorisation: 'B010',
      });
      try {
        this.events.clear();
        await progress?.({ kind: 'sent' });
        await this.enquire();
        await this.sendMessage(encodeMessage(text));
        await this.link.write(Uint8Array.of(EOT));
        await progress?.({ kind: 'accepted' });
        const answerText = await this.receiveSession(this.options.timeouts.transaction_ms);
        const answer = parseAnswer(answerText);
        if (!answer.ok)
          return {
            ...empty,
            status: 'error',
            result_code: null,
            message: `unreadable answer: ${answer.message}`,
          };
        const a = answer.value;
        if (a.private_data.trim() !== privateData) {
          return {
            ...empty,
            status: 'error',
            result_code: null,
            message: 'the answer belongs to another request',
          };
        }
        const approved = a.status === '0';
        await progress?.({
          kind: 'authorised',
          receipt_no: null,
          trace_no: null,
          pan_masked: null,
          result_code: a.status,
          approved,
        });
        await progress?.({ kind: 'completed' });
        return {
          ...empty,
          amount_cents: a.amount_cents,
          status: approved ? (req.operation === 'authorize' ? 'authorized' : 'success') : 'fail',
          result_code: a.status,
          message: approved ? 'accepted' : 'refused',
          print_lines: a.rep.trim() ? [a.rep.trim()] : [],
        };
      } catch (e) {
        return { ...empty, status: 'error', result_code: null, message: (e as Error).message };
      }
    });
  }

  /** ENQ until the unit ACKs: three attempts at most (devices.md, not `maxRetries`). */
  private async enquire(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.link.write(Uint8Array.of(ENQ));
      if (await this.awaitControl(ACK, this.options.timeouts.ack_ms)) return;
    }
    throw new Error('the unit does not answer ENQ');
  }

  private async sendMessage(bytes: Uint8Array): Promise<void> {
    for (let attempt = 0; attempt <= this.options.maxRetries; attempt++) {
      await this.link.write(bytes);
      if (await this.awaitControl(ACK, this.options.timeouts.ack_ms)) return;
    }
    throw new Error(`message not acknowledged after ${this.options.maxRetries + 1} sends`);
  }

  /** Waits for `byte`; false on NAK or time-out. Stray messages are ignored. */
  private async awaitControl(byte: number, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return false;
      let ev: ConcertEvent;
      try {
        ev = await this.events.next(left, 'ACK');
      } catch {
        return false;
      }
      if (ev.kind === 'control' && ev.byte === byte) return true;
      if (ev.kind === 'control' && ev.byte === NAK) return false;
    }
  }

  /** The unit's session: ENQ, message (ACK or NAK on its LRC), EOT. */
  private async receiveSession(ms: number): Promise<string> {
    const until = Date.now() + ms;
    let answer: string | null = null;
    let nakked = 0;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no answer within ${ms} ms`);
      const ev = await this.events.next(
        answer === null ? left : Math.min(left, this.options.timeouts.message_ms),
        'answer',
      );
      if (ev.kind === 'control') {
        if (ev.byte === ENQ) await this.link.write(Uint8Array.of(ACK));
        else if (ev.byte === EOT && answer !== null) return answer;
        continue;
      }
      const decoded = decodeMessage(ev.bytes);
      if (decoded.ok) {
        answer = decoded.value;
        await this.link.write(Uint8Array.of(ACK));
      } else if (nakked++ < this.options.maxRetries) await this.link.write(Uint8Array.of(NAK));
      else throw new Error(`answer unreadable: ${decoded.message}`);
    }
  }
}
