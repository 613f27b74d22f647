import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentStartError } from '../../src/agent/server.js';
import { acquireDataDirLock, currentProcess, LOCK_FILE } from '../../src/terminal/lock.js';
import { agentFor, tempDir } from './helpers.js';

describe('one agent per data directory', () => {
  it('refuses a second agent on the same data directory', async () => {
    const dir = tempDir();
    const first = await agentFor({ dataDir: dir });
    try {
      const second = agentFor({ dataDir: dir });
      await expect(second).rejects.toBeInstanceOf(AgentStartError);
      await expect(second).rejects.toMatchObject({
        error: { code: 'instance-locked', path: 'data' },
      });
    } finally {
      await first.close();
    }
  });

  it('lets the next agent start once the first has stopped', async () => {
    const dir = tempDir();
    await (await agentFor({ dataDir: dir })).close();
    const again = await agentFor({ dataDir: dir });
    await again.close();
  });

  it('takes over a lock whose process is gone', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid: 999_999,
        started_ms: 1,
        host: currentProcess().host,
        acquired_at: 'then',
      }),
    );
    const r = acquireDataDirLock(dir, { ...currentProcess(), isAlive: () => false });
    expect(r.ok).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
  });

  it('takes over a lock of an earlier process that had the same pid', () => {
    const dir = tempDir();
    const me = currentProcess();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid: me.pid,
        started_ms: me.startedMs - 3_600_000,
        host: me.host,
        acquired_at: 'then',
      }),
    );
    expect(acquireDataDirLock(dir, me).ok).toBe(true);
  });

  it('refuses a lock held by a live process, naming its pid', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid: 4242,
        started_ms: 1,
        host: currentProcess().host,
        acquired_at: 'then',
      }),
    );
    const r = acquireDataDirLock(dir, { ...currentProcess(), isAlive: (pid) => pid === 4242 });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'instance-locked', details: { pid: 4242 } },
    });
  });

  it('treats an unreadable lock file as stale', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    expect(acquireDataDirLock(dir).ok).toBe(true);
  });

  it('removes its lock file on release', () => {
    const dir = tempDir();
    const r = acquireDataDirLock(dir);
    if (!r.ok) throw new Error('not acquired');
    r.lock.release();
    expect(acquireDataDirLock(dir).ok).toBe(true);
  });
});
