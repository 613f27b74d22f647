// The ZVT payment unit (ECR side), serial or TCP. Commands, the PT's answers (80 00 00, 84 xx,
// 04 FF, 04 0F, 06 D1/D3, 06 0F, 06 1E) and crash recovery by repeat receipt and reversal.
import type { BankCardExternalPaymentOperationType } from '../../contract/enums.js';
import { currencyNumber } from '../currency.js';
import { hexNumber, latin1 } from '../bytes.js';
import type { ByteLink } from '../link.js';
import { Mutex } from '../mutex.js';
import type { JournalEntry } from '../payment-journal.js';
import {
  type CardTransactionRequest,
  type CardTransactionResult,
  type MagReaderResult,
  type PaymentUnit,
  type RecoveryPolicy,
  type Resolution,
  type UnitOperationResult,
  type UnitProgress,
} from '../payment-unit.js';
import { parseTrack2 } from '../msr.js';
import { Recognizer } from '../recognition.js';
import { maskPan } from '../mask.js';
import type { Apdu } from './apdu.js';
import { ZvtChannel, type ZvtChannelOptions } from './channel.js';
import * as msg from './messages.js';

export interface ZvtTimeouts {
  inter_byte_ms: number;
  ack_ms: number;
  message_ms: number;
  transaction_ms: number;
}

export interface ZvtOptions {
  transport: 'serial' | 'tcp';
  timeouts: ZvtTimeouts;
  /** The PT's password, six digits. */
  password?: string;
  /** Registration config byte: BA = ECR prints receipts, intermediate status, ECR controls payment. */
  configByte?: number;
  currency?: string;
  /** Serial link repeats of a NAKed frame, or an unanswered one that moves no money (3). */
  maxRetries?: number;
  recognizer?: Recognizer;
  trace?: ZvtChannelOptions['trace'];
}

/** ZVT result codes with a meaning for the journal. */
const RC_ABORTED = 0x6c;
const RC_ALREADY_REVERSED = 0xb4;

type Progress = (p: UnitProgress) => void | Promise<void>;

interface Outcome {
  completed: boolean;
  aborted: boolean;
  refused: number | null;
  info: msg.StatusInfo | null;
  print: string[];
  error: string | null;
}

export class ZvtUnit implements PaymentUnit {
  readonly protocol = 'zvt' as const;
  readonly supports = new Set([
    'connect',
    'card-transactions',
    'mag-reader',
    'mag-reader-result',
    'welcome-screen',
  ] as const);
  private readonly channel: ZvtChannel;
  private readonly options: Required<Omit<ZvtOptions, 'trace' | 'recognizer'>> & {
    recognizer: Recognizer;
  };
  private readonly mutex = new Mutex();
  private receipt: number | null = null;
  private pendingRead: Promise<MagReaderResult> | null = null;

  constructor(link: ByteLink, options: ZvtOptions) {
    this.options = {
      password: '000000',
      configByte: 0xba,
      currency: 'EUR',
      maxRetries: 3,
      ...options,
      recognizer: options.recognizer ?? new Recognizer(),
    };
    this.channel = new ZvtChannel(link, {
      transport: options.transport,
      interByteMs: options.timeouts.inter_byte_ms,
      ackMs: options.timeouts.ack_ms,
      maxRetries: this.options.maxRetries,
      ...(options.trace ? { trace: options.trace } : {}),
    });
  }

  get lastReceipt(): number | null {
    return this.receipt;
  }

  private get ccy(): number {
    return currencyNumber(this.options.currency) ?? msg.EUR;
  }

  connect(): Promise<UnitOperationResult> {
    return this.mutex.run(async () => {
      const out = await this.exchange(
        msg.registration(this.options.password, this.options.configByte, this.ccy),
        this.options.timeouts.message_ms,
      );
      const ok = out.completed && out.refused === null && out.error === null;
      return {
        operation: 'connect',
        status: ok ? 'success' : 'fail',
        message: ok
          ? 'registered'
          : (out.error ??
            (out.refused !== null ? `refused (${hexNumber(out.refused)})` : 'aborted')),
      };
    });
  }

