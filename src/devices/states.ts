// Device states for the UI (`devices-state`): one entry per configured device, updated from
// its link, with change events.
import { EventEmitter } from 'node:events';
import type { LinkState } from './link.js';

export interface DeviceState {
  name: string;
  protocol: string;
  transport: 'serial' | 'tcp' | 'simulated';
  /** Path or host:port; null when simulated. */
  address: string | null;
  state: LinkState;
  detail: string | null;
  since: string;
}

export class DeviceStates {
  private readonly events = new EventEmitter();
  private readonly map = new Map<string, DeviceState>();
  private readonly now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.now = now;
  }

  set(entry: Omit<DeviceState, 'since'>): void {
    const old = this.map.get(entry.name);
    if (old && old.state === entry.state && old.detail === entry.detail) return;
    const next = { ...entry, since: this.now().toISOString() };
    this.map.set(entry.name, next);
    this.events.emit('change', next);
  }

  snapshot(): DeviceState[] {
    return [...this.map.values()];
  }

  onChange(fn: (s: DeviceState) => void): () => void {
    this.events.on('change', fn);
    return () => this.events.off('change', fn);
  }
}
