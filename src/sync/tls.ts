// HTTPS to the central service (docs/sync.md, "HTTPS, pinning and proxies"): the system's
// CAs unless a CA bundle is configured, and optional pins of the server's public key (SPKI
// SHA-256, base64 as in HPKP; several for a rotation). A TLS failure gets a stable code and
// is not retried at network pace: the gate fails every call fast until the retry interval
// has passed, then lets the next one try the handshake again.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';

export interface TlsSettings {
  /** PEM file of the CAs to trust instead of the system's; null = the system's. */
  ca_file: string | null;
  /** base64 SHA-256 of a certificate's SubjectPublicKeyInfo; empty = no pinning. */
  pins: string[];
  /** After a TLS failure, calls fail fast this long before the handshake is tried again. */
  failed_retry_ms: number;
}

/** The stable codes of a TLS failure (the status bar and `sync status` show them). */
export type TlsCode =
  | 'tls-unknown-ca'
  | 'tls-expired'
  | 'tls-not-yet-valid'
  | 'tls-hostname-mismatch'
  | 'tls-pin-mismatch'
  | 'tls-ca-file-unreadable'
  | 'tls-handshake-failed';

export interface TlsFailure {
  kind: 'network';
  code: TlsCode;
  message: string;
  retryable: true;
}

const PIN_ERROR = 'ERR_TLS_PIN_MISMATCH';

/** The pin of a certificate: base64 SHA-256 of its DER SubjectPublicKeyInfo. */
export function spkiPin(certDer: Buffer): string {
  const spki = new X509Certificate(certDer).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/** The chain as presented: the leaf, then each issuer (getPeerCertificate(true)). */
function chainOf(cert: PeerCertificate): Buffer[] {
  const out: Buffer[] = [];
  let c: PeerCertificate | undefined = cert;
  while (c?.raw && out.length < 10) {
    out.push(c.raw);
    const next: PeerCertificate | undefined = (c as { issuerCertificate?: PeerCertificate })
      .issuerCertificate;
    if (!next || next === c) break;
    c = next;
  }
  return out;
}

/** The TLS options of every connection to the central service (undici `connect`). */
export function tlsConnectOptions(s: TlsSettings): {
  ca?: string;
  checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined;
} {
  const options: ReturnType<typeof tlsConnectOptions> = {};
  // Read once at start: a missing file is refused then, not at every handshake.
  if (s.ca_file !== null) options.ca = readFileSync(s.ca_file, 'utf8');
  if (s.pins.length > 0) {
    const pins = new Set(s.pins);
    options.checkServerIdentity = (host, cert) => {
      const wrongHost = checkServerIdentity(host, cert);
      if (wrongHost) return wrongHost;
      // As HPKP: a pin may name any key of the chain (the leaf's, or an intermediate's).
      if (chainOf(cert).some((der) => pins.has(spkiPin(der)))) return undefined;
      return Object.assign(
        new Error(`the server's public key (${spkiPin(cert.raw)}) matches no configured pin`),
        { code: PIN_ERROR },
      );
    };
  }
  return options;
}

const CODES: Record<string, TlsCode> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls-unknown-ca',
  UNABLE_TO_GET_ISSUER_CERT: 'tls-unknown-ca',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls-unknown-ca',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls-unknown-ca',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls-unknown-ca',
  CERT_UNTRUSTED: 'tls-unknown-ca',
  CERT_HAS_EXPIRED: 'tls-expired',
  CERT_NOT_YET_VALID: 'tls-not-yet-valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls-hostname-mismatch',
  [PIN_ERROR]: 'tls-pin-mismatch',
};

const WORDS: Record<TlsCode, string> = {
  'tls-unknown-ca': "the central service's certificate is not signed by a trusted authority",
  'tls-expired': "the central service's certificate has expired",
  'tls-not-yet-valid': "the central service's certificate is not valid yet",
  'tls-hostname-mismatch': "the central service's certificate is for another name",
  'tls-pin-mismatch': "the central service's key is not one of the pinned keys",
  'tls-ca-file-unreadable': 'the configured CA bundle cannot be read',
  'tls-handshake-failed': 'the secure connection to the central service failed',
};

export function tlsFailure(code: TlsCode, detail: string): TlsFailure {
  return { kind: 'network', code, message: `${WORDS[code]} (${detail})`, retryable: true };
}

/** A TLS failure when the error (or its cause, through a proxy) is one; else null. */
export function classifyTls(err: unknown): TlsFailure | null {
  for (
    let e = err as { code?: unknown; message?: string; cause?: unknown } | undefined, i = 0;
    e && i < 4;
    i++
  ) {
    const code = typeof e.code === 'string' ? CODES[e.code] : undefined;
    if (code) return tlsFailure(code, `${String(e.code)}: ${e.message ?? ''}`);
    if (typeof e.code === 'string' && /^ERR_SSL_|^ERR_TLS_/.test(e.code))
      return tlsFailure('tls-handshake-failed', `${e.code}: ${e.message ?? ''}`);
    e = e.cause as typeof e;
  }
  return null;
}

export const isTlsFailure = (f: { code: string }): boolean => f.code.startsWith('tls-');

/**
 * Fails calls fast after a TLS failure: a certificate problem does not mend in seconds, and
 * a handshake per queued sale would only hide it. One call tries again after the interval.
 */
export class TlsGate {
  private failure: TlsFailure | null = null;
  private until = 0;

  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(retryMs: number, now: () => number = Date.now) {
    this.retryMs = retryMs;
    this.now = now;
  }

  /** The failure to answer with instead of connecting, or null to go ahead. */
  blocked(): TlsFailure | null {
    if (this.failure === null || this.now() >= this.until) return null;
    return this.failure;
  }

  /** Every call's outcome: a TLS failure arms the gate, anything else opens it. */
  record(failure: { code: string } | null): void {
    if (failure !== null && isTlsFailure(failure)) {
      this.failure = failure as TlsFailure;
      this.until = this.now() + this.retryMs;
    } else if (this.until !== Infinity) {
      this.failure = null;
    }
  }

  /** A failure no retry can mend (the CA bundle cannot be read): every call answers with it. */
  fix(failure: TlsFailure): void {
    this.failure = failure;
    this.until = Infinity;
  }

  /** When the next handshake may be tried (ms), null when not blocked. */
  retryAt(): number | null {
    return this.blocked() && this.until !== Infinity ? this.until : null;
  }
}
