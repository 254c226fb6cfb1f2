/**
 * A self-signed serving certificate for 127.0.0.1 (made with the `openssl` CLI), for tests of
 * CA bundles and TLS verification.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A certificate (which is its own CA) and its key, PEM. */
export interface TestCertificate {
  cert: string;
  key: string;
}

/** Makes a self-signed certificate for `CN=<cn>` with SAN IP:127.0.0.1 and DNS:localhost. */
export async function selfSignedCertificate(cn = 'upgrade-operator-test'): Promise<TestCertificate> {
  const dir = await mkdtemp(join(tmpdir(), 'tls-'));
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    return { cert: await readFile(join(dir, 'cert.pem'), 'utf8'), key: await readFile(join(dir, 'key.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
