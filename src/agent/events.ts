// The events `on()` delivers (src/contract/commands.ts `events`), as a small hub the core
// emits into and every transport subscribes to: IPC in Electron, server-sent events in the
// agent. Payloads are validated on emit, so a transport never forwards a malformed event.
import { events, type EventName, type EventPayload } from '../contract/commands.js';
import { problemsOf } from '../contract/problems.js';

type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface EventHub {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** Returns its own unsubscribe. */
  subscribe(listener: EventListener): () => void;
}

export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(name, payload) {
      const checked = events[name].safeParse(payload);
      if (!checked.success) {
        const where = problemsOf(checked.error)
          .map((p) => `${p.path}: ${p.message}`)
          .join('; ');
        throw new Error(`event "${name}" breaks its schema: ${where}`);
      }
      for (const l of [...listeners]) l(name, checked.data as EventPayload<typeof name>);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
