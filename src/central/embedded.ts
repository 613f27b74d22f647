// The embedded default: with no central URL configured, the terminal runs this sandbox
// in-process, seeded with the demo business, its data in the file it is given
// (DIR/sandbox-central.sqlite). It matches the terminal's StartEmbeddedCentral port
// (src/terminal/ports.ts) by shape, so neither folder imports the other; the launchers pass
// it in (src/cli/agent.ts, src/cli/sync.ts, main/main.ts).
import { startCentral, type RunningCentral } from './index.js';

export function startEmbeddedCentral(o: {
  db: string;
  clock: { now(): number };
}): Promise<RunningCentral> {
  return startCentral({ db: o.db, seed: 'demo', clock: o.clock });
}
