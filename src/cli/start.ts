// `npm start` / `loyalty-terminal start`: the Electron app when its binary is installed,
// else the headless agent with the URL to open. The binary is found by its files
// (node_modules/electron/path.txt and dist/), never by loading the electron module, which
// would try to download it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent, type RunAgentOptions } from './agent.js';
import type { CliIO } from './io.js';
import { packageRoot } from '../config/package-info.js';

/** The Electron executable under ROOT/node_modules/electron, or null when it is not installed. */
export function findElectron(
  root: string,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const pkg = join(root, 'node_modules', 'electron');
  const candidates: string[] = [];
  const pathTxt = join(pkg, 'path.txt');
  if (existsSync(pathTxt)) candidates.push(join(pkg, 'dist', readFileSync(pathTxt, 'utf8').trim()));
  candidates.push(
    join(
      pkg,
      'dist',
      platform === 'win32'
        ? 'electron.exe'
        : platform === 'darwin'
          ? 'Electron.app/Contents/MacOS/Electron'
          : 'electron',
    ),
  );
  return candidates.find((c) => existsSync(c)) ?? null;
}

interface StartDeps extends RunAgentOptions {
  root?: string;
  platform?: NodeJS.Platform;
  /** Runs the Electron app; resolves with its exit code. */
  runElectron?: (electron: string, args: string[]) => Promise<number>;
  /** The headless fallback. */
  runAgent?: typeof runAgent;
}

function spawnElectron(electron: string, args: string[]): Promise<number> {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // set, it would make Electron a plain Node
  return new Promise((done, fail) => {
    const child = spawn(electron, args, { stdio: 'inherit', env });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

export async function runStart(args: string[], io: CliIO, deps: StartDeps = {}): Promise<number> {
  const root = deps.root ?? packageRoot();
  const electron = findElectron(root, deps.platform);
  const mainJs = join(root, 'dist', 'main', 'main.js');
  if (electron !== null && existsSync(mainJs)) {
    return (deps.runElectron ?? spawnElectron)(electron, [root, ...args]);
  }
  io.stderr(
    electron === null
      ? 'Electron is not installed here (node_modules/electron/dist is missing); starting the headless agent instead.\n'
      : 'The Electron app is not built (dist/main/main.js is missing: run npm run build); starting the headless agent instead.\n',
  );
  return (deps.runAgent ?? runAgent)(args, io, deps);
}
