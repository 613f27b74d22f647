// The typed registry behind IPC and the agent's HTTP API (style.md "What we take" 2): a
// handler per command name, registered once; `dispatch` validates the input with the
// command's zod schema before the handler sees it, validates the output after (but for the
// trusted ones, `TRUSTED_OUTPUTS`, outside the tests), and turns
// every outcome into `{ status, body }` where a refusal is the error shape. Handlers return
// values or error values; an exception is a bug: logged, answered 500 `internal`.
import type { z } from 'zod';
import {
  commands,
  ErrorResponse,
  httpStatusOf,
  isCommandName,
  isErrorResponse,
  type CommandName,
  type CommandOutput,
  type ErrorBody,
  type HandlerInput,
} from '../contract/commands.js';
import { listedProblems } from '../contract/problems.js';
import type { Logger } from './log.js';

/** Who is calling: the transport and an id that ties log lines of one call together. */
export interface CommandContext {
  via: 'http' | 'ipc' | 'internal';
  requestId: string;
}

export type HandlerAnswer<N extends CommandName> = CommandOutput<N> | ErrorResponse;

export type Handler<N extends CommandName, C extends CommandContext = CommandContext> = (
  input: HandlerInput<N>,
  ctx: C,
) => HandlerAnswer<N> | Promise<HandlerAnswer<N>>;

export type Handlers<C extends CommandContext = CommandContext> = {
  [N in CommandName]: Handler<N, C>;
};

export type DispatchResult =
  { ok: true; status: 200; body: unknown } | { ok: false; status: number; body: ErrorResponse };

/** Builds an error value: `return refuse('role-required', 'a manager closes shifts')`. */
export function refuse(
  code: string,
  message: string,
  path = '(root)',
  details?: Record<string, unknown>,
): ErrorResponse {
  return {
    error: details === undefined ? { code, message, path } : { code, message, path, details },
  };
}

function failure(body: ErrorResponse): DispatchResult {
  return { ok: false, status: httpStatusOf(body.error.code), body };
}

/**
 * The 400 answer for a zod failure: `path` names the first bad field; details list the first
 * PROBLEMS_LISTED problems and count the rest in `more_problems` (only when there are more).
 */
function invalidInput(error: z.ZodError): ErrorResponse {
  const { problems, more } = listedProblems(error);
  const first = problems[0] ?? { path: '(root)', message: 'invalid input' };
  const message = `${first.path}: ${first.message}`;
  return refuse(
    'invalid-input',
    more > 0 ? `${message} (and ${problems.length - 1 + more} more problems)` : message,
    first.path,
    more > 0 ? { problems, more_problems: more } : { problems },
  );
}

export interface CommandMap<C extends CommandContext = CommandContext> {
  /** Throws on an unknown name or a second handler for one name: both are wiring bugs. */
  register<N extends CommandName>(name: N, handler: Handler<N, C>): void;
  has(name: string): boolean;
  /** Registered names, in the contract's order. */
  names(): CommandName[];
  dispatch(name: string, rawInput: unknown, ctx: C): Promise<DispatchResult>;
}

/**
 * Commands whose answer is built from the engine's own typed result, nothing read from outside
 * (`publicCheck` drops the PIN, as the schema's transform would): where outputs are trusted,
 * their schema check is skipped. On the bench's 500-rule check it costs about five times the
 * engine (4 ms against 0.8 ms, bench/README.md "ui"), on every line the cashier adds.
 */
export const TRUSTED_OUTPUTS: ReadonlySet<CommandName> = new Set<CommandName>(['check-calc']);

/**
 * The outputs a running terminal leaves unchecked: `TRUSTED_OUTPUTS`, or none when
 * `LT_CHECK_OUTPUTS=all` (the tests set it in vitest.config.ts; development may).
 */
export function trustedOutputs(env: Record<string, string | undefined>): ReadonlySet<CommandName> {
  return env.LT_CHECK_OUTPUTS === 'all' ? new Set() : TRUSTED_OUTPUTS;
}

export function createCommandMap<C extends CommandContext = CommandContext>(opts: {
  log: Logger;
  /** Commands whose output is answered as the handler built it; default none (all checked). */
  trusted?: ReadonlySet<CommandName>;
}): CommandMap<C> {
  const handlers = new Map<CommandName, Handler<CommandName, C>>();
  const log = opts.log;

  const internal = (message: string): DispatchResult => failure(refuse('internal', message));

  return {
    register(name, handler) {
      if (!isCommandName(name)) throw new Error(`unknown command "${String(name)}"`);
      if (handlers.has(name)) throw new Error(`command "${name}" is already registered`);
      handlers.set(name, handler as unknown as Handler<CommandName, C>);
    },

    has: (name) => isCommandName(name) && handlers.has(name),

    names: () => (Object.keys(commands) as CommandName[]).filter((n) => handlers.has(n)),

    async dispatch(name, rawInput, ctx) {
      if (!isCommandName(name)) {
        return failure(refuse('unknown-command', `no command "${name}"`, 'name'));
      }
      const handler = handlers.get(name);
      if (!handler) {
        return failure(refuse('not-implemented', `"${name}" is not available yet`, 'name'));
      }
      const spec = commands[name];
      // A call without a body means "no arguments".
      const parsed = spec.input.safeParse(rawInput === undefined ? {} : rawInput);
      if (!parsed.success) return failure(invalidInput(parsed.error));

      let answer: unknown;
      try {
        answer = await handler(parsed.data as HandlerInput<CommandName>, ctx);
      } catch (e) {
        log.error('command handler threw', {
          command: name,
          request_id: ctx.requestId,
          via: ctx.via,
          err: e,
        });
        return internal('internal error; the terminal log has the details');
      }

      if (isErrorResponse(answer)) {
        const checked = ErrorResponse.safeParse(answer);
        if (!checked.success) {
          log.error('command handler returned a malformed error', {
            command: name,
            request_id: ctx.requestId,
            ...listedProblems(checked.error),
          });
          return internal('internal error; the terminal log has the details');
        }
        return failure(checked.data);
      }

      if (opts.trusted?.has(name)) return { ok: true, status: 200, body: answer };
      const out = spec.output.safeParse(answer);
      if (!out.success) {
        log.error('command output breaks its schema', {
          command: name,
          request_id: ctx.requestId,
          ...listedProblems(out.error),
        });
        return internal('internal error; the terminal log has the details');
      }
      return { ok: true, status: 200, body: out.data };
    },
  };
}

/** An error body's HTTP status, for transports that need it without a dispatch. */
export function statusOf(error: ErrorBody): number {
  return httpStatusOf(error.code);
}
