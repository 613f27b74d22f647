// `loyalty-terminal central --port P --db FILE [--seed demo]`: runs the sandbox central
// service on 127.0.0.1 and prints one JSON line once it listens: { url, terminal_id, api_key }
// (the demo terminal's credentials). Runs until SIGINT or SIGTERM.
import { HELP_FLAG, parseFlags, parsePort, PORT_FLAG } from '../config/flags.js';
import { startCentral } from '../central/index.js';
import { refuseUsage, type CliIO } from './io.js';

const USAGE = 'usage: loyalty-terminal central [--port P] [--db FILE] [--seed demo|none]\n';

const CENTRAL_FLAGS = {
  ...PORT_FLAG,
  ...HELP_FLAG,
  db: { type: 'string' },
  seed: { type: 'string' },
} as const;

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
  const parsed = parseFlags(args, CENTRAL_FLAGS);
  if (!parsed.ok) return refuseUsage(io, 'central', parsed.message, USAGE);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const port = parsePort(values.port);
  const seed = values.seed ?? 'none';
  if (!port.ok || (seed !== 'demo' && seed !== 'none') || positionals.length > 0) {
    io.stderr(USAGE);
    return 2;
  }
  const db = values.db ?? ':memory:';
  let central;
  try {
    central = await startCentral({ port: port.port, db, seed });
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
