// Every command reads its flags through src/config/flags.ts: an unknown flag is refused the
// same way everywhere, with exit 2, one line naming the command and the flag, then the usage.
import { describe, expect, it } from 'vitest';
import { runCentral } from '../../src/cli/central.js';
import { memoryIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const commands = [
  ['agent'],
  ['calc', 'fixture.json'],
  ['contract', 'validate', 'Check', '-'],
  ['db', 'status'],
  ['devices', 'list'],
  ['devices', 'decode', 'zvt-tcp', '80 00 00'],
  ['devices', 'sim-books'],
  ['secrets', 'list'],
  ['sync', 'status'],
];

describe('an unknown flag', () => {
  it.each(commands)('is refused by %s with exit 2, naming it, then the usage', async (...argv) => {
    const io = memoryIO();
    expect(await main([...argv, '--bogus'], io)).toBe(2);
    const [first, ...usage] = io.err.split('\n');
    const name = argv[0] === 'devices' ? `devices ${argv[1]}` : argv[0];
    expect(first).toBe(`${name}: unknown flag --bogus`);
    expect(usage.join('\n').toLowerCase()).toContain('usage');
    expect(io.out).toBe('');
  });

  it('is refused by central the same way', async () => {
    const io = memoryIO();
    expect(await runCentral(['--bogus'], io, Promise.resolve())).toBe(2);
    expect(io.err).toMatch(/^central: unknown flag --bogus\nusage: loyalty-terminal central/);
  });

  it('is refused by the agent before it reads a configuration or starts', async () => {
    const io = memoryIO();
    expect(await main(['agent', '--data', '/nonexistent', '--prot', '8080'], io)).toBe(2);
    expect(io.err).toMatch(/^agent: unknown flag --prot\nusage: loyalty-terminal agent/);
  });
});
