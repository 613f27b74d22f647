// The receipt printer: sends an encoded receipt and asks the printer's real-time status first,
// so a silent or unplugged printer is reported before the cashier waits for paper.
import type { ReceiptDocumentInput } from '../../contract/receipt.js';
import { Inbox } from '../inbox.js';
import type { ByteLink } from '../link.js';
import { Mutex } from '../mutex.js';
import { statusRequest } from './commands.js';
import { renderReceipt } from './receipt.js';

export interface PrinterStatus {
  online: boolean;
  /** The raw status byte (DLE EOT 1). */
  byte: number;
}

export class EscPosPrinter {
  private readonly link: ByteLink;
  private readonly statusMs: number;
  /** The line width in columns (`printer.line_width`) the receipt is laid out at. */
  readonly width: number;
  private readonly answers = new Inbox<number>();
  private readonly mutex = new Mutex();
  private readonly off: () => void;

  constructor(link: ByteLink, options: { status_ms: number; width?: number }) {
    this.link = link;
    this.statusMs = options.status_ms;
    this.width = options.width ?? 42;
    this.off = link.onData((chunk) => {
      for (const b of chunk) this.answers.push(b);
    });
  }

  close(): void {
    this.off();
  }

  status(): Promise<PrinterStatus> {
    return this.mutex.run(() => this.statusLocked());
  }

  private async statusLocked(): Promise<PrinterStatus> {
    this.answers.clear();
    await this.link.write(statusRequest());
    const byte = await this.answers.next(this.statusMs, 'printer status');
    // Bit 3 set = offline; bits 1 and 4 are fixed 1 and 0 (0x12 = online).
    return { online: (byte & 0x93) === 0x12 && (byte & 0x08) === 0, byte };
  }

  /** Encodes the receipt at this printer's width and sends it; resolves to the bytes sent. */
  async print(receipt: ReceiptDocumentInput): Promise<Uint8Array> {
    const bytes = renderReceipt(receipt, this.width);
    await this.send(bytes);
    return bytes;
  }

  /** Sends encoded bytes after a status check; an offline or silent printer rejects. */
  send(bytes: Uint8Array): Promise<void> {
    return this.mutex.run(async () => {
      const s = await this.statusLocked();
      if (!s.online) throw new Error(`printer offline (status ${s.byte.toString(16)})`);
      await this.link.write(bytes);
    });
  }
}
