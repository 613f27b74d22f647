// `loyalty-terminal central --port P --db FILE [--seed demo]`: runs the sandbox central
// service on 127.0.0.1 and prints one JSON line once it listens: { url, terminal_id, api_key }
// (the demo terminal's credentials). Runs until SIGINT or SIGTERM. With --tls-cert FILE and
// --tls-key FILE (PEM) it serves HTTPS, and the url is https://.
import { readFile } from 'node:fs/promises';
import { HELP_FLAG, parseFlags, parsePort, PORT_FLAG } from '../config/flags.js';
import { startCentral } from '../central/index.js';
import { refuseUsage, type CliIO } from './io.js';

const USAGE =
  'usage: loyalty-terminal central [--port P] [--db FILE] [--seed demo|none] [--tls-cert FILE --tls-key FILE]\n';

const CENTRAL_FLAGS = {
  ...PORT_FLAG,
  ...HELP_FLAG,
  db: { type: 'string' },
  seed: { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
} as const;

/** Both PEM files, or neither (plain HTTP). */
async function tlsOf(cert: string | undefined, key: string | undefined) {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined)
    throw new Error('--tls-cert and --tls-key go together');
  return { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8') };
}

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
    const tls = await tlsOf(values['tls-cert'], values['tls-key']);
    central = await startCentral({ port: port.port, db, seed, ...(tls ? { tls } : {}) });
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