  cardTransaction(
    req: CardTransactionRequest,
    progress?: (p: UnitProgress) => void | Promise<void>,
  ): Promise<CardTransactionResult> {
    return this.mutex.run(async () => {
      const cents = req.amount_cents;
      const ccy = currencyNumber(req.currency) ?? this.ccy;
      let command: Apdu;
      switch (req.operation) {
        case 'purchase':
          command = msg.authorisation(cents, ccy);
          break;
        case 'authorize':
          command = msg.preAuthorisation(cents, ccy);
          break;
        case 'completion':
          if (req.original_receipt === null)
            return errorResult('completion needs the receipt of the pre-authorisation');
          command = msg.bookTotal(req.original_receipt, cents);
          break;
        case 'refund':
          command = msg.refund(this.options.password, cents, ccy);
          break;
        case 'cancel':
          if (req.original_receipt === null)
            return errorResult('cancel needs the receipt to reverse');
          command = msg.reversal(this.options.password, req.original_receipt);
          break;
      }
      const out = await this.exchange(command, this.options.timeouts.transaction_ms, progress);
      return this.toResult(req.operation, out);
    });
  }

  magReader(timeoutS: number): Promise<UnitOperationResult> {
    const read = this.mutex.run(async (): Promise<MagReaderResult> => {
      const out = await this.exchange(
        msg.readCard(timeoutS),
        timeoutS * 1000 + this.options.timeouts.message_ms,
      );
      if (!out.completed || out.info === null) {
        return {
          operation: 'mag-reader-result',
          status: 'fail',
          message: out.error ?? 'no card read',
          recognition: null,
        };
      }
      const recognition = this.recognise(out.info);
      return {
        operation: 'mag-reader-result',
        status: recognition ? 'success' : 'fail',
        message: recognition ? 'card read' : 'card data not readable',
        recognition,
      };
    });
    this.pendingRead = read;
    return Promise.resolve({
      operation: 'mag-reader',
      status: 'inprocess',
      message: 'waiting for a card',
    });
  }

  async magReaderResult(): Promise<MagReaderResult> {
    const read = this.pendingRead;
    if (!read)
      return {
        operation: 'mag-reader-result',
        status: 'fail',
        message: 'no card read was started',
        recognition: null,
      };
    this.pendingRead = null;
    return read;
  }

  welcomeScreen(lines: readonly string[]): Promise<UnitOperationResult> {
    return this.mutex.run(async () => {
      const out = await this.exchange(
        msg.displayText(lines, 0),
        this.options.timeouts.message_ms,
        undefined,
        true,
      );
      const ok = out.refused === null && out.error === null;
      return {
        operation: 'welcome-screen',
        status: ok ? 'success' : 'fail',
        message: ok ? 'shown' : (out.error ?? `refused (${hexNumber(out.refused ?? 0)})`),
      };
    });
  }

  resolve(
    entry: JournalEntry,
    policy: RecoveryPolicy,
    onResolving: () => Promise<void>,
  ): Promise<Resolution> {
    return this.mutex.run(() => this.resolveLocked(entry, policy, onResolving));
  }

  async close(): Promise<void> {
    this.channel.close();
  }

  private async resolveLocked(
    entry: JournalEntry,
    policy: RecoveryPolicy,
    onResolving: () => Promise<void>,
  ): Promise<Resolution> {
    if (entry.phase === 'created')
      return { status: 'fail', receipt_no: null, note: 'never sent to the unit: not charged' };
    if (entry.operation === 'cancel') {
      if (entry.original_receipt === null)
        return { status: 'error', receipt_no: null, note: 'cancel without a receipt' };
      await onResolving();
      return this.reverse(entry.original_receipt, 'success', 'reversal confirmed by the unit');
    }
    if (entry.result_code !== null && entry.result_code !== '00') {
      return { status: 'fail', receipt_no: null, note: `the unit declined (${entry.result_code})` };
    }
    let receipt = entry.receipt_no;
    if (receipt === null) {
      // The last transaction the unit booked tells whether this one reached it.
      const out = await this.exchange(
        msg.repeatReceipt(this.options.password),
        this.options.timeouts.message_ms,
      );
      if (out.error !== null && out.info === null)
        throw new Error(`repeat receipt failed: ${out.error}`);
      const last = out.info;
      const isOurs =
        last !== null &&
        last.receipt_no !== null &&
        last.receipt_no !== entry.baseline_receipt &&
        (last.result_code ?? 0) === 0 &&
        last.amount_cents === entry.amount_cents;
      if (!isOurs) {
        const lastNo = last?.receipt_no ?? null;
        return {
          status: 'fail',
          receipt_no: null,
          note: `not charged: the unit's last receipt is ${lastNo ?? 'none'}, from before this operation`,
        };
      }
      receipt = last.receipt_no;
      if (receipt !== null) this.receipt = receipt;
    }
    if (receipt === null)
      return { status: 'error', receipt_no: null, note: 'booked without a receipt number' };
    const booked = (status: Resolution['status']): Resolution => ({
      status,
      receipt_no: receipt,
      note: 'booked by the unit; recorded as such',
    });
    switch (entry.operation as Exclude<BankCardExternalPaymentOperationType, 'cancel'>) {
      case 'purchase':
        if (policy === 'accept') return booked('success');
        await onResolving();
        return this.reverse(receipt, 'canceled', 'booked but never confirmed: reversed');
      case 'authorize':
        if (policy === 'accept') return booked('authorized');
        await onResolving();
        return this.reverseReservation(receipt, entry.amount_cents);
      case 'refund':
      case 'completion':
        // Undoing these would move money again; what the unit booked stands.
        return booked('success');
    }
  }

