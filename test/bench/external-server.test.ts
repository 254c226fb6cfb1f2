import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { selfSignedCertificate } from '../../src/lib/http/tls.test-support.js';
import { ManualClock } from '../../src/lib/clock.js';
import { connectExternal, deleteExternalNamespace, describeRefusal, expandHome } from './external-server.js';

const clock = new ManualClock(Date.UTC(2026, 0, 1));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function json(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A kubeconfig with one context, written to a temporary folder (removed by the caller). */
function kubeconfig(dir: string, cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  const path = join(dir, 'config');
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  return path;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Answers like an API server that lets everything through, recording what it was asked. */
function permissive(seen: string[]): Handler {
  return (req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? '-'}`);
    if (req.url === '/version') return json(res, 200, { gitVersion: 'v1.31.0-test' });
    if (req.method === 'POST') return json(res, 201, {});
    return json(res, 200, {});
  };
}

test('a kubeconfig that cannot be read is one line naming the file', async () => {
  const err = await connectExternal('/nonexistent/kubeconfig', clock).catch((e: unknown) => e as Error);
  assert.ok(err instanceof Error);
  assert.match(
    err.message,
    /^kubeconfig \/nonexistent\/kubeconfig: error loading config file "\/nonexistent\/kubeconfig": ENOENT/,
  );
  assert.doesNotMatch(err.message, /\n/);
});

test('a server that does not answer is one line naming it', async () => {
  const probe = createHttpServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  const dir = mkdtempSync(join(tmpdir(), 'bench-kc-'));
  try {
    const path = kubeconfig(dir, { server: `http://127.0.0.1:${port}` }, {});
    const err = await connectExternal(path, clock).catch((e: unknown) => e as Error);
    assert.ok(err instanceof Error);
    assert.match(err.message, new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    assert.doesNotMatch(err.message, /\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('401 and 403 say what the credentials lack; the bearer token is sent', async () => {
  const seen: string[] = [];
  let mode: 401 | 403 = 401;
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? '-'}`);
    if (mode === 401) return json(res, 401, { kind: 'Status', message: 'Unauthorized', code: 401 });
    if (req.url === '/version') return json(res, 200, { gitVersion: 'v1.31.0' });
    return json(res, 403, {
      kind: 'Status',
      message: 'namespaces is forbidden: User "bench" cannot create resource "namespaces"',
      code: 403,
    });
  });
  const port = await listen(server);
  const dir = mkdtempSync(join(tmpdir(), 'bench-kc-'));
  try {
    const path = kubeconfig(dir, { server: `http://127.0.0.1:${port}` }, { token: 'bad-token' });
    const unauthorized = await connectExternal(path, clock).catch((e: unknown) => e as Error);
    assert.ok(unauthorized instanceof Error);
    assert.equal(
      unauthorized.message,
      `GET http://127.0.0.1:${port}/version: the server rejected the kubeconfig's credentials (401 Unauthorized): Unauthorized`,
    );
    assert.deepEqual(seen, ['GET /version Bearer bad-token']);
    mode = 403;
    const forbidden = await connectExternal(path, clock).catch((e: unknown) => e as Error);
    assert.ok(forbidden instanceof Error);
    assert.match(
      forbidden.message,
      /^creating the namespace upgrade-operator-bench-\w+: the credentials may not do it \(403 Forbidden\); the benchmarks need to create and delete a namespace and the ConfigMaps in it: namespaces is forbidden: User "bench" cannot create resource "namespaces"$/,
    );
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TLS: the CA file and the client certificate of the kubeconfig are used; an unknown CA is refused', async () => {
  const [serving, client] = await Promise.all([
    selfSignedCertificate('127.0.0.1'),
    selfSignedCertificate('bench-user'),
  ]);
  const seen: string[] = [];
  const inner = permissive(seen);
  const server = createHttpsServer(
    { cert: serving.cert, key: serving.key, ca: client.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      seen.push(`client ${String((req.socket as TLSSocket).getPeerCertificate().subject.CN)}`);
      inner(req, res);
    },
  );
  const port = await listen(server);
  const dir = mkdtempSync(join(tmpdir(), 'bench-kc-'));
  try {
    writeFileSync(join(dir, 'ca.crt'), serving.cert);
    const path = kubeconfig(
      dir,
      { server: `https://127.0.0.1:${port}`, 'certificate-authority': 'ca.crt' },
      {
        'client-certificate-data': Buffer.from(client.cert).toString('base64'),
        'client-key-data': Buffer.from(client.key).toString('base64'),
      },
    );
    const ext = await connectExternal(path, clock);
    assert.equal(ext.version, 'v1.31.0-test');
    assert.match(ext.namespace, /^upgrade-operator-bench-[0-9a-z]+$/);
    assert.equal(await deleteExternalNamespace(ext), undefined);
    assert.deepEqual(seen, [
      'client bench-user',
      'GET /version -',
      'client bench-user',
      'POST /api/v1/namespaces -',
      'client bench-user',
      `DELETE /api/v1/namespaces/${ext.namespace} -`,
    ]);
    const noCa = kubeconfig(dir, { server: `https://127.0.0.1:${port}` }, {});
    const err = await connectExternal(noCa, clock).catch((e: unknown) => e as Error);
    assert.ok(err instanceof Error);
    assert.match(err.message, new RegExp(`^cannot reach https://127\\.0\\.0\\.1:${port}: .*certificate`));
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('insecure-skip-tls-verify connects without a CA', async () => {
  const serving = await selfSignedCertificate('127.0.0.1');
  const seen: string[] = [];
  const server = createHttpsServer({ cert: serving.cert, key: serving.key }, permissive(seen));
  const port = await listen(server);
  const dir = mkdtempSync(join(tmpdir(), 'bench-kc-'));
  try {
    const path = kubeconfig(
      dir,
      { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true },
      { token: 't' },
    );
    const ext = await connectExternal(path, clock);
    assert.equal(ext.target.url, `https://127.0.0.1:${port}`);
    assert.deepEqual(seen, ['GET /version Bearer t', 'POST /api/v1/namespaces Bearer t']);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('helpers: ~ expansion and a refusal that is not a Status', () => {
  assert.equal(expandHome('~/.kube/config', '/home/sre'), '/home/sre/.kube/config');
  assert.equal(expandHome('/etc/kubeconfig', '/home/sre'), '/etc/kubeconfig');
  assert.equal(
    describeRefusal('GET /version', { statusCode: 502, text: '<html>\n bad gateway </html>' }),
    'GET /version: HTTP 502: <html> bad gateway </html>',
  );
});
