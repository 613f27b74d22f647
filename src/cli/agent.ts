// `loyalty-terminal agent [--port P] [--data DIR] [--config FILE]`: the headless terminal.
// Prints one JSON line `{ "url", "token", "open_url" }` on stdout once it listens (url: the
// API's base; open_url: the page for a person, with a one-time code), then runs until
// SIGINT or SIGTERM.
import { join } from 'node:path';
import { DATA_FLAGS, HELP_FLAG, parseFlags, parsePort, PORT_FLAG } from '../config/flags.js';
import { packageRoot, packageVersion } from '../config/package-info.js';
import { resolveSettings } from '../config/settings.js';
import { AgentStartError, defaultRendererDir, startAgent, type Agent } from '../agent/server.js';
import { startEmbeddedCentral } from '../central/embedded.js';
import { createFileLogger } from '../terminal/log.js';
import { createTerminal } from '../terminal/terminal.js';
import { refuseUsage, type CliIO } from './io.js';

const AGENT_USAGE = `usage: loyalty-terminal agent [--port P] [--data DIR] [--config FILE]
  --port P       port on 127.0.0.1 (default 0: any free port, printed)
  --data DIR     data directory (default ~/.loyalty-terminal)
  --config FILE  configuration (default DIR/config.json; none = the embedded demo set-up)
`;

const AGENT_FLAGS = { ...PORT_FLAG, ...DATA_FLAGS, ...HELP_FLAG };

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
  const parsed = parseFlags(args, AGENT_FLAGS);
  if (!parsed.ok) return refuseUsage(io, 'agent', parsed.message, AGENT_USAGE);
  if (parsed.values.help) {
    io.stdout(AGENT_USAGE);
    return 0;
  }
  if (parsed.positionals.length > 0)
    return refuseUsage(io, 'agent', `unknown argument "${parsed.positionals[0]}"`, AGENT_USAGE);
  const port = parsePort(parsed.values.port);
  if (!port.ok) return refuseUsage(io, 'agent', port.message, AGENT_USAGE);
  const resolved = await resolveSettings(parsed.values, { readText: (f) => io.readInput(f) });
  if (!resolved.ok) {
    io.stderr(`${resolved.message}\n`);
    return 2;
  }
  const { config, dataDir, secrets } = resolved.settings;
  const log = createFileLogger({ dir: join(dataDir, 'logs'), name: 'agent' });
  const app = { name: 'loyalty-terminal', version: packageVersion() };
  let agent: Agent;
  try {
    agent = await startAgent({
      dataDir,
      port: port.port,
      config,
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
                config,
                secrets,
                log: log.child({ part: 'terminal' }),
                app,
                emit: (name, payload) => events.emit(name, payload),
                embeddedCentral: startEmbeddedCentral,
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
