// Shared set-up of the agent tests: a fresh data directory and an agent on a free port.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigSchema } from '../../src/contract/config.js';
import { startAgent, type Agent, type AgentOptions } from '../../src/agent/server.js';

export function tempDir(prefix = 'lt-agent-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function agentFor(overrides: Partial<AgentOptions> = {}): Promise<Agent> {
  return startAgent({
    dataDir: tempDir(),
    port: 0,
    config: ConfigSchema.parse({}),
    rendererDir: null,
    ...overrides,
  });
}

export function bearer(agent: Agent): Record<string, string> {
  return { Authorization: `Bearer ${agent.token}` };
}

export async function postCommand(
  agent: Agent,
  name: string,
  body: string,
  headers: Record<string, string> = bearer(agent),
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${agent.url}/api/commands/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: await res.json() };
}
