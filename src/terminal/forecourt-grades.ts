// The grade of each pump nozzle and the tank of each grade, from the configuration
// (`devices.pumps.nozzles` with `terminal.tanks.grades`, resolved as one table by
// src/contract/fuel-grades.ts; docs/forecourt.md, "Nozzles and grades"). The forecourt keeps a
// fill under its nozzle's goods code, the pump prices come from those goods' catalogue prices,
// and the wet stock balances each tank against its grade.
import type { Config } from '../contract/config.js';
import type { PumpGrade } from '../contract/forecourt.js';
import { resolveFuelGrades, type NozzleGrade } from '../contract/fuel-grades.js';
import { dec, toFixed } from '../money/index.js';
import type { PosCatalog } from './catalog.js';
import type { GradeOf } from './forecourt.js';

export interface FuelGrades {
  /** The goods code a pump's nozzle sells; null when its pump is not set up. */
  gradeOf: GradeOf;
  /** A pump's nozzles in order (1, 2, ...); empty when its pump is not set up. */
  nozzlesOf(pump: number): readonly NozzleGrade[];
  /** The pumps whose nozzles are set up. */
  pumps(): number[];
  /** Tank number to the goods code it holds. */
  tanks: ReadonlyMap<number, string>;
}

export function fuelGrades(config: Config): FuelGrades {
  const resolved = resolveFuelGrades(
    config.terminal.tanks.grades,
    config.devices.pumps?.nozzles ?? {},
  );
  const nozzlesOf = (pump: number) => resolved.pumps.get(pump) ?? [];
  return {
    gradeOf: (pump, nozzle) => nozzlesOf(pump).find((n) => n.nozzle === nozzle)?.goodsCode ?? null,
    nozzlesOf,
    pumps: () => [...resolved.pumps.keys()].sort((a, b) => a - b),
    tanks: resolved.tanks,
  };
}

/** Every set-up pump's nozzles with their grade's catalogue name and price (`forecourt-state`). */
export function pumpGrades(grades: FuelGrades, cat: PosCatalog): PumpGrade[] {
  return grades.pumps().flatMap((pump) =>
    grades.nozzlesOf(pump).map((n) => {
      const item = cat.byCode(n.goodsCode);
      return {
        pump,
        nozzle: n.nozzle,
        code: n.goodsCode,
        title: item?.title ?? null,
        price: item?.price === undefined ? null : toFixed(dec(item.price)),
      };
    }),
  );
}
