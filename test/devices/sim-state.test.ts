// Simulated payment units keep what a real unit keeps (its books: receipts, charges, whether
// reversed, open pre-authorisations) in a state file, so a terminal killed and started again
// meets the same unit, not a blank one.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDevices } from '../../src/cli/devices.js';
import { memoryIO } from '../../src/cli/io.js';
import { ConfigSchema } from '../../src/contract/config.js';
import type { ConcertSimulator } from '../../src/devices/concert/simulator.js';
import { PaymentFlow, type PaymentRequest } from '../../src/devices/payment-flow.js';
import { MemoryPaymentJournal } from './support/memory-journal.js';
import type { PaymentUnit } from '../../src/devices/payment-unit.js';
import { createDevices, type DeviceSet } from '../../src/devices/registry.js';
import { readZvtSimBooks, SIMULATOR_DIR, ZVT_SIM_FILE } from '../../src/devices/sim/state-file.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';

const fast = { ack_ms: 300, message_ms: 1_000, transaction_ms: 3_000 };
let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lt-sims-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The simulated payment unit of a terminal whose simulators keep their state in `dir`. */
function unitOver(dir: string, protocol: 'zvt' | 'concert' = 'zvt') {
  const set: DeviceSet = createDevices(
    ConfigSchema.parse({ devices: { payment: { simulated: true, protocol, timeouts: fast } } })
      .devices,
    { simulatorDir: dir },
  );
  cleanups.push(() => set.close());
  const flow = new PaymentFlow({
    unit: set.payment as PaymentUnit,
    unitName: 'payment',
    journal: new MemoryPaymentJournal(),
  });
  const run = async (req: Omit<PaymentRequest, 'currency'>) =>
    (await flow.run({ ...req, currency: 'EUR' })).entry;
  return { set, run };
}

describe('a simulated payment unit over a state file', () => {
  it('the simulated payment unit keeps its approved charges and open pre-authorisations across a restart', async () => {
    const dir = tempDir();
    const first = unitOver(dir);
    const sale = await first.run({ operation: 'purchase', amount_cents: 1_000 });
    const pre = await first.run({ operation: 'authorize', amount_cents: 5_000 });
    const undone = await first.run({ operation: 'purchase', amount_cents: 700 });
    await first.run({
      operation: 'cancel',
      amount_cents: 700,
      original_receipt: undone.receipt_no,
    });
    expect([sale.status, pre.status]).toEqual(['success', 'authorized']);
    await first.set.close();

    const second = unitOver(dir);
    const sim = second.set.simulators.payment as ZvtSimulator;
    expect(sim.books().map((t) => [t.kind, t.amount_cents, t.receipt_no, t.reversed])).toEqual([
      ['purchase', 1_000, sale.receipt_no, false],
      ['pre-auth', 5_000, pre.receipt_no, false],
      ['purchase', 700, undone.receipt_no, true],
      ['reversal', 700, expect.any(Number), false],
    ]);
    expect(sim.openPreAuthorisations().map((t) => t.receipt_no)).toEqual([pre.receipt_no]);
    expect(sim.charges().map((t) => t.receipt_no)).toEqual([sale.receipt_no]);

    // The restarted unit acts on them, and its receipt numbers go on.
    const done = await second.run({
      operation: 'completion',
      amount_cents: 4_000,
      original_receipt: pre.receipt_no,
    });
    expect(done.status).toBe('success');
    expect(done.receipt_no).toBe(5);
    const back = await second.run({
      operation: 'cancel',
      amount_cents: 1_000,
      original_receipt: sale.receipt_no,
    });
    expect(back.status).toBe('success');
    expect(sim.openPreAuthorisations()).toEqual([]);
    expect(sim.charges().map((t) => [t.kind, t.amount_cents])).toEqual([['book-total', 4_000]]);
  }, 20_000);

  it('keeps its books in a file only its owner reads, readable without the unit', async () => {
    const dir = tempDir();
    const u = unitOver(dir);
    const sale = await u.run({ operation: 'purchase', amount_cents: 1_234 });
    const file = join(dir, ZVT_SIM_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const books = readZvtSimBooks(dir);
    expect(books).toMatchObject({
      ok: true,
      books: [
        { kind: 'purchase', amount_cents: 1_234, receipt_no: sale.receipt_no, reversed: false },
      ],
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, receipt: 1 });
  });

  it('refuses a state file that does not read as one, naming it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, ZVT_SIM_FILE), JSON.stringify({ version: 1, receipt: 'x' }));
    expect(readZvtSimBooks(dir)).toMatchObject({ ok: false });
    expect(() => unitOver(dir)).toThrow(ZVT_SIM_FILE);
  });

  it('the simulated Concert unit keeps its journal across a restart', async () => {
    const dir = tempDir();
    const first = unitOver(dir, 'concert');
    expect((await first.run({ operation: 'purchase', amount_cents: 900 })).status).toBe('success');
    await first.set.close();
    const second = unitOver(dir, 'concert');
    const sim = second.set.simulators.payment as ConcertSimulator;
    expect(sim.ledger.map((t) => [t.amount_cents, t.accepted])).toEqual([[900, true]]);
  }, 20_000);

  it('devices sim-books prints the books of a data directory, for a run that killed its agent', async () => {
    const data = tempDir();
    const u = unitOver(join(data, SIMULATOR_DIR));
    const sale = await u.run({ operation: 'purchase', amount_cents: 4_200 });
    const io = memoryIO();
    expect(await runDevices(['sim-books', '--data', data], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({
      dir: join(data, SIMULATOR_DIR),
      zvt: [
        expect.objectContaining({
          kind: 'purchase',
          amount_cents: 4_200,
          receipt_no: sale.receipt_no,
          reversed: false,
        }),
      ],
      concert: [],
    });
  });

  it('devices sim-books reads the data directory the configuration names, as the agent does', async () => {
    const data = tempDir();
    const moved = tempDir();
    await unitOver(join(moved, SIMULATOR_DIR)).run({ operation: 'purchase', amount_cents: 700 });
    const io = memoryIO({
      [join(data, 'config.json')]: JSON.stringify({ terminal: { data_dir: moved } }),
    });
    expect(await runDevices(['sim-books', '--data', data], io)).toBe(0);
    const books = JSON.parse(io.out) as { dir: string; zvt: { amount_cents: number }[] };
    expect(books.dir).toBe(join(moved, SIMULATOR_DIR));
    expect(books.zvt.map((b) => b.amount_cents)).toEqual([700]);
  });
});
