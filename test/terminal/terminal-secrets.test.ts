// createTerminal takes its secrets from the secret store, else config.json: the central API key
// signs the terminal in, the ZVT password registers the payment unit, and a value written in
// clear in config.json is moved into the store, named in the log but never quoted.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/contract/config.js';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { hashApiKey } from '../../src/central/service.js';
import { startEmbeddedCentral } from '../../src/central/embedded.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { nullLogger } from '../../src/terminal/log.js';
import { createFileSecretStore } from '../../src/config/secret-store.js';
import { memorySecretStore } from '../support/secrets.js';
import { createTerminal } from '../../src/terminal/terminal.js';
import { openTill, tempDir as newTempDir, type Till } from './helpers.js';

const REAL_KEY = 'real-key-5d1e77b0';
const ZVT_PASSWORD = '482916';

/** A sandbox that knows the demo terminal only by REAL_KEY, so the demo key signs nothing in. */
async function centralWithRealKey(dir: string): Promise<RunningCentral> {
  const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
  const terminal = central.store.terminal(DEMO.terminalId)!;
  central.store.putTerminal({ ...terminal, api_key_hash: hashApiKey(REAL_KEY) });
  return central;
}

let till: Till | undefined;
let central: RunningCentral | undefined;
const dirs: string[] = [];
const tempDir = () => {
  dirs.push(newTempDir());
  return dirs.at(-1)!;
};
afterEach(async () => {
  await till?.close();
  await central?.close();
  till = central = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the terminal and its secret store', () => {
  it('signs in to the central service with the API key from the secret store', async () => {
    const dir = tempDir();
    central = await centralWithRealKey(dir);
    // openTill pulls once and expects it to succeed: only REAL_KEY can sign in.
    till = await openTill({
      dir,
      central,
      secrets: memorySecretStore({ 'central.api_key': REAL_KEY }),
    });
    expect((await till.terminal.sync.pull()).ok).toBe(true);
  });

  it('moves a key written in clear in config.json into DIR/secrets.json and logs no value', async () => {
    const dir = tempDir();
    central = await centralWithRealKey(dir);
    const file = join(dir, 'secrets.json');
    till = await openTill({
      dir,
      central,
      central_config: { api_key: REAL_KEY },
      secrets: createFileSecretStore(file),
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'central.api_key': REAL_KEY,
      'terminal.hash_key': expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const log = readFileSync(join(dir, 'logs', 'terminal.log'), 'utf8');
    expect(log).toMatch(/copied into the secret store.*"key":"central.api_key"/);
    expect(log).not.toContain(REAL_KEY);
  });

  it('registers the payment unit with the ZVT password from the secret store', async () => {
    till = await openTill({
      devices: { payment: { simulated: true, protocol: 'zvt' } },
      secrets: memorySecretStore({ 'devices.payment.zvt_password': ZVT_PASSWORD }),
    });
    const devices = till.terminal.devices!;
    expect((await devices.payment!.connect()).status).toBe('success');
    const sim = devices.simulators.payment as ZvtSimulator;
    const registration = sim.received.find((a) => a.cls === 0x06 && a.ins === 0x00)!;
    // The password is the first three bytes of a registration, in BCD.
    expect(Buffer.from(registration.data.subarray(0, 3)).toString('hex')).toBe(ZVT_PASSWORD);
  });

  it('signs in to the embedded sandbox with its demo key, whatever the store holds', async () => {
    const terminal = await createTerminal({
      dataDir: tempDir(),
      config: ConfigSchema.parse({}),
      secrets: memorySecretStore({ 'central.api_key': REAL_KEY }),
      log: nullLogger,
      startSync: false,
      embeddedCentral: startEmbeddedCentral,
    });
    try {
      expect((await terminal.sync.pull()).ok).toBe(true);
    } finally {
      await terminal.close();
    }
  });
});
