// A socat pty pair for tests: two linked pseudo-terminals, killed to "unplug" and restarted on
// the same paths to "plug back". Tests that need socat fail (never skip) when it is missing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function requireSocat(): string {
  try {
    return execFileSync('which', ['socat'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'socat is not installed: apt-get install -y socat (device tests need a pty pair)',
    );
  }
}

export async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export class PtyPair {
  readonly dir: string;
  readonly a: string;
  readonly b: string;
  private proc: ChildProcess | null = null;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'lt-pty-'));
    this.a = join(this.dir, 'A');
    this.b = join(this.dir, 'B');
  }

  static async open(): Promise<PtyPair> {
    const p = new PtyPair();
    await p.plug();
    return p;
  }

  async plug(): Promise<void> {
    const socat = requireSocat();
    this.proc = spawn(
      socat,
      ['-d', '-d', `pty,raw,echo=0,link=${this.a}`, `pty,raw,echo=0,link=${this.b}`],
      {
        stdio: 'ignore',
      },
    );
    await waitFor(() => existsSync(this.a) && existsSync(this.b), 5_000, 'the socat links');
  }

  /** Kills socat: both ends vanish, as when a cable is pulled. */
  async unplug(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(this.a, { force: true });
    rmSync(this.b, { force: true });
  }

  async close(): Promise<void> {
    await this.unplug();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