  private async reverse(
    receipt: number,
    okStatus: Resolution['status'],
    note: string,
  ): Promise<Resolution> {
    const out = await this.exchange(
      msg.reversal(this.options.password, receipt),
      this.options.timeouts.transaction_ms,
    );
    const rc = out.info?.result_code ?? (out.aborted ? RC_ABORTED : null);
    if (out.completed && (rc === null || rc === 0))
      return { status: okStatus, receipt_no: receipt, note };
    if (rc === RC_ALREADY_REVERSED || out.refused === RC_ALREADY_REVERSED) {
      return {
        status: okStatus,
        receipt_no: receipt,
        note: `${note} (the unit had already reversed it)`,
      };
    }
    if (out.error !== null) throw new Error(`reversal of receipt ${receipt} failed: ${out.error}`);
    return {
      status: 'error',
      receipt_no: receipt,
      note: `reversal of receipt ${receipt} refused (${hexNumber(rc ?? out.refused ?? 0xff)}): check the unit`,
    };
  }

  private async reverseReservation(receipt: number, cents: number): Promise<Resolution> {
    const out = await this.exchange(
      msg.preAuthReversal(receipt, cents),
      this.options.timeouts.transaction_ms,
    );
    const rc = out.info?.result_code ?? null;
    if (out.completed && (rc === null || rc === 0 || rc === RC_ALREADY_REVERSED)) {
      return {
        status: 'canceled',
        receipt_no: receipt,
        note: 'reservation never confirmed: reversed',
      };
    }
    if (out.error !== null) throw new Error(`reservation reversal failed: ${out.error}`);
    return {
      status: 'error',
      receipt_no: receipt,
      note: 'reservation reversal refused: check the unit',
    };
  }

  private recognise(info: msg.StatusInfo): MagReaderResult['recognition'] {
    if (info.track2) {
      const t = parseTrack2(`;${info.track2}?`);
      if (t.ok)
        return this.options.recognizer.recogniseSwipe({
          track1: null,
          track2: t.value,
          track3: null,
          errors: [],
        });
    }
    if (info.pan_masked)
      return {
        kind: 'bank-card',
        masked: info.pan_masked.includes('*') ? info.pan_masked : maskPan(info.pan_masked),
        source: 'msr',
      };
    return null;
  }

  private toResult(op: BankCardExternalPaymentOperationType, out: Outcome): CardTransactionResult {
    const info = out.info;
    const base = {
      receipt_no: info?.receipt_no ?? null,
      trace_no: info?.trace_no ?? null,
      pan_masked: info?.pan_masked ?? null,
      amount_cents: info?.amount_cents ?? null,
      print_lines: out.print,
      auth_code: info?.auth_code ?? null,
      terminal_id: info?.terminal_id == null ? null : String(info.terminal_id).padStart(8, '0'),
    };
    if (out.error !== null)
      return { ...base, status: 'error', result_code: null, message: out.error };
    if (out.refused !== null)
      return {
        ...base,
        status: 'fail',
        result_code: hexNumber(out.refused),
        message: 'command refused by the unit',
      };
    const rc = info?.result_code ?? null;
    if (out.aborted || rc === RC_ABORTED) {
      return {
        ...base,
        status: rc === RC_ABORTED || rc === null ? 'canceled' : 'fail',
        result_code: rc === null ? null : hexNumber(rc),
        message: 'aborted',
      };
    }
    if (rc !== null && rc !== 0)
      return { ...base, status: 'fail', result_code: hexNumber(rc), message: 'declined' };
    if (base.receipt_no !== null) this.receipt = base.receipt_no;
    return {
      ...base,
      status: op === 'authorize' ? 'authorized' : 'success',
      result_code: '00',
      message: 'approved',
    };
  }

