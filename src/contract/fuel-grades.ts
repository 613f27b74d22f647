// Which fuel each pump nozzle sells and which tank feeds it (issue 16; docs/forecourt.md,
// "Nozzles and grades"). `devices.pumps.nozzles` gives, per pump and nozzle, the goods code of
// its fuel and, when known, its tank; `terminal.tanks.grades` gives each tank's goods code. The
// two are one table: a tank's goods code is its `grades` entry, else the one its nozzles sell,
// and a nozzle whose tank holds another fuel is refused. Pure: the config schema checks with it
// and the terminal reads the resolved table (src/terminal/forecourt-grades.ts).

export interface NozzleSetting {
  goods_code: string;
  tank?: number | undefined;
}

/** Pump number (text) to nozzle number (text) to its setting, as config.json has it. */
export type NozzleSettings = Readonly<Record<string, Readonly<Record<string, NozzleSetting>>>>;

export interface NozzleGrade {
  nozzle: number;
  goodsCode: string;
  tank: number | null;
}

export interface ResolvedGrades {
  /** Tank number to the goods code of the fuel it holds. */
  tanks: ReadonlyMap<number, string>;
  /** Pump number to its nozzles, in nozzle order (1, 2, ...). */
  pumps: ReadonlyMap<number, readonly NozzleGrade[]>;
  /** Disagreements, each with its path under `devices.pumps.nozzles`. */
  problems: { path: string[]; message: string }[];
}

export function resolveFuelGrades(
  tankGrades: Readonly<Record<string, string>>,
  nozzles: NozzleSettings,
): ResolvedGrades {
  const tanks = new Map<number, string>();
  for (const [t, goods] of Object.entries(tankGrades)) tanks.set(Number(t), goods);
  const named = new Set(tanks.keys());
  const problems: ResolvedGrades['problems'] = [];
  const pumps = new Map<number, NozzleGrade[]>();
  for (const [p, list] of Object.entries(nozzles)) {
    const grades: NozzleGrade[] = [];
    for (const [n, s] of Object.entries(list)) {
      grades.push({ nozzle: Number(n), goodsCode: s.goods_code, tank: s.tank ?? null });
      if (s.tank === undefined) continue;
      const held = tanks.get(s.tank);
      if (held === undefined) tanks.set(s.tank, s.goods_code);
      else if (held !== s.goods_code)
        problems.push({
          path: [p, n, 'goods_code'],
          message: named.has(s.tank)
            ? `tank ${s.tank} holds ${held} (terminal.tanks.grades), not ${s.goods_code}`
            : `tank ${s.tank} feeds another nozzle with ${held}, not ${s.goods_code}`,
        });
    }
    pumps.set(
      Number(p),
      grades.sort((a, b) => a.nozzle - b.nozzle),
    );
  }
  return { tanks, pumps, problems };
}
