// Printing receipts: a sale's receipt is built (receipt.ts), kept with the sale (`receipt` in
// command_result, by its transaction id), encoded once to ESC/POS, sent to the printer, and the
// very bytes sent are decoded into the preview the sale's answer carries. `receipt-reprint`
// prints the kept receipt again marked as a copy (a sale recorded without one, by an older
// version or a stop between its record and its print, is rebuilt from the stored sale, without
// the balances after it). A printer problem never undoes a sale: logged, answered false.
import type { CommandOutput, CustomerSummary, ErrorResponse } from '../contract/commands.js';
import type { EngineCheck, EngineCheckResult } from '../contract/engine.js';
import type { ReceiptDocument, ReceiptPreview } from '../contract/receipt.js';
import { drawerPulse } from '../devices/escpos/commands.js';
import { decodePreview } from '../devices/escpos/decode.js';
import { renderReceipt } from '../devices/escpos/receipt.js';
import { refuse } from './command-map.js';
import type { TerminalPorts } from './ports.js';
import {
  couponSlipOf,
  receiptOf,
  type CouponSaleFacts,
  type PaidByCard,
  type ReceiptContext,
} from './receipt.js';
import { withTender } from './tendered-check.js';

/** The sale as checkout hands it over after its record. */
export interface SoldSale {
  /** The processed check. */
  check: EngineCheckResult;
  /** The check as paid (its tender: payment type, id, split). */
  sale: EngineCheck;
  offline: boolean;
  cash: { given: number; change: number } | null;
}

/** Prints a recorded sale's receipt; true when the printer took it. */
export type PrintSale = (sold: SoldSale) => Promise<boolean>;

type Reprint = CommandOutput<'receipt-reprint'>;

/** Previews kept for the answers of the sales just printed (a handful at most in flight). */
const RECENT = 8;

export class ReceiptService {
  private readonly p: TerminalPorts;
  private readonly customerOf: (id: string) => CustomerSummary | null;
  private readonly recent = new Map<string, ReceiptPreview>();

  constructor(p: TerminalPorts, customerOf: (id: string) => CustomerSummary | null) {
    this.p = p;
    this.customerOf = customerOf;
  }

  /** The printer's line width: the printer's, else the configured one. */
  get width(): number {
    return this.p.devices?.printer?.width ?? this.p.config.devices.printer?.line_width ?? 42;
  }

  private context(): ReceiptContext {
    const t = this.p.config.terminal.name;
    return { cache: this.p.store.cache, terminal: { id: this.p.terminalId, name: t } };
  }

  /** Builds, keeps and prints a recorded sale's receipt; never throws. */
  readonly printSale: PrintSale = (sold) => {
    const id = sold.check.transaction_id ?? '';
    return this.keepAndPrint(id, () => this.build(sold, id));
  };

  /** Builds, keeps and prints a coupon sale's slip (the coupon with its code); never throws. */
  printCouponSale(facts: CouponSaleFacts): Promise<boolean> {
    return this.keepAndPrint(facts.sale.transaction_id, () => couponSlipOf(facts, this.context()));
  }

  /** Keeps the document as the transaction's receipt, prints it and remembers its preview. */
  private async keepAndPrint(id: string, build: () => ReceiptDocument): Promise<boolean> {
    let doc: ReceiptDocument;
    try {
      doc = build();
      this.p.store.commandResults.put('receipt', id, '', doc, this.p.clock.now());
    } catch (e) {
      this.p.log.warn('receipt not built', { transaction_id: id, err: e });
      return false;
    }
    const { printed, preview } = await this.print(doc);
    this.remember(id, preview);
    return printed;
  }

  private build(sold: SoldSale, id: string): ReceiptDocument {
    const { store, clock } = this.p;
    const check = withTender(sold.check, sold.sale);
    return receiptOf(
      {
        check,
        offline: sold.offline,
        cash: sold.cash,
        cards: this.cardsOf(id),
        soldAt: store.ledger.status(id)?.createdAt ?? clock.now(),
        customer: check.customer_id ? this.customerOf(check.customer_id) : null,
      },
      this.context(),
    );
  }

  /** The sale's card operations with the slips their unit reported. */
  private cardsOf(id: string): PaidByCard[] {
    const { cardJournal, commandResults } = this.p.store;
    return cardJournal
      .forTransaction(id)
      .map((op) => ({ op, slip: commandResults.get('card-slip', op.id)?.response ?? null }));
  }

