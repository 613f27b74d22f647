import { describe, expect, it } from 'vitest';
import { createCallHandler, type CallEvent } from '../../main/ipc.js';
import { isTrustedUrl } from '../../main/trusted-url.js';
import { createCommandMap } from '../../src/terminal/command-map.js';
import { memoryLogger } from '../support/log.js';

function world() {
  const log = memoryLogger();
  const commands = createCommandMap({ log });
  const calls: unknown[] = [];
  commands.register('shift-open', (input) => {
    calls.push(input);
    return {
      shift: {
        id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
        number: 1,
        opened_at: '2025-01-01T08:00:00Z',
        opened_by: { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c' },
        closed_at: null,
        closed_by: null,
        ...input,
      },
    };
  });
  return { handler: createCallHandler({ commands, log }), calls, log };
}

const ours: CallEvent = { senderFrame: { url: 'app://terminal/index.html', parent: null } };
const from = (url: string, parent: unknown = null): CallEvent => ({ senderFrame: { url, parent } });

describe('the IPC call handler', () => {
  it('runs a valid call from our own page', async () => {
    const { handler, calls } = world();
    const answer = await handler(ours, 'shift-open', { opening_cash: 100 });
    expect(answer).toMatchObject({ shift: { number: 1, opening_cash: 100 } });
    expect(calls).toEqual([{ opening_cash: 100 }]);
  });

  it('validates the input before the handler sees it, naming the field', async () => {
    const { handler, calls } = world();
    const answer = await handler(ours, 'shift-open', { opening_cash: 'lots' });
    expect(answer).toMatchObject({ error: { code: 'invalid-input', path: 'opening_cash' } });
    expect(calls).toEqual([]);
  });

  it.each([
    ['a file page', 'file:///tmp/evil.html'],
    ['a web page', 'https://evil.example/'],
    ['a look-alike host', 'app://terminal.evil/index.html'],
    ['credentials in the URL', 'app://x@terminal/index.html'],
    ['no URL at all', 'not a url'],
  ])('refuses a call from %s', async (_what, url) => {
    const { handler, calls, log } = world();
    const answer = await handler(from(url), 'shift-open', {});
    expect(answer).toMatchObject({ error: { code: 'unauthorized', path: 'sender' } });
    expect(calls).toEqual([]);
    expect(log.records.some((r) => r.level === 'warn')).toBe(true);
  });

  it('refuses a call from a subframe of our own page', async () => {
    const { handler, calls } = world();
    const answer = await handler(from('app://terminal/index.html', {}), 'shift-open', {});
    expect(answer).toMatchObject({ error: { code: 'unauthorized' } });
    expect(calls).toEqual([]);
  });

  it('refuses a call whose frame is gone', async () => {
    const { handler } = world();
    expect(await handler({ senderFrame: null }, 'shift-open', {})).toMatchObject({
      error: { code: 'unauthorized' },
    });
  });

  it('refuses a command name that is not a string', async () => {
    const { handler } = world();
    expect(await handler(ours, 42, {})).toMatchObject({
      error: { code: 'invalid-input', path: 'name' },
    });
  });

  it('refuses a name outside the command map', async () => {
    const { handler } = world();
    expect(await handler(ours, 'rm-rf', {})).toMatchObject({ error: { code: 'unknown-command' } });
  });
});

describe('trusted URLs', () => {
  it('accepts any path of app://terminal', () => {
    expect(isTrustedUrl('app://terminal/')).toBe(true);
    expect(isTrustedUrl('app://terminal/sale?x=1#y')).toBe(true);
  });

  it('compares the parts, not a substring', () => {
    expect(isTrustedUrl('https://evil.example/app://terminal/')).toBe(false);
    expect(isTrustedUrl('app://terminalx/')).toBe(false);
  });
});
