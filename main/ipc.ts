// The one IPC handler (`terminal:call`): it checks that the sender is our own page's top
// frame, then hands name and input to the command map, which validates the input with zod
// before any handler sees it. Refusals come back as the error shape, never as a thrown error
// (Electron would turn that into an opaque rejection in the page).
import { randomUUID } from 'node:crypto';
import type { CommandResult, CommandName } from '../src/contract/commands.js';
import { refuse, type CommandContext, type CommandMap } from '../src/terminal/command-map.js';
import type { Logger } from '../src/terminal/log.js';
import { isTrustedUrl } from './trusted-url.js';

/** The part of IpcMainInvokeEvent the handler reads. */
export interface CallEvent {
  senderFrame: { url: string; parent: unknown } | null;
}

export type CallHandler = (
  event: CallEvent,
  name: unknown,
  input: unknown,
) => Promise<CommandResult<CommandName>>;

export function createCallHandler(deps: {
  commands: CommandMap<CommandContext>;
  log: Logger;
  isTrusted?: (url: string) => boolean;
}): CallHandler {
  const trusted = deps.isTrusted ?? isTrustedUrl;
  return async (event, name, input) => {
    const frame = event.senderFrame;
    if (frame === null || frame.parent !== null || !trusted(frame.url)) {
      deps.log.warn('IPC call from a foreign frame refused', {
        url: frame?.url ?? null,
        command: typeof name === 'string' ? name : null,
      });
      return refuse('unauthorized', 'this frame may not call the terminal', 'sender');
    }
    if (typeof name !== 'string')
      return refuse('invalid-input', 'the command name is a string', 'name');
    const result = await deps.commands.dispatch(name, input, {
      via: 'ipc',
      requestId: randomUUID(),
    });
    return result.body as CommandResult<CommandName>;
  };
}
