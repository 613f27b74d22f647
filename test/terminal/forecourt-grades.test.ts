// The grade of each pump nozzle (docs/forecourt.md, "Nozzles and grades"): set up per pump and
// nozzle in `devices.pumps.nozzles`, one table with `terminal.tanks.grades`; the embedded
// default's four pumps set up; a setting naming a pump, a nozzle or a tank wrongly refused with
// the key at fault.
import { describe, expect, it } from 'vitest';
import { ConfigSchema, parseConfig } from '../../src/contract/config.js';
import { fuelGrades } from '../../src/terminal/forecourt-grades.js';

const pumps = (nozzles: unknown, list = [1, 2]) => ({
  devices: { pumps: { simulated: true, pumps: list, nozzles } },
});
const errorsOf = (json: unknown) => {
  const r = parseConfig(json);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('nozzles and grades', () => {
  it('sets up the embedded default’s four pumps: Super 95, Diesel, Super Plus 98', () => {
    const g = fuelGrades(ConfigSchema.parse({}));
    expect(g.pumps()).toEqual([1, 2, 3, 4]);
    expect([1, 2, 3].map((n) => g.gradeOf(4, n))).toEqual(['FUEL-95', 'DIESEL', 'FUEL-98']);
  });

  it('answers no grade for a pump that is not set up', () => {
    const g = fuelGrades(ConfigSchema.parse(pumps({ '1': { '1': { goods_code: 'DIESEL' } } })));
    expect(g.gradeOf(2, 1)).toBeNull();
    expect(g.nozzlesOf(2)).toEqual([]);
  });

  it('gives a tank the grade of the nozzles it feeds when terminal.tanks.grades does not', () => {
    const c = ConfigSchema.parse({
      ...pumps({ '1': { '1': { goods_code: 'FUEL-95', tank: 3 } } }),
      terminal: { tanks: { grades: { '1': 'DIESEL' } } },
    });
    expect([...fuelGrades(c).tanks]).toEqual([
      [1, 'DIESEL'],
      [3, 'FUEL-95'],
    ]);
  });

  it('refuses nozzles of a pump that is not on the line, naming it', () => {
    expect(errorsOf(pumps({ '5': { '1': { goods_code: 'DIESEL' } } }))).toEqual([
      'devices.pumps.nozzles.5: there is no pump 5 on this line (devices.pumps.pumps)',
    ]);
  });

  it('refuses a nozzle numbered outside 1 to 15, naming it', () => {
    expect(errorsOf(pumps({ '1': { '16': { goods_code: 'DIESEL' } } }))).toEqual([
      'devices.pumps.nozzles.1.16: a nozzle is numbered 1 to 15',
    ]);
  });

  it('refuses a gap in a pump’s nozzles, naming the missing one', () => {
    const nozzles = { '1': { '1': { goods_code: 'DIESEL' }, '3': { goods_code: 'FUEL-95' } } };
    expect(errorsOf(pumps(nozzles))).toEqual([
      "devices.pumps.nozzles.1: nozzle 2 is missing: a pump's nozzles are numbered 1, 2, ... without a gap",
    ]);
  });

  it('refuses a nozzle whose tank holds another fuel, naming its goods code', () => {
    const json = {
      ...pumps({ '1': { '1': { goods_code: 'FUEL-95', tank: 1 } } }),
      terminal: { tanks: { grades: { '1': 'DIESEL' } } },
    };
    expect(errorsOf(json)).toEqual([
      'devices.pumps.nozzles.1.1.goods_code: tank 1 holds DIESEL (terminal.tanks.grades), not FUEL-95',
    ]);
  });

  it('refuses two nozzles fed by one tank with different fuels', () => {
    const nozzles = {
      '1': { '1': { goods_code: 'DIESEL', tank: 2 } },
      '2': { '1': { goods_code: 'FUEL-95', tank: 2 } },
    };
    expect(errorsOf(pumps(nozzles))).toEqual([
      'devices.pumps.nozzles.2.1.goods_code: tank 2 feeds another nozzle with DIESEL, not FUEL-95',
    ]);
  });

  it('refuses a key a nozzle does not have', () => {
    expect(errorsOf(pumps({ '1': { '1': { goods_code: 'DIESEL', price: 1 } } }))).toHaveLength(1);
  });
});
