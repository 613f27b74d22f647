import { describe, expect, it } from 'vitest';
import { bridgeApi, chooseApi, httpApi, isError, type FetchLike } from '../../renderer/api.js';
import type { TerminalBridge } from '../../renderer/types.js';

function fakeFetch(answer: { status: number; body: string } | Error) {
  const calls: { url: string; init: Parameters<FetchLike>[1] }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    if (answer instanceof Error) throw answer;
    return { status: answer.status, text: async () => answer.body };
  };
  return { fetch, calls };
}

const bridge = (call: TerminalBridge['call']): TerminalBridge => ({
  call,
  on: () => () => undefined,
});

describe('httpApi', () => {
  it('posts JSON to the command path with the same-origin cookie', async () => {
    const f = fakeFetch({ status: 200, body: '{"devices":[]}' });
    const api = httpApi({ fetch: f.fetch });
    expect(await api.call('devices-state', {})).toEqual({ devices: [] });
    expect(f.calls[0]!.url).toBe('/api/commands/devices-state');
    expect(f.calls[0]!.init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
  });

  it('passes a refusal through as data', async () => {
    const body = { error: { code: 'pin-invalid', message: 'wrong', path: 'check' } };
    const api = httpApi(fakeFetch({ status: 422, body: JSON.stringify(body) }));
    expect(await api.call('staff-sign-out', {})).toEqual(body);
  });

  it('turns a network failure into the unreachable error', async () => {
    const api = httpApi(fakeFetch(new Error('connection refused')));
    expect(await api.call('status', {})).toEqual({
      error: { code: 'unreachable', message: 'connection refused', path: '(root)' },
    });
  });

  it('turns an answer without JSON into the unreachable error', async () => {
    const api = httpApi(fakeFetch({ status: 502, body: '<html>' }));
    const r = await api.call('status', {});
    expect('error' in r && r.error.code).toBe('unreachable');
  });

  it('opens the event stream once and delivers parsed events by name', async () => {
    let opened = 0;
    let closed = 0;
    let deliver: ((name: 'device-state', data: string) => void) | null = null;
    const api = httpApi({
      fetch: fakeFetch({ status: 200, body: '{}' }).fetch,
      events: (_names, d) => {
        opened++;
        deliver = d as typeof deliver;
        return () => closed++;
      },
    });
    const got: unknown[] = [];
    const off1 = api.on('device-state', (p) => got.push(p));
    const off2 = api.on('status-changed', () => undefined);
    deliver!('device-state', '{"kind":"printer"}');
    deliver!('device-state', 'not json');
    expect(got).toEqual([{ kind: 'printer' }]);
    expect(opened).toBe(1);
    off1();
    expect(closed).toBe(0);
    off2();
    expect(closed).toBe(1);
  });
});

describe('bridgeApi and chooseApi', () => {
  it('turns a rejected IPC call into the unreachable error', async () => {
    const api = bridgeApi(bridge(async () => Promise.reject(new Error('ipc gone'))));
    expect(await api.call('status', {})).toMatchObject({
      error: { code: 'unreachable', message: 'ipc gone' },
    });
  });

  it('prefers the preload bridge when the window has one', () => {
    const b = bridge(async () => ({ devices: [] }) as never);
    expect(
      chooseApi({ terminal: b }, () => httpApi(fakeFetch({ status: 200, body: '{}' }))).kind,
    ).toBe('ipc');
    expect(chooseApi({}, () => httpApi(fakeFetch({ status: 200, body: '{}' }))).kind).toBe('http');
  });
});

describe('isError', () => {
  it("takes sync-now's `error: null` for an answer, an error object for a refusal", () => {
    expect(isError({ pushed: 1, error: null })).toBe(false);
    expect(isError({ pushed: 1, error: { code: 'x', message: 'y', path: '(root)' } })).toBe(false);
    expect(isError({ error: { code: 'x', message: 'y', path: '(root)' } })).toBe(true);
  });
});
