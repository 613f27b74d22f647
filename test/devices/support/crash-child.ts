// The terminal side of the crash tests, run as its own process: pays once (the baseline), then
// starts the purchase the test kills. `crashAt` lets the process kill itself at points the
// test cannot reach from outside (before the first byte, before the outcome is recorded).
import { ManagedLink } from '../../../src/devices/link.js';
import { PaymentFlow } from '../../../src/devices/payment-flow.js';
import type { JournalPatch } from '../../../src/devices/payment-journal.js';
import { openSerial } from '../../../src/devices/serial.js';
import { ZvtUnit } from '../../../src/devices/zvt/driver.js';
import { FileJournal } from './file-journal.js';

interface Args {
  path: string;
  journal: string;
  crashAt: 'none' | 'before-first-byte' | 'before-record';
  warmup: number;
  amount: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const timeouts = { inter_byte_ms: 200, ack_ms: 150, message_ms: 800, transaction_ms: 3_000 };

class CrashingJournal extends FileJournal {
  armed = false;
  override update(id: string, patch: JournalPatch) {
    if (this.armed && args.crashAt === 'before-first-byte' && patch.phase === 'sent')
      process.kill(process.pid, 'SIGKILL');
    if (
      this.armed &&
      args.crashAt === 'before-record' &&
      patch.status !== undefined &&
      patch.status !== 'inprocess'
    ) {
      process.kill(process.pid, 'SIGKILL');
    }
    return super.update(id, patch);
  }
}

const link = new ManagedLink(
  () => openSerial({ path: args.path, baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 }),
  { reconnectMinMs: 50, reconnectMaxMs: 200, livenessMs: 100 },
);
link.start();
await link.waitOpen(3_000);
const journal = new CrashingJournal(args.journal);
const unit = new ZvtUnit(link, { transport: 'serial', timeouts, password: '123456' });
const flow = new PaymentFlow({ unit, unitName: 'payment', journal });
const warm = await flow.run({ operation: 'purchase', amount_cents: args.warmup, currency: 'EUR' });
process.stdout.write(`warm ${warm.entry.status}\n`);
journal.armed = true;
const out = await flow.run({ operation: 'purchase', amount_cents: args.amount, currency: 'EUR' });
process.stdout.write(`done ${out.entry.status}\n`);
await unit.close();
await link.stop();
process.exit(0);
