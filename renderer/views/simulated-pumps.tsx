// The settings' controls of simulated pumps (docs/forecourt.md, "A person at a simulated
// pump"): a tester picks a pump, lifts a nozzle, dispenses so many litres (or up to the
// preset) and hangs up, as the person at the pump would (`simulator-pump`). Shown only when
// the till's pumps are simulated; what the pump's display said last is under the buttons.
import { formatDec } from '../format.js';
import { dec } from '../money.js';
import type { SimulatorPumpAction } from '../types.js';
import { Button, FieldSelect, Form, Input, Section, type Ctx } from './common.js';

export function SimulatedPumps({ ctx }: { ctx: Ctx }) {
  const { t, state } = ctx;
  const device = state.devices.find((d) => d.kind === 'pumps');
  if (!device?.simulated) return null;
  const pumps = state.forecourt.pumps.map((p) => String(p.pump));
  const numbers = pumps.length > 0 ? pumps : ['1', '2', '3', '4'];
  const busy = state.busy !== null;
  const act = (action: SimulatorPumpAction, testid: string, label: string) => (
    <Button
      ctx={ctx}
      testid={testid}
      does={{ type: 'sim-pump', action }}
      label={label}
      disabled={busy}
    />
  );
  return (
    <Section title={t('sim.title')} testid="sim-pumps">
      <Form ctx={ctx} submit={{ type: 'sim-pump', action: 'dispense' }} testid="sim-form">
        <div class="row">
          <FieldSelect
            ctx={ctx}
            testid="sim-pump"
            field="sim-pump"
            label={t('sim.pump')}
            options={numbers.map((n) => [n, t('forecourt.pump', { n })] as const)}
          />
          <FieldSelect
            ctx={ctx}
            testid="sim-nozzle"
            field="sim-nozzle"
            label={t('sim.nozzle')}
            options={['1', '2', '3'].map((n) => [n, n] as const)}
          />
          <Input
            ctx={ctx}
            testid="sim-litres"
            field="sim-litres"
            label={t('sim.litres')}
            inputmode="decimal"
          />
        </div>
        <div class="actions">
          {act('lift', 'sim-lift', t('sim.lift'))}
          {act('dispense', 'sim-dispense', t('sim.dispense'))}
          {act('hang-up', 'sim-hang-up', t('sim.hang-up'))}
        </div>
      </Form>
      <Display ctx={ctx} />
    </Section>
  );
}

/** What the chosen pump's display showed at its last action. */
function Display({ ctx }: { ctx: Ctx }) {
  const { t, num, state } = ctx;
  const shown = state.forecourt.simulated[Number(state.form['sim-pump'] ?? '1')];
  if (!shown) return null;
  const nozzle =
    shown.nozzle === null ? t('sim.nozzles-in') : t('sim.nozzle-up', { n: shown.nozzle });
  const text = t('sim.display', {
    pump: shown.pump,
    nozzle,
    volume: formatDec(dec(shown.volume), 2, num),
    amount: formatDec(dec(shown.amount), 2, num),
  });
  return (
    <p class="muted" data-testid="sim-display">
      {shown.flowing ? `${text} · ${t('sim.flowing')}` : text}
    </p>
  );
}
