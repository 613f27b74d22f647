// A certificate authority made at test time (the machine's openssl), its server certificate
// for 127.0.0.1, and a small CONNECT proxy on loopback that records what it was asked.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  /** PEM files. */
  caFile: string;
  otherCaFile: string;
  cert: string;
  key: string;
  certDer: Buffer;
  remove(): void;
}

const ssl = (dir: string, ...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

function makeCa(dir: string, name: string): void {
  ssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
}

/**
 * A CA, a leaf for SAN (default 127.0.0.1 and localhost) signed by it, and an unrelated CA.
 * `leafDays` -1 makes a leaf that expired a day ago (notAfter before now).
 */
export function makeTestPki(san = 'IP:127.0.0.1,DNS:localhost', leafDays = 2): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'lt-pki-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  ssl(
    dir,
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=central',
  );
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  ssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    String(leafDays),
    '-extfile',
    'ext.cnf',
    '-out',
    'server.pem',
  );
  const cert = readFileSync(join(dir, 'server.pem'), 'utf8');
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    cert,
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    certDer: ssl(dir, 'x509', '-in', 'server.pem', '-outform', 'DER'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestProxy {
  url: string;
  /** The CONNECT targets asked for, in order. */
  connects: string[];
  close(): Promise<void>;
}

/** An HTTP proxy that only tunnels (CONNECT), on 127.0.0.1. */
export async function startConnectProxy(): Promise<TestProxy> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
