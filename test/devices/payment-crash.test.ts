// Kills the terminal process during a purchase at several points; after a restart the journal
// is reconciled against the simulated unit's own record: exactly one charge or none, and the
// journal says which.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ManagedLink } from '../../src/devices/link.js';
import { PaymentFlow } from '../../src/devices/payment-flow.js';
import type { RecoveryPolicy } from '../../src/devices/payment-unit.js';
import { openSerial } from '../../src/devices/serial.js';
import { attachToPty } from './support/sim-host.js';
import { ZvtUnit } from '../../src/devices/zvt/driver.js';
import { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { FileJournal } from './support/file-journal.js';
import { PtyPair, waitFor } from './support/pty.js';

const here = fileURLToPath(new URL('./support/', import.meta.url));
const WARMUP = 1_500;
const AMOUNT = 4_242;
const timeouts = { inter_byte_ms: 200, ack_ms: 150, message_ms: 800, transaction_ms: 3_000 };

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function startChild(args: object): {
  child: ChildProcess;
  exited: Promise<number | null>;
  out: () => string;
} {
  const child = spawn(
    process.execPath,
    [
      '--no-warnings',
      '--import',
      join(here, 'ts-hooks.mjs'),
      join(here, 'crash-child.ts'),
      JSON.stringify(args),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, exited, out: () => out };
}

type Point = 'before-first-byte' | 'before-ack' | 'after-authorisation' | 'before-record';

async function crashAndReconcile(point: Point, policy: RecoveryPolicy) {
  const pty = await PtyPair.open();
  const dir = mkdtempSync(join(tmpdir(), 'lt-journal-'));
  cleanups.push(
    () => pty.close(),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  const sim = new ZvtSimulator({ transport: 'serial', ackMs: 150 });
  const simSide = attachToPty(sim, pty.b, 50);
  cleanups.push(() => simSide.stop());
  await simSide.link.waitOpen(3_000);

  const journalPath = join(dir, 'journal.jsonl');
  const run = startChild({
    path: pty.a,
    journal: journalPath,
    crashAt: point === 'before-first-byte' || point === 'before-record' ? point : 'none',
    warmup: WARMUP,
    amount: AMOUNT,
  });
  const kill = async () => {
    run.child.kill('SIGKILL');
    await run.exited;
  };
  const isTarget = (cents: number | null) => cents === AMOUNT;
  if (point === 'before-ack') {
    sim.hooks.onCommand = async (apdu) => {
      const amount =
        apdu.ins === 0x01 ? Number(Buffer.from(apdu.data.slice(1, 7)).toString('hex')) : null;
      if (isTarget(amount)) await kill();
    };
  } else if (point === 'after-authorisation') {
    sim.hooks.onBooked = async (tx) => {
      if (isTarget(tx.amount_cents)) await kill();
    };
  }
  const code = await Promise.race([
    run.exited,
    new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000)),
  ]);
  expect(code, run.out()).not.toBe('hung');
  expect(run.out()).toContain('warm success');
  expect(run.out()).not.toContain('done');
  sim.hooks = {};
  // A real unit gives up on a dead ECR after its own time-outs; so does the simulator.
  await waitFor(() => !sim.busy, 10_000, 'the unit to give up on the dead terminal');

  // The restart: a new process would do exactly this.
  const link = new ManagedLink(
    () => openSerial({ path: pty.a, baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 }),
    {
      reconnectMinMs: 50,
      reconnectMaxMs: 200,
      livenessMs: 100,
    },
  );
  link.start();
  cleanups.push(() => link.stop());
  await link.waitOpen(3_000);
  const journal = new FileJournal(journalPath);
  const unit = new ZvtUnit(link, { transport: 'serial', timeouts, password: '123456' });
  cleanups.push(() => unit.close());
  const flow = new PaymentFlow({ unit, unitName: 'payment', journal, policy });
  const report = await flow.reconcile();

  const entries = [...journal.all().values()];
  const target = entries.find((e) => e.amount_cents === AMOUNT);
  const charged = sim.charges().filter((t) => t.amount_cents === AMOUNT);
  return { report, entries, target, charged, sim, journal };
}

describe('a purchase interrupted by a crash', () => {
  it('killed before the first byte: nothing charged, the journal says fail', async () => {
    const r = await crashAndReconcile('before-first-byte', 'reverse');
    expect(r.target).toMatchObject({ status: 'fail', phase: 'resolved' });
    expect(r.charged).toHaveLength(0);
    expect(r.sim.ledger.some((t) => t.amount_cents === AMOUNT)).toBe(false);
  });

  it('killed before the unit ACKs the command: one charge or none, and the journal agrees', async () => {
    const r = await crashAndReconcile('before-ack', 'reverse');
    expect(r.report).toHaveLength(1);
    expect(r.target?.status).toMatch(/^(fail|canceled)$/);
    expect(r.charged).toHaveLength(0);
  });

  it('killed after the unit authorised: the unconfirmed charge is reversed and the journal says canceled', async () => {
    const r = await crashAndReconcile('after-authorisation', 'reverse');
    expect(
      r.sim.ledger.filter((t) => t.kind === 'purchase' && t.amount_cents === AMOUNT),
    ).toHaveLength(1);
    expect(r.target).toMatchObject({ status: 'canceled', phase: 'resolved' });
    expect(r.charged).toHaveLength(0);
  });

  it('killed before completion is recorded: with accept, exactly one charge and the journal says success', async () => {
    const r = await crashAndReconcile('before-record', 'accept');
    expect(r.target).toMatchObject({ status: 'success', phase: 'resolved' });
    expect(r.charged).toHaveLength(1);
    expect(r.target?.receipt_no).toBe(r.charged[0]?.receipt_no);
  });

  it('killed before completion is recorded: with reverse, no charge and the journal says canceled', async () => {
    const r = await crashAndReconcile('before-record', 'reverse');
    expect(r.target).toMatchObject({ status: 'canceled' });
    expect(r.charged).toHaveLength(0);
  });

  it('never touches the earlier, confirmed sale', async () => {
    const r = await crashAndReconcile('after-authorisation', 'reverse');
    const warm = r.sim.ledger.find((t) => t.amount_cents === WARMUP && t.kind === 'purchase');
    expect(warm?.reversed).toBe(false);
    expect(r.entries.find((e) => e.amount_cents === WARMUP)?.status).toBe('success');
  });
});
