// runAgent and runStart (src/cli/agent.ts, src/cli/start.ts), driven through the CliIO port.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/cli/io.js';
import { runAgent } from '../../src/cli/agent.js';
import { findElectron, runStart } from '../../src/cli/start.js';
import type { Agent } from '../../src/agent/server.js';
import { tempDir } from './helpers.js';

/** Runs the agent until `use` is done with it; answers the exit code and the output. */
async function withAgent(
  args: string[],
  use: (agent: Agent) => Promise<void>,
  files: Record<string, string> = {},
) {
  const io = memoryIO(files);
  const stop = new AbortController();
  let used: Promise<void> = Promise.resolve();
  const code = await runAgent(args, io, {
    signal: stop.signal,
    rendererDir: null,
    onStarted: (agent) => {
      used = use(agent).finally(() => stop.abort());
    },
  });
  await used;
  return { code, io };
}

describe('loyalty-terminal agent', () => {
  it('prints one JSON line with its url and token once it listens', async () => {
    const dir = tempDir();
    const { code, io } = await withAgent(['--port', '0', '--data', dir], async (agent) => {
      const res = await fetch(`${agent.url}/api/status`, {
        headers: { Authorization: `Bearer ${agent.token}` },
      });
      expect(res.status).toBe(200);
    });
    expect(code).toBe(0);
    const lines = io.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { url: string; token: string; open_url: string };
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.token).toBe(readFileSync(join(dir, 'agent-token'), 'utf8').trim());
    expect(line.open_url).toMatch(new RegExp(`^${line.url}/session\\?code=`));
    expect(line.open_url).not.toContain(line.token);
  });

  it('reads --config and refuses a bad key, naming it, with exit 2', async () => {
    const dir = tempDir();
    const io = memoryIO({
      'c.json': JSON.stringify({ central: { timeouts: { connect_ms: -1 } } }),
    });
    expect(await runAgent(['--data', dir, '--config', 'c.json'], io)).toBe(2);
    expect(io.err).toContain('central.timeouts.connect_ms');
  });

  it('refuses a bad port with exit 2', async () => {
    const io = memoryIO();
    expect(await runAgent(['--port', 'eighty'], io)).toBe(2);
    expect(io.err).toContain('--port');
  });

  it('says in the error shape that a second agent on the same data directory cannot start', async () => {
    const dir = tempDir();
    await withAgent(['--data', dir], async () => {
      const io = memoryIO();
      expect(await runAgent(['--data', dir], io, { rendererDir: null })).toBe(1);
      expect(JSON.parse(io.err)).toMatchObject({ error: { code: 'instance-locked' } });
    });
  });
});

describe('npm start', () => {
  it('finds Electron by its files: path.txt names the binary under dist', () => {
    const root = tempDir('lt-root-');
    const pkg = join(root, 'node_modules', 'electron');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    expect(findElectron(root, 'linux')).toBeNull(); // path.txt alone: the download failed
    writeFileSync(join(pkg, 'dist', 'electron'), '');
    expect(findElectron(root, 'linux')).toBe(join(pkg, 'dist', 'electron'));
  });

  it('starts the agent instead, saying why, when Electron is not installed', async () => {
    const root = tempDir('lt-root-');
    const io = memoryIO();
    let agentArgs: string[] = [];
    const code = await runStart(['--data', 'D'], io, {
      root,
      runElectron: async () => {
        throw new Error('must not run');
      },
      runAgent: async (args) => {
        agentArgs = args;
        return 0;
      },
    });
    expect(code).toBe(0);
    expect(agentArgs).toEqual(['--data', 'D']);
    expect(io.err).toContain('Electron is not installed');
  });

  it('runs the Electron app with the package root when the binary and the build exist', async () => {
    const root = tempDir('lt-root-');
    mkdirSync(join(root, 'node_modules', 'electron', 'dist'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '');
    mkdirSync(join(root, 'dist', 'main'), { recursive: true });
    writeFileSync(join(root, 'dist', 'main', 'main.js'), '');
    let ran: string[] = [];
    const code = await runStart(['--data', 'D'], memoryIO(), {
      root,
      platform: 'linux',
      runElectron: async (bin, args) => {
        ran = [bin, ...args];
        return 0;
      },
    });
    expect(code).toBe(0);
    expect(ran).toEqual([
      join(root, 'node_modules', 'electron', 'dist', 'electron'),
      root,
      '--data',
      'D',
    ]);
  });
});
