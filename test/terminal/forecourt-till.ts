// A till with pumps for the forecourt tests: a forecourt port held in memory (FakeForecourt)
// whose nozzle 1 sells FUEL-95 at 1.789 and nozzle 2 DIESEL at 1.659 (pumps 1 to 4 told the
// catalogue's prices, the embedded default's nozzles), a cashier signed in and
// a shift open; a cash prepay sold; and a wait for the fills the till keeps as the port reports them.
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { FakeForecourt } from './fake-forecourt.js';
import type { Till, tillPerTest } from './helpers.js';

export const GRADES = ['FUEL-95', 'DIESEL'];
export const PRICES = ['1.789', '1.659'];

type Open = ReturnType<typeof tillPerTest>['open'];

export async function forecourtTill(
  open: Open,
  pumps = 4,
  dir?: string,
  port = new FakeForecourt(pumps, PRICES),
  terminal_config?: Record<string, unknown>,
): Promise<{ t: Till; port: FakeForecourt }> {
  const t = await open({
    ...(dir ? { dir } : {}),
    ...(terminal_config ? { terminal_config } : {}),
    forecourt: { port, gradeOf: (_pump, nozzle) => GRADES[nozzle - 1] ?? null },
  });
  // The pumps are told the catalogue's prices now that the till has pulled it (a running till
  // does so at its next check, within 2 s): a prepay preset by volume needs them confirmed.
  await t.terminal.services.pumpPrices?.refresh();
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  // a shift left open by the till's last run (a restart) stays the shift
  if (!(await t.ok('status', {})).shift) await t.ok('shift-open', {});
  return { t, port };
}

/** Waits until the till kept `n` unpaid fills (the port's event is followed asynchronously). */
export async function unpaid(t: Till, n: number) {
  for (let i = 0; i < 100; i++) {
    const s = await t.ok('forecourt-state', {});
    if (s.unpaid.length === n) return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  return t.ok('forecourt-state', {});
}

/** A cash prepay of `amount` of FUEL-95 by amount (20.00 is 11.18 l at 1.789): its id. */
export async function cashPrepay(t: Till, amount = 20): Promise<string> {
  const id = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id: id,
    check: {
      transaction_type: 'preauthorization',
      payment_type: 'cash',
      check_items: [
        {
          code: 'FUEL-95',
          quantity: 11.18,
          amount,
          quantity_recalculate_type: 'recalculate-by-amount',
        },
      ],
    },
    cash_given: amount,
  });
  return id;
}

/** Waits (bounded, 2 s) until the port shows `pump` idle: a release run out, a fill cleared. */
export async function untilIdle(port: FakeForecourt, pump: number): Promise<void> {
  for (let i = 0; i < 100 && port.pump(pump)!.state !== 'idle'; i++)
    await new Promise((r) => setTimeout(r, 20));
}
