// Who reaches what (issue 14): the resolver and the embedded sandbox are wired in from the
// launchers, so the folders they used to tie together no longer import each other. Read
// from the import graph `npm run deps` prints (.ci/deps.mjs).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function importGraph(): Record<string, string[]> {
  const r = spawnSync(process.execPath, ['.ci/deps.mjs', '--json'], { encoding: 'utf8' });
  return (JSON.parse(r.stdout) as { graph: Record<string, string[]> }).graph;
}

describe('the wiring of configuration and the embedded sandbox', () => {
  const graph = importGraph();

  it('src/config imports only the contract', () => {
    expect(graph['src/config']).toEqual(['src/contract']);
  });

  it('neither main/ nor src/agent imports the command line', () => {
    expect(graph['main']).not.toContain('src/cli');
    expect(graph['src/agent']).not.toContain('src/cli');
  });

  it('the terminal reaches the sandbox only through the port it is given', () => {
    expect(graph['src/terminal']).not.toContain('src/central');
  });
});
