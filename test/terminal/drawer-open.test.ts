// `drawer-open` (docs/terminal.md, "The cash drawer"): the drawer opened on request sends the
// ESC/POS pulse through the simulated receipt printer on its real byte link, and the opening
// is journalled with who, when and why in the shift's report for a manager to see.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { tillPerTest, type Till } from './helpers.js';

const { open, signedIn } = tillPerTest();

const printerOf = (t: Till) => t.terminal.devices?.simulators.printer as PrinterSimulator;

/** The simulated drawer's openings, once it has `n` (the printer reads on its own turn). */
async function drawerOpened(t: Till, n: number): Promise<number> {
  for (let i = 0; i < 100 && printerOf(t).drawerOpened < n; i++)
    await new Promise((r) => setTimeout(r, 10));
  return printerOf(t).drawerOpened;
}

describe('drawer-open', () => {
  it('sends the drawer pulse to the printer, which opens the drawer', async () => {
    const t = await signedIn();
    const { opening } = await t.ok('drawer-open', { reason: 'change for a customer' });
    expect(opening.pulse_sent).toBe(true);
    expect(await drawerOpened(t, 1)).toBe(1);
    expect(printerOf(t).errors).toEqual([]);
  });

  it('lists the opening with who, when and why in the shift report', async () => {
    const t = await signedIn();
    const shift = (await t.ok('status', {})).shift!;
    const { opening } = await t.ok('drawer-open', { reason: 'change for a customer' });
    await t.ok('drawer-open', {});
    const { report } = await t.ok('shift-report', {});
    expect(report.drawer_openings).toHaveLength(2);
    expect(report.drawer_openings?.[0]).toEqual(opening);
    expect(opening).toMatchObject({ shift_id: shift.id, reason: 'change for a customer' });
    expect(opening.staff.id).toBeTruthy();
    expect(Date.parse(opening.opened_at)).not.toBeNaN();
    expect(report.drawer_openings?.[1]?.reason).toBeUndefined();
  });

  it('keeps the openings in the Z report of the close', async () => {
    const t = await signedIn(DEMO.authCodes.manager);
    await t.ok('drawer-open', {});
    const { report } = await t.ok('shift-close', {});
    expect(report.drawer_openings).toHaveLength(1);
  });

  it('refuses without an open shift, and the drawer stays shut', async () => {
    const t = await open();
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.refused('drawer-open', {}, 'shift-required');
    expect(printerOf(t).drawerOpened).toBe(0);
  });

  it('refuses the staff, shift and time when the caller sends them', async () => {
    const t = await signedIn();
    for (const field of ['staff', 'shift_id', 'opened_at']) {
      const r = await t.refused('drawer-open', { [field]: 'mine' }, 'invalid-input');
      expect(r.error.path).toBe(field);
    }
  });
});
