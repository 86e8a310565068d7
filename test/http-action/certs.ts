// Test certificates: a CA and a server certificate for 127.0.0.1/localhost signed by it. node:crypto
// cannot create X.509 certificates and no generator package (e.g. `selfsigned`) is installed, so
// this uses the openssl CLI; `opensslMissing` says why TLS tests skip when it is not on PATH.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts { caPem: string; otherCaPem: string; key: string; cert: string }

export const opensslMissing: string | undefined = (() => {
  try { execFileSync('openssl', ['version'], { stdio: 'ignore' }); return undefined; } catch { return 'openssl CLI not found: TLS tests need it (or the `selfsigned` package) to make certificates'; }
})();

export function makeCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'pw-certs-'));
  const f = (n: string) => join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    for (const ca of ['ca', 'other']) {
      ssl('req', '-x509', ...ec, '-keyout', f(`${ca}.key`), '-out', f(`${ca}.pem`), '-days', '2', '-subj', `/CN=pipewright test ${ca}`,
        '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
    }
    ssl('req', '-new', ...ec, '-keyout', f('srv.key'), '-out', f('srv.csr'), '-subj', '/CN=localhost');
    writeFileSync(f('ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    ssl('x509', '-req', '-in', f('srv.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('srv.pem'), '-days', '2', '-extfile', f('ext'));
    const read = (n: string) => readFileSync(f(n), 'utf8');
    return { caPem: read('ca.pem'), otherCaPem: read('other.pem'), key: read('srv.key'), cert: read('srv.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
