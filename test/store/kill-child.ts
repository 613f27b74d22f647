// The kill tests' harness: runs a TypeScript child of this repository under Node's type
// stripping (through fixtures/ts-resolve.mjs, so no build step and no stale dist/), hands the
// test each line the child prints, and SIGKILLs the child `delayMs` after the kill is armed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Node 24, the devDependency; its type stripping runs the children. */
export const repoNode = join(repoRoot, 'node_modules', '.bin', 'node');
export const tsHook = './test/store/fixtures/ts-resolve.mjs';

export interface ChildEnd {
  /** The kill ended it (rather than the child itself). */
  readonly killed: boolean;
  readonly code: number | null;
  readonly stderr: string;
}

export interface KillPlan {
  readonly delayMs: number;
  /** Arm the kill at spawn; otherwise only when `onLine` calls `arm`. */
  readonly armAtSpawn: boolean;
  onLine(line: string, arm: () => void): void;
}

/** Runs `script` (relative to the repository) with `args` until it is killed or ends. */
export function runUntilKilled(
  script: string,
  args: readonly string[],
  plan: KillPlan,
): Promise<ChildEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(repoNode, ['--import', tsHook, script, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), plan.delayMs);
    };
    if (plan.armAtSpawn) arm();
    let buffer = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        plan.onLine(line, arm);
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', code, stderr });
    });
  });
}

/** Runs `script` to its end, never killed (the run after a kill that must complete the work). */
export function runToEnd(script: string, args: readonly string[]): Promise<ChildEnd> {
  return runUntilKilled(script, args, { delayMs: 0, armAtSpawn: false, onLine: () => {} });
}
