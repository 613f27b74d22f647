// electron-builder.yml against electron-builder's own JSON schema (app-builder-lib's
// scheme.json), plus what the project needs of it. ajv and js-yaml come with
// electron-builder; they are loaded from its dependency tree.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const schema = JSON.parse(
  readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'),
) as object;
const config = yaml.load(
  readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8'),
) as Record<string, unknown>;

describe('electron-builder.yml', () => {
  it("holds to electron-builder's own schema", () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('rejects a key the schema does not know (the check bites)', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate({ ...config, nsiss: {} })).toBe(false);
  });

  it('builds nsis for Windows and AppImage and deb for Linux', () => {
    expect(config.win).toMatchObject({ target: 'nsis' });
    expect(config.linux).toMatchObject({ target: ['AppImage', 'deb'] });
  });

  it('rebuilds no native module and keeps them out of the asar', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(['node_modules/better-sqlite3/**/*', '**/*.node']),
    );
  });

  it('ships the migrations as resources', () => {
    expect(config.extraResources).toEqual(
      expect.arrayContaining([expect.objectContaining({ from: 'migrations', to: 'migrations' })]),
    );
  });

  it('packs the main process, the core and the renderer', () => {
    expect(config.files).toEqual(
      expect.arrayContaining(['dist/main/**/*', 'dist/src/**/*', 'renderer/dist/**/*']),
    );
  });

  it('turns off the fuses that let a shipped build run as plain Node', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
    });
  });
});
