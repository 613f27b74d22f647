// The headless agent a browser bench drives: started in this process on a free port over a data
// directory and the config given (written to its config.json), with the built cashier's page.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Agent } from '../src/agent/server.js';
import { runAgent } from '../src/cli/agent.js';
import { memoryIO } from '../src/cli/io.js';

const RENDERER_DIR = fileURLToPath(new URL('../../renderer/dist', import.meta.url));

export async function startBenchAgent(
  dir: string,
  config: Record<string, unknown>,
): Promise<{ agent: Agent; stop(): Promise<void> }> {
  const configFile = join(dir, 'config.json');
  const text = JSON.stringify(config);
  writeFileSync(configFile, text);
  const stop = new AbortController();
  let started!: (a: Agent) => void;
  const ready = new Promise<Agent>((resolve) => (started = resolve));
  const io = memoryIO({ [configFile]: text });
  const exited = runAgent(['--port', '0', '--data', dir], io, {
    signal: stop.signal,
    rendererDir: RENDERER_DIR,
    onStarted: (a) => started(a),
  });
  const agent = await Promise.race([
    ready,
    exited.then((code) => {
      throw new Error(`the agent exited with ${code}: ${io.err}`);
    }),
  ]);
  return {
    agent,
    async stop() {
      stop.abort();
      await exited;
    },
  };
}
