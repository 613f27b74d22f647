// A queue a driver awaits with a deadline: every wait on a device is bounded.
import { LinkError } from './link.js';

export class Inbox<T> {
  private items: T[] = [];
  private waiters: {
    resolve: (v: T) => void;
    reject: (e: Error) => void;
    timer: NodeJS.Timeout;
  }[] = [];

  push(item: T): void {
    const w = this.waiters.shift();
    if (w) {
      clearTimeout(w.timer);
      w.resolve(item);
    } else this.items.push(item);
  }

  clear(): void {
    this.items = [];
  }

  get size(): number {
    return this.items.length;
  }

  next(timeoutMs: number, what = 'answer'): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise<T>((resolve, reject) => {
      const w = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          reject(new LinkError('timeout', `no ${what} within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }

  /** Fails every pending wait, e.g. when the driver closes. */
  failAll(error: Error): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(error);
    }
    this.waiters = [];
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
