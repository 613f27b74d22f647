// Which HTTP(S) proxy the central service is reached through (docs/sync.md, "HTTPS, pinning
// and proxies"): `central.proxy.url` when configured, else HTTPS_PROXY (HTTP_PROXY for an
// http:// service), lower case too. NO_PROXY (or `central.proxy.no_proxy` beside a
// configured proxy) lists hosts reached directly; 127.0.0.1, ::1 and localhost are always
// direct with a proxy from the environment, never with a configured one (the operator asked).

export interface ProxySettings {
  /** http://host:port of the proxy; null = the environment's, if any. */
  url: string | null;
  /** Hosts reached directly with the configured proxy (NO_PROXY's syntax). */
  no_proxy: string[];
}

type Env = Record<string, string | undefined>;

const LOOPBACK = ['localhost', '127.0.0.1', '::1', '[::1]'];

/** NO_PROXY's syntax: host, .suffix or *.suffix, host:port, or `*` for everything. */
function bypassed(url: URL, list: string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return list.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '') return false;
    if (entry === '*') return true;
    // An IPv6 address has colons of its own: a port only after [brackets].
    const m =
      entry.split(':').length > 2 && !entry.startsWith('[')
        ? null
        : /^\[?(.*?)\]?(?::(\d+))?$/.exec(entry);
    const [name, p] = m ? [m[1]!.replace(/^\*?\./, '.'), m[2]] : [entry, undefined];
    if (p !== undefined && p !== port) return false;
    return name.startsWith('.') ? host.endsWith(name) || host === name.slice(1) : host === name;
  });
}

const envOf = (env: Env, name: string): string | undefined =>
  env[name] || env[name.toLowerCase()] || undefined;

/** The proxy's URL for the central service at BASE, or null to connect directly. */
export function proxyFor(base: string, s: ProxySettings, env: Env = process.env): string | null {
  const url = new URL(base);
  if (s.url !== null) return bypassed(url, s.no_proxy) ? null : s.url;
  const fromEnv = envOf(env, url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  if (!fromEnv) return null;
  const noProxy = (envOf(env, 'NO_PROXY') ?? '').split(',');
  return bypassed(url, [...LOOPBACK, ...noProxy]) ? null : fromEnv;
}
