// The renderer's one door to the terminal: the preload bridge in Electron, else the agent's
// HTTP API on the page's own origin (session cookie, set by the agent's /session exchange).
// Either way `call` resolves with the output or the error shape and never rejects: a lost
// connection is reported as the error `unreachable`, so a sale can ask `sale-status` later.
// Kept free of DOM types: fetch and the event stream are passed in (tests run in Node).
import type {
  CommandInput,
  CommandName,
  CommandResult,
  ErrorResponse,
  EventName,
  EventPayload,
  TerminalBridge,
} from './types.js';

export interface Api extends TerminalBridge {
  /** `ipc` in Electron, `http` in a browser kiosk. */
  readonly kind: 'ipc' | 'http';
}

/** What the renderer needs of `fetch`. */
export type FetchLike = (
  url: string,
  init: {
    method: 'GET' | 'POST';
    headers: Record<string, string>;
    body?: string;
    credentials: 'same-origin';
    cache: 'no-store';
  },
) => Promise<{ status: number; text(): Promise<string> }>;

/** Opens the event stream; calls `deliver` per event; returns its own close. */
export type EventStreamFactory = (
  names: readonly EventName[],
  deliver: (name: EventName, data: string) => void,
) => () => void;

/** The client-side error code for a call that got no answer (network, crash, bad JSON). */
export const UNREACHABLE = 'unreachable';

export function unreachable(message: string): ErrorResponse {
  return { error: { code: UNREACHABLE, message, path: '(root)' } };
}

/** Every answer is data: a rejected promise or a thrown error becomes `unreachable`. */
export function bridgeApi(bridge: TerminalBridge): Api {
  return {
    kind: 'ipc',
    async call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandResult<N>> {
      try {
        return await bridge.call(name, input);
      } catch (e) {
        return unreachable(e instanceof Error ? e.message : String(e));
      }
    },
    on: (event, listener) => bridge.on(event, listener),
  };
}

/** Every event the screen listens to; `satisfies` makes a new event a compile error here. */
const EVENTS_HEARD = {
  'status-changed': true,
  'device-state': true,
  'device-read': true,
  'sync-progress': true,
  'customer-display': true,
  'pump-state': true,
} as const satisfies Record<EventName, true>;
const EVENT_NAMES = Object.keys(EVENTS_HEARD) as EventName[];

/** The agent's HTTP API, same origin: `POST /api/commands/NAME`, events over `/api/events`. */
export function httpApi(deps: {
  fetch: FetchLike;
  events?: EventStreamFactory;
  base?: string;
}): Api {
  const base = deps.base ?? '';
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let close: (() => void) | null = null;

  const deliver = (name: EventName, data: string) => {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return; // a broken frame is dropped; the next status poll corrects the screen
    }
    for (const l of listeners.get(name) ?? []) l(payload);
  };

  return {
    kind: 'http',
    async call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandResult<N>> {
      let status: number;
      let text: string;
      try {
        const res = await deps.fetch(`${base}/api/commands/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
          cache: 'no-store',
        });
        status = res.status;
        text = await res.text();
      } catch (e) {
        return unreachable(e instanceof Error ? e.message : String(e));
      }
      try {
        return JSON.parse(text) as CommandResult<N>;
      } catch {
        return unreachable(`the terminal answered ${status} without JSON`);
      }
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const l = listener as (payload: unknown) => void;
      set.add(l);
      if (close === null && deps.events) close = deps.events(EVENT_NAMES, deliver);
      return () => {
        set.delete(l);
        const any = [...listeners.values()].some((s) => s.size > 0);
        if (!any && close) {
          close();
          close = null;
        }
      };
    },
  };
}

/** The bridge when the preload gave one, else HTTP to the page's own origin. */
export function chooseApi(host: { terminal?: TerminalBridge | undefined }, http: () => Api): Api {
  const bridge = host.terminal;
  if (bridge && typeof bridge.call === 'function' && typeof bridge.on === 'function') {
    return bridgeApi(bridge);
  }
  return http();
}

/**
 * True when a command's answer is a refusal: the contract's isErrorResponse, restated because
 * the renderer loads nothing from src/ at run time. `sync-now`'s answer (its counts with
 * `error`, null or why the round stopped early) is an answer.
 */
export function isError(value: unknown): value is ErrorResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    typeof (value as { error: unknown }).error === 'object' &&
    (value as { error: unknown }).error !== null &&
    Object.keys(value).length === 1
  );
}
