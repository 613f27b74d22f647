// The connections to the central service: a keep-alive pool, directly or through a proxy's
// CONNECT tunnel, with the TLS settings of src/sync/tls.ts on every handshake.
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { ClientTimeouts } from './client.js';
import { proxyFor, type ProxySettings } from './proxy.js';
import { tlsConnectOptions, tlsFailure, TlsGate, type TlsSettings } from './tls.js';

export interface TransportSettings {
  tls: TlsSettings;
  proxy: ProxySettings;
  /** The environment HTTPS_PROXY and NO_PROXY are read from (default: the process's). */
  env?: Record<string, string | undefined>;
  now?: () => number;
}

export const DEFAULT_TRANSPORT: TransportSettings = {
  tls: { ca_file: null, pins: [], failed_retry_ms: 600_000 },
  proxy: { url: null, no_proxy: [] },
};

export interface Transport {
  dispatcher: Dispatcher;
  gate: TlsGate;
  /** The proxy's URL, null = direct. */
  proxy: string | null;
}

export function openTransport(
  origin: string,
  s: TransportSettings,
  timeouts: ClientTimeouts,
  connections: number,
): Transport {
  const gate = new TlsGate(s.tls.failed_retry_ms, s.now);
  let tls: ReturnType<typeof tlsConnectOptions> = {};
  try {
    tls = tlsConnectOptions(s.tls);
  } catch (err) {
    gate.fix(tlsFailure('tls-ca-file-unreadable', `${s.tls.ca_file}: ${(err as Error).message}`));
  }
  const pool = {
    connections,
    connectTimeout: timeouts.connect_ms,
    headersTimeout: timeouts.headers_ms,
    bodyTimeout: timeouts.body_ms,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 60_000,
  };
  const proxy = proxyFor(origin, s.proxy, s.env);
  const dispatcher =
    proxy === null
      ? new Pool(origin, { ...pool, connect: { ...tls, timeout: timeouts.connect_ms } })
      : new ProxyAgent({ uri: proxy, ...pool, requestTls: tls, proxyTunnel: true });
  return { dispatcher, gate, proxy };
}
