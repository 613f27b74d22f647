// `loyalty-terminal central --port P --db FILE [--seed demo]`: runs the sandbox central
// service on 127.0.0.1 and prints one JSON line once it listens: { url, terminal_id, api_key }
// (the demo terminal's credentials). Runs until SIGINT or SIGTERM.
import { startCentral } from '../central/index.js';
import type { CliIO } from './io.js';

const USAGE = 'usage: loyalty-terminal central [--port P] [--db FILE] [--seed demo|none]\n';

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function runCentral(
  args: string[],
  io: CliIO,
  until: Promise<void> = untilSignal(),
): Promise<number> {
  let port = 0;
  let db = ':memory:';
  let seed: 'demo' | 'none' = 'none';
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = args[i + 1];
    if (a === '--port' && v !== undefined && /^\d+$/.test(v) && Number(v) <= 65_535) {
      port = Number(v);
      i++;
    } else if (a === '--db' && v !== undefined) {
      db = v;
      i++;
    } else if (a === '--seed' && (v === 'demo' || v === 'none')) {
      seed = v;
      i++;
    } else {
      io.stderr(USAGE);
      return 2;
    }
  }
  let central;
  try {
    central = await startCentral({ port, db, seed });
  } catch (err) {
    io.stderr(`central: ${(err as Error).message}\n`);
    return 1;
  }
  io.stdout(
    `${JSON.stringify({ url: central.url, terminal_id: central.terminal_id, api_key: central.api_key })}\n`,
  );
  await until;
  await central.close();
  return 0;
}
