// The handlers the shell answers with until the sale workflow lands: `status` and
// `devices-state` say honestly what runs (nothing yet), every other command answers
// `not-implemented` (501). The workflow replaces them by passing its own handlers.
import { commandNames, type CommandName, type DeviceState } from '../contract/commands.js';
import { effectiveTerminalId, type Config } from '../contract/config.js';
import {
  refuse,
  type CommandContext,
  type Handler,
  type Handlers,
} from '../terminal/command-map.js';

export interface AppInfo {
  name: string;
  version: string;
}

function notImplemented(name: CommandName): Handler<CommandName> {
  return () =>
    refuse(
      'not-implemented',
      `"${name}" is not available yet: the sale workflow is not wired`,
      'name',
    );
}

function devicesOf(config: Config): DeviceState[] {
  const out: DeviceState[] = [];
  for (const [kind, d] of Object.entries(config.devices) as [
    DeviceState['kind'],
    Config['devices'][DeviceState['kind']],
  ][]) {
    if (!d) continue;
    const address = d.simulated
      ? undefined
      : d.transport === 'tcp'
        ? `${d.host ?? ''}:${d.port ?? ''}`
        : d.path;
    out.push({
      kind,
      simulated: d.simulated,
      protocol: d.protocol,
      transport: d.transport,
      ...(address === undefined ? {} : { address }),
      state: 'disconnected',
      since: null,
      error: {
        code: 'not-implemented',
        message: 'device drivers are not wired into the terminal yet',
        path: `devices.${kind}`,
      },
    });
  }
  return out;
}

/** A full handler set: `status` and `devices-state` from the configuration, the rest 501. */
export function stubHandlers<C extends CommandContext = CommandContext>(opts: {
  config: Config;
  app: AppInfo;
}): Handlers<C> {
  const all = Object.fromEntries(
    commandNames.map((n) => [n, notImplemented(n)]),
  ) as unknown as Handlers<C>;
  all.status = () => ({
    app: opts.app,
    terminal: {
      id: effectiveTerminalId(opts.config),
      ...(opts.config.terminal.name === undefined ? {} : { name: opts.config.terminal.name }),
    },
    staff: null,
    shift: null,
    sync: null,
    attention: 0,
    ready: false,
  });
  all['devices-state'] = () => ({ devices: devicesOf(opts.config) });
  return all;
}
