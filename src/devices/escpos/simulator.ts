// A receipt printer: decodes what it is sent into receipts (text lines, QR and barcode data,
// the drawer's pulses) and answers the real-time status request. The cash drawer it drives
// counts its openings.
import type { ByteLink } from '../link.js';
import { FaultyWriter, type FaultSwitches, noFaults } from '../sim/faults.js';
import type { Simulator } from '../sim/host.js';
import { decodeEscPosPrefix, type EscPosCommand } from './decode.js';

export interface PrintedReceipt {
  lines: string[];
  qr: string[];
  barcodes: string[];
  /** Drawer pulses (ESC p) among this receipt's commands. */
  drawer: number;
  commands: EscPosCommand[];
}

const blank = (): PrintedReceipt => ({ lines: [], qr: [], barcodes: [], drawer: 0, commands: [] });

export class PrinterSimulator implements Simulator {
  readonly faults: FaultSwitches = noFaults();
  readonly receipts: PrintedReceipt[] = [];
  offline = false;
  /** How many times the cash drawer was opened (a pulse on either pin). */
  drawerOpened = 0;
  private readonly writer: FaultyWriter;
  private pending = new Uint8Array(0);
  private current: PrintedReceipt = blank();
  private lineBuf = '';
  errors: string[] = [];

  constructor() {
    this.writer = new FaultyWriter(this.faults, Uint8Array.of(0x00, 0xff));
  }

  attach(link: ByteLink): () => void {
    this.writer.link = link;
    const off = link.onData((chunk) => this.onData(chunk));
    return () => {
      off();
      if (this.writer.link === link) this.writer.link = null;
    };
  }

  private onData(chunk: Uint8Array): void {
    if (this.faults.silence) return;
    const joined = new Uint8Array(this.pending.length + chunk.length);
    joined.set(this.pending);
    joined.set(chunk, this.pending.length);
    const r = decodeEscPosPrefix(joined);
    if (!r.ok) {
      this.errors.push(r.message);
      this.pending = new Uint8Array(0);
      return;
    }
    this.pending = joined.slice(r.value.used);
    for (const c of r.value.commands) this.apply(c);
  }

  private apply(c: EscPosCommand): void {
    if (c.cmd === 'status-request') {
      void this.writer.write(Uint8Array.of(this.offline ? 0x1a : 0x12));
      return;
    }
    this.current.commands.push(c);
    if (c.cmd === 'text') this.lineBuf += c.text;
    else if (c.cmd === 'feed') {
      this.current.lines.push(this.lineBuf);
      this.lineBuf = '';
    } else if (c.cmd === 'qr-store') this.current.qr.push(c.data);
    else if (c.cmd === 'barcode') this.current.barcodes.push(c.data);
    else if (c.cmd === 'drawer-pulse') {
      this.current.drawer++;
      this.drawerOpened++;
    } else if (c.cmd === 'cut') {
      if (this.lineBuf) this.current.lines.push(this.lineBuf);
      this.lineBuf = '';
      this.receipts.push(this.current);
      this.current = blank();
    }
  }
}
