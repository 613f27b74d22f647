// `loyalty-terminal agent [--port P] [--data DIR] [--config FILE]`: the headless terminal.
// Prints one JSON line `{ "url", "token", "open_url" }` on stdout once it listens (url: the
// API's base; open_url: the page for a person, with a one-time code), then runs until
// SIGINT or SIGTERM.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type Config } from '../contract/config.js';
import { AgentStartError, defaultRendererDir, startAgent, type Agent } from '../agent/server.js';
import { createFileLogger } from '../terminal/log.js';
import { createFileSecretStore, SECRETS_FILE, type SecretStore } from '../terminal/secrets.js';
import { createTerminal } from '../terminal/terminal.js';
import type { CliIO } from './io.js';
import { packageRoot, packageVersion } from '../config/package-info.js';

export const AGENT_USAGE = `usage: loyalty-terminal agent [--port P] [--data DIR] [--config FILE]
  --port P       port on 127.0.0.1 (default 0: any free port, printed)
  --data DIR     data directory (default ~/.loyalty-terminal)
  --config FILE  configuration (default DIR/config.json; none = the embedded demo set-up)
`;

export interface CommonFlags {
  port: number;
  data: string;
  config: string | undefined;
  rest: string[];
}

/** `--port`, `--data` and `--config` (also as `--flag=value`); other arguments are kept in `rest`. */
export function parseCommonFlags(
  args: string[],
): { ok: true; flags: CommonFlags } | { ok: false; message: string } {
  const flags: CommonFlags = {
    port: 0,
    data: join(homedir(), '.loyalty-terminal'),
    config: undefined,
    rest: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (name !== '--port' && name !== '--data' && name !== '--config') {
      flags.rest.push(arg);
      continue;
    }
    const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '') return { ok: false, message: `${name} needs a value` };
    if (name === '--port') {
      if (!/^\d+$/.test(value) || Number(value) > 65_535)
        return { ok: false, message: `--port takes 0..65535, not "${value}"` };
      flags.port = Number(value);
    } else if (name === '--data') flags.data = value;
    else flags.config = value;
  }
  return { ok: true, flags };
}

/** The configuration: FILE, else DIR/config.json when present, else the embedded default. */
export async function loadConfig(
  flags: CommonFlags,
  io: CliIO,
): Promise<{ ok: true; config: Config } | { ok: false; message: string }> {
  const file = flags.config ?? join(flags.data, 'config.json');
  let text: string | undefined;
  try {
    text = await io.readInput(file);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing || flags.config !== undefined)
      return { ok: false, message: `cannot read ${file}: ${(e as Error).message}` };
  }
  let json: unknown = {};
  if (text !== undefined) {
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { ok: false, message: `${file}: malformed JSON: ${(e as Error).message}` };
    }
  }
  const parsed = parseConfig(json);
  if (!parsed.ok)
    return {
      ok: false,
      message: parsed.errors.map((p) => `${file}: ${p.path}: ${p.message}`).join('\n'),
    };
  return { ok: true, config: parsed.config };
}

/**
 * The data directory: `terminal.data_dir` of the configuration, else --data. It moves
 * everything (lock, store, secrets, logs), for the agent and for every operator command.
 */
export function dataDirOf(config: Config, flags: CommonFlags): string {
  return config.terminal.data_dir ?? flags.data;
}

/** The agent's secret store, DIR/secrets.json (the Electron app seals its own). */
export function agentSecrets(dataDir: string): SecretStore {
  return createFileSecretStore(join(dataDir, SECRETS_FILE));
}

function untilSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}

export interface RunAgentOptions {
  /** Stops the agent; default: SIGINT or SIGTERM. */
  signal?: AbortSignal;
  /** Where the renderer's build is; default renderer/dist of the package. */
  rendererDir?: string | null;
  /** Told once the agent listens (tests, the start launcher). */
  onStarted?: (agent: Agent) => void;
  /** false = only the shell answers (no store, no sync, no devices); default true. */
  workflow?: boolean;
}

export async function runAgent(
  args: string[],
  io: CliIO,
  opts: RunAgentOptions = {},
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(AGENT_USAGE);
    return 0;
  }
  const parsed = parseCommonFlags(args);
  if (!parsed.ok) {
    io.stderr(`${parsed.message}\n${AGENT_USAGE}`);
    return 2;
  }
  const flags = parsed.flags;
  if (flags.rest.length > 0) {
    io.stderr(`unknown argument "${flags.rest[0]}"\n${AGENT_USAGE}`);
    return 2;
  }
  const loaded = await loadConfig(flags, io);
  if (!loaded.ok) {
    io.stderr(`${loaded.message}\n`);
    return 2;
  }

  const dataDir = dataDirOf(loaded.config, flags);
  const log = createFileLogger({ dir: join(dataDir, 'logs'), name: 'agent' });
  const app = { name: 'loyalty-terminal', version: packageVersion() };
  let agent: Agent;
  try {
    agent = await startAgent({
      dataDir,
      port: flags.port,
      config: loaded.config,
      log,
      app,
      // The workflow starts under the agent's lock: the store, the link with the central
      // service (the embedded sandbox when none is configured) and the devices.
      ...(opts.workflow === false
        ? {}
        : {
            attach: async (events) => {
              const terminal = await createTerminal({
                dataDir,
                config: loaded.config,
                secrets: agentSecrets(dataDir),
                log: log.child({ part: 'terminal' }),
                app,
                emit: (name, payload) => events.emit(name, payload),
              });
              return { handlers: terminal.handlers, close: () => terminal.close() };
            },
          }),
      rendererDir:
        opts.rendererDir === undefined ? defaultRendererDir(packageRoot()) : opts.rendererDir,
    });
  } catch (e) {
    log.close();
    if (e instanceof AgentStartError) {
      io.stderr(`${JSON.stringify({ error: e.error })}\n`);
      return 1;
    }
    io.stderr(`the agent could not start: ${(e as Error).message}\n`);
    return 1;
  }

  io.stdout(`${JSON.stringify({ url: agent.url, token: agent.token, open_url: agent.openUrl })}\n`);
  io.stderr(`Open ${agent.openUrl} in a browser (the link works once). Stop with Ctrl+C.\n`);
  opts.onStarted?.(agent);

  const signal = opts.signal ?? untilSignal();
  await new Promise<void>((done) => {
    if (signal.aborted) done();
    else signal.addEventListener('abort', () => done(), { once: true });
  });
  await agent.close();
  log.close();
  return 0;
}