  /**
   * Sends one command and follows the PT until it hands control back (06 0F or 06 1E), answering
   * each of its messages with 80 00 00. Never throws for the unit's behaviour: link failures and
   * time-outs come back as `error` (outcome unknown).
   */
  private async exchange(
    command: Apdu,
    deadlineMs: number,
    progress?: Progress,
    ackIsEnough = false,
  ): Promise<Outcome> {
    const out: Outcome = {
      completed: false,
      aborted: false,
      refused: null,
      info: null,
      print: [],
      error: null,
    };
    this.channel.flush();
    try {
      await progress?.({ kind: 'sent' });
      await this.channel.send(command);
      const until = Date.now() + deadlineMs;
      out.refused = await this.awaitAcceptance(until);
      if (out.refused !== null) return out;
      await progress?.({ kind: 'accepted' });
      await this.followToCompletion(out, { until, deadlineMs, ackIsEnough }, progress);
      return out;
    } catch (e) {
      out.error = (e as Error).message;
      return out;
    }
  }

  /**
   * The PT acknowledges the command itself (80 00 00) or refuses it (84 xx): null once accepted,
   * else the refusal's code.
   */
  private async awaitAcceptance(until: number): Promise<number | null> {
    const t = this.options.timeouts;
    for (;;) {
      const a = await this.channel.receive(Math.min(t.message_ms, Math.max(1, until - Date.now())));
      if (a.cls === 0x80) return null;
      if (a.cls === 0x84) return a.ins;
      // Left over from an earlier exchange: answer it so the PT moves on.
      await this.channel.send(msg.ACK_APDU);
    }
  }

  /**
   * Answers the PT's messages until it hands control back. With `ackIsEnough`, a short silence
   * also ends the exchange (the acceptance was all that was needed).
   */
  private async followToCompletion(
    out: Outcome,
    limits: { until: number; deadlineMs: number; ackIsEnough: boolean },
    progress?: Progress,
  ): Promise<void> {
    const { until, deadlineMs, ackIsEnough } = limits;
    const t = this.options.timeouts;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no completion within ${deadlineMs} ms`);
      let a: Apdu;
      try {
        a = await this.channel.receive(ackIsEnough ? Math.min(left, t.message_ms, 1000) : left);
      } catch (e) {
        if (ackIsEnough) return;
        throw e;
      }
      if (await this.onPtMessage(a, out, progress)) return;
    }
  }

  /** Records and answers one message of the PT; true when it hands control back. */
  private async onPtMessage(a: Apdu, out: Outcome, progress?: Progress): Promise<boolean> {
    switch ((a.cls << 8) | a.ins) {
      case 0x040f:
        await this.onStatusInfo(a, out, progress);
        return false;
      case 0x04ff:
        await this.channel.send(msg.ACK_APDU);
        await progress?.({ kind: 'intermediate', code: a.data[0] ?? 0xff });
        return false;
      case 0x06d1:
      case 0x06d3:
        out.print.push(printable(a.ins === 0xd1 ? a.data.slice(1) : a.data));
        await this.channel.send(msg.ACK_APDU);
        return false;
      case 0x060f:
        await this.channel.send(msg.ACK_APDU);
        out.completed = true;
        await progress?.({ kind: 'completed' });
        return true;
      case 0x061e:
        await this.channel.send(msg.ACK_APDU);
        out.aborted = true;
        // An abort may carry the result code; the status info seen before stays.
        if (a.data[0] !== undefined) {
          out.info = {
            ...(out.info ?? msg.parseStatusInfo(new Uint8Array(0))),
            result_code: a.data[0],
          };
        }
        return true;
      default:
        await this.channel.send(msg.ACK_APDU);
        return false;
    }
  }

  /** 04 0F: the transaction's outcome (receipt, trace, card, result code). */
  private async onStatusInfo(a: Apdu, out: Outcome, progress?: Progress): Promise<void> {
    out.info = msg.parseStatusInfo(a.data);
    const rc = out.info.result_code;
    await progress?.({
      kind: 'authorised',
      receipt_no: out.info.receipt_no,
      trace_no: out.info.trace_no,
      pan_masked: out.info.pan_masked,
      result_code: rc === null ? null : hexNumber(rc),
      approved: rc === null || rc === 0,
    });
    await this.channel.send(msg.ACK_APDU);
  }
}

function errorResult(message: string): CardTransactionResult {
  return {
    status: 'fail',
    receipt_no: null,
    trace_no: null,
    pan_masked: null,
    amount_cents: null,
    result_code: null,
    message,
    print_lines: [],
  };
}

function printable(bytes: Uint8Array): string {
  return latin1(bytes)
    .replace(/[^\x20-\x7e\xa0-\xff]/g, ' ')
    .trim();
}
