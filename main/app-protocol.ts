// The `app://terminal/...` scheme the window loads from: the renderer's build, read-only,
// every answer with the CSP header (a custom scheme instead of file://, Electron security 18).
import { readFile } from 'node:fs/promises';
import { contentType, PLACEHOLDER_HTML, resolveStatic } from '../src/agent/static.js';
import { APP_HOST } from './channels.js';
import { ELECTRON_CSP } from './window-options.js';

const headers = (type: string) => ({
  'Content-Type': type,
  'Content-Security-Policy': ELECTRON_CSP,
  'X-Content-Type-Options': 'nosniff',
});

export async function appResponse(rawUrl: string, rendererDir: string): Promise<Response> {
  const url = new URL(rawUrl);
  if (url.host !== APP_HOST)
    return new Response('not found', { status: 404, headers: headers('text/plain') });
  const found = await resolveStatic(rendererDir, url.pathname);
  if (found.kind === 'placeholder') {
    return new Response(PLACEHOLDER_HTML, {
      status: 200,
      headers: headers('text/html; charset=utf-8'),
    });
  }
  if (found.kind === 'none')
    return new Response('not found', { status: 404, headers: headers('text/plain') });
  return new Response(await readFile(found.path), {
    status: 200,
    headers: headers(contentType(found.path)),
  });
}
