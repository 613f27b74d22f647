// The browser kiosk's files: the renderer's build (renderer/dist) served read-only with a
// strict Content-Security-Policy, or a placeholder page while the renderer is not built.
// Paths never leave the root: `..`, NUL and symlinks out of it are refused.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, relative, resolve, sep, isAbsolute } from 'node:path';

/** Only our own origin, no inline code, no frames, no plugins. */
export const AGENT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentType(file: string): string {
  return types[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** No inline script or style, so the CSP above holds for it too. */
export const PLACEHOLDER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Loyalty Terminal</title>
</head>
<body>
<h1>Loyalty Terminal</h1>
<p>The terminal agent is running. Its screen (renderer/dist) is not built yet.</p>
<p>The local API answers at <code>/api/status</code> and <code>POST /api/commands/NAME</code>
(docs/agent-api.yaml).</p>
</body>
</html>
`;

type StaticFile = { kind: 'file'; path: string } | { kind: 'placeholder' } | { kind: 'none' };

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

/**
 * Which file answers `pathname`: the file itself, else (for a path without an extension,
 * a client-side route) index.html, else the placeholder when there is no build at all.
 */
export async function resolveStatic(rootDir: string | null, pathname: string): Promise<StaticFile> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'none' };
  }
  if (decoded.includes('\0') || decoded.split(/[/\\]/).includes('..')) return { kind: 'none' };
  const route = extname(decoded) === '';
  const root = rootDir === null ? null : resolve(rootDir);
  const index = root === null ? null : join(root, 'index.html');
  if (root === null || index === null || !(await isFile(index))) {
    return route ? { kind: 'placeholder' } : { kind: 'none' };
  }
  const wanted = resolve(root, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  if (inside(root, wanted) && (await isFile(wanted))) {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(wanted)]);
    if (inside(realRoot, realFile)) return { kind: 'file', path: realFile };
    return { kind: 'none' };
  }
  return route ? { kind: 'file', path: index } : { kind: 'none' };
}

export function securityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export function sendStatic(res: ServerResponse, found: StaticFile, head: boolean): void {
  res.setHeader('Content-Security-Policy', AGENT_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  if (found.kind === 'placeholder') {
    res.writeHead(200, { 'Content-Type': types['.html']!, 'Cache-Control': 'no-store' });
    res.end(head ? undefined : PLACEHOLDER_HTML);
    return;
  }
  if (found.kind !== 'file') throw new Error('sendStatic needs a file');
  res.writeHead(200, { 'Content-Type': contentType(found.path), 'Cache-Control': 'no-cache' });
  if (head) {
    res.end();
    return;
  }
  createReadStream(found.path)
    .on('error', () => res.destroy())
    .pipe(res);
}
