// The preload runs as Electron runs a sandboxed preload: compiled to CommonJS, wrapped in a
// function whose `require` knows only 'electron'. So this also proves it needs nothing else.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeEach, describe, expect, it } from 'vitest';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../main/channels.js';
import * as electron from '../mocks/electron.js';

function runPreload(): void {
  const source = readFileSync(new URL('../../main/preload.cts', import.meta.url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const required: string[] = [];
  const sandboxRequire = (id: string) => {
    required.push(id);
    if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
    return electron;
  };
  const module = { exports: {} };
  new Function('require', 'exports', 'module', outputText)(sandboxRequire, module.exports, module);
  expect(required).toEqual(['electron']);
}

type Bridge = {
  call(name: string, input: unknown): Promise<unknown>;
  on(e: string, l: (p: unknown) => void): () => void;
};

describe('the preload', () => {
  beforeEach(() => {
    electron.resetElectronMock();
    runPreload();
  });

  it('exposes exactly call and on, as window.terminal', () => {
    expect(Object.keys(electron.exposed)).toEqual(['terminal']);
    expect(Object.keys(electron.exposed.terminal as object).sort()).toEqual(['call', 'on']);
  });

  it('sends a call over the main process call channel', async () => {
    electron.ipcRenderer.answer = () => ({ items: [] });
    const bridge = electron.exposed.terminal as Bridge;
    expect(await bridge.call('attention-list', {})).toEqual({ items: [] });
    expect(electron.ipcRenderer.invocations).toEqual([
      { channel: CALL_CHANNEL, args: ['attention-list', {}] },
    ]);
  });

  it('delivers only the event a listener asked for, until it unsubscribes', () => {
    const bridge = electron.exposed.terminal as Bridge;
    const seen: unknown[] = [];
    const off = bridge.on('device-state', (p) => seen.push(p));
    electron.ipcRenderer.emit(EVENT_CHANNEL, {}, 'sync-progress', { a: 1 });
    electron.ipcRenderer.emit(EVENT_CHANNEL, {}, 'device-state', { b: 2 });
    off();
    electron.ipcRenderer.emit(EVENT_CHANNEL, {}, 'device-state', { c: 3 });
    expect(seen).toEqual([{ b: 2 }]);
  });
});