  /** Encodes once, sends those bytes, and decodes the same bytes for the screen. */
  private async print(
    doc: ReceiptDocument,
  ): Promise<{ printed: boolean; preview: ReceiptPreview }> {
    const width = this.width;
    const bytes = renderReceipt(doc, width);
    const decoded = decodePreview(bytes, width);
    // Our own encoder's output always decodes; a failure here is a bug.
    if (!decoded.ok) throw new Error(`receipt bytes do not decode: ${decoded.message}`);
    const printer = this.p.devices?.printer;
    if (!printer) return { printed: false, preview: decoded.value };
    try {
      await printer.send(bytes);
      return { printed: true, preview: decoded.value };
    } catch (e) {
      this.p.log.warn('receipt not printed', { transaction_id: doc.transaction_id, err: e });
      return { printed: false, preview: decoded.value };
    }
  }

  /** Opens the cash drawer the printer drives (ESC p); true when the printer took the pulse. */
  pulseDrawer(): Promise<boolean> {
    return this.sendToPrinter(drawerPulse(), { what: 'drawer pulse' });
  }

  /** Sends bytes other than a sale's receipt (a pulse, a shift report); never throws. */
  async sendToPrinter(bytes: Uint8Array, about: Record<string, unknown>): Promise<boolean> {
    const printer = this.p.devices?.printer;
    if (!printer) return false;
    try {
      await printer.send(bytes);
      return true;
    } catch (e) {
      this.p.log.warn('not printed', { ...about, err: e });
      return false;
    }
  }

  private remember(id: string, preview: ReceiptPreview): void {
    this.recent.delete(id);
    this.recent.set(id, preview);
    for (const old of this.recent.keys()) {
      if (this.recent.size <= RECENT) break;
      this.recent.delete(old);
    }
  }

  /**
   * The preview of a sale's receipt: what its print just sent, else its kept receipt encoded
   * again (the encoder is a pure function of the document and the width); null without one.
   */
  preview(id: string): ReceiptPreview | null {
    const sent = this.recent.get(id);
    if (sent) return sent;
    try {
      const kept = this.p.store.commandResults.get('receipt', id)?.response;
      if (!kept) return null;
      const decoded = decodePreview(renderReceipt(kept, this.width), this.width);
      return decoded.ok ? decoded.value : null;
    } catch (e) {
      this.p.log.warn('kept receipt unreadable', { transaction_id: id, err: e });
      return null;
    }
  }

  /** The sale's answer with its receipt's preview, when it printed one. */
  withPreview<A extends { transaction_id: string }>(answer: A | ErrorResponse): A | ErrorResponse {
    if ('error' in answer) return answer;
    const receipt = this.preview(answer.transaction_id);
    return receipt ? { ...answer, receipt } : answer;
  }

  /** Prints a stored sale's receipt again, marked COPY; the drawer stays shut. */
  async reprint(id: string): Promise<Reprint | ErrorResponse> {
    const found = this.storedReceipt(id);
    if ('error' in found) return found;
    const copy: ReceiptDocument = { ...found, copy: true };
    const { printed, preview } = await this.print(copy);
    this.p.log.info('receipt reprinted', { transaction_id: id, printed });
    return { transaction_id: id, receipt_printed: printed, receipt: preview };
  }

  /** The kept receipt, else one rebuilt from the stored sale; a cancel is noted on it. */
  private storedReceipt(id: string): ReceiptDocument | ErrorResponse {
    const { ledger, commandResults } = this.p.store;
    const stored = ledger.storedCheck(id);
    const type = stored?.document.transaction_type ?? 'sale';
    if (!stored || (type !== 'sale' && type !== 'completion'))
      return refuse(
        'not-found',
        `no sale ${id} is stored on this terminal (a refund or a pump authorisation has no receipt to print again)`,
        'transaction_id',
      );
    const doc = commandResults.get('receipt', id)?.response ?? this.rebuilt(id, stored.document);
    if (stored.cancelledBy === null) return doc;
    return { ...doc, footer: [...doc.footer, 'This sale was cancelled.'] };
  }

  /** A stored sale's receipt from its record: the balances after it are no longer known. */
  private rebuilt(id: string, check: EngineCheckResult): ReceiptDocument {
    const { store, clock } = this.p;
    const status = store.ledger.status(id);
    const answer = store.commandResults.get('sale-process', id)?.response;
    return receiptOf(
      {
        check,
        offline: (status?.subtype ?? check.transaction_subtype) === 'offline',
        cash: answer?.cash ?? null,
        cards: this.cardsOf(id),
        soldAt: status?.createdAt ?? clock.now(),
        customer: null,
      },
      this.context(),
    );
  }
}
