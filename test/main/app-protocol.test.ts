import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appResponse } from '../../main/app-protocol.js';
import { ELECTRON_CSP } from '../../main/window-options.js';
import { tempDir } from '../agent/helpers.js';

describe('the app:// scheme', () => {
  it('serves the renderer files with the CSP header', async () => {
    const root = tempDir('lt-app-');
    writeFileSync(join(root, 'index.html'), '<title>t</title>');
    const res = await appResponse('app://terminal/', root);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(ELECTRON_CSP);
    expect(await res.text()).toBe('<title>t</title>');
  });

  it('answers 404 for another host', async () => {
    const root = tempDir('lt-app-');
    writeFileSync(join(root, 'index.html'), 'x');
    expect((await appResponse('app://elsewhere/index.html', root)).status).toBe(404);
  });

  it('shows the placeholder when the renderer is not built', async () => {
    const res = await appResponse('app://terminal/', join(tempDir('lt-app-'), 'missing'));
    expect(await res.text()).toContain('not built yet');
  });
});
