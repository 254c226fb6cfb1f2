import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { ManualClock, RealClock } from '../clock.js';
import { ConnectionPool, type ConnectionPoolOptions, type PoolRequest } from './connection-pool.js';
import { selfSignedCertificate } from './tls.test-support.js';

const GET: PoolRequest = { method: 'GET', headers: {}, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 };

function poolOptions(extra: Partial<ConnectionPoolOptions> = {}): ConnectionPoolOptions {
  return {
    connectTimeoutMs: 5_000,
    tlsHandshakeTimeoutMs: 5_000,
    keepAliveInitialDelayMs: 30_000,
    idleTimeoutMs: 30_000,
    tls: { rejectUnauthorized: true },
    clock: new RealClock(),
    ...extra,
  };
}

/** Listens on loopback; counts connections; closes everything after the test. */
async function listen(
  t: TestContext,
  server: Server,
): Promise<{ url: string; port: number; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, connections: () => connections };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
  });
}

void test('keeps connections alive across requests and sends bodies with their length, DELETE too', async (t) => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      seen.push(`${req.method} ${req.url} ${req.headers['content-length'] ?? '-'} ${body}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, method: req.method }));
    });
  });
  const { url, connections } = await listen(t, server);
  const pool = new ConnectionPool(poolOptions());
  t.after(() => pool.close());
  const first = await pool.request(new URL(`${url}/a?x=1`), GET);
  assert.equal(first.statusCode, 200);
  assert.equal(first.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(await first.body.text()), { ok: true, method: 'GET' });
  const del = await pool.request(new URL(`${url}/b`), { ...GET, method: 'DELETE', body: '{"gracePeriodSeconds":0}' });
  assert.equal(await del.body.text(), '{"ok":true,"method":"DELETE"}');
  assert.deepEqual(seen, ['GET /a?x=1 - ', 'DELETE /b 24 {"gracePeriodSeconds":0}']);
  assert.equal(connections(), 1, 'the second request reused the connection');
});

void test('a GET on a pooled connection the server dropped goes again on a new one; a POST fails', async (t) => {
  // Each connection serves one request; a second one on it is dropped unanswered.
  const served = new WeakSet<Socket>();
  const server = createServer((req, res) => {
    if (served.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    res.end(`${req.method} ok`);
  });
  const { url, connections } = await listen(t, server);
  const pool = new ConnectionPool(poolOptions());
  t.after(() => pool.close());
  assert.equal(await (await pool.request(new URL(url), GET)).body.text(), 'GET ok');
  assert.equal(await (await pool.request(new URL(url), GET)).body.text(), 'GET ok');
  assert.equal(connections(), 2, 'the GET went again on a second connection');
  await assert.rejects(pool.request(new URL(url), { ...GET, method: 'POST', body: '{}' }), { code: 'ECONNRESET' });
});

void test('no response headers within the limit is HEADERS_TIMEOUT, on the pool clock', async (t) => {
  const server = createServer(() => {
    /* never answers */
  });
  const { url } = await listen(t, server);
  const clock = new ManualClock(0);
  const pool = new ConnectionPool(poolOptions({ clock }));
  t.after(() => pool.close());
  const pending = pool.request(new URL(`${url}/slow`), { ...GET, headersTimeoutMs: 2_000 });
  const outcome = pending.then(
    () => 'answered',
    (err: Error & { code?: string }) => err.code,
  );
  await new Promise((r) => setTimeout(r, 50));
  await clock.advance(1_999);
  await clock.advance(1);
  assert.equal(await outcome, 'HEADERS_TIMEOUT');
});

void test('a body that falls silent while read whole is BODY_TIMEOUT; a streamed body ends when the caller aborts', async (t) => {
  let stall: ServerResponse | undefined;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"items":[');
    stall = res;
  });
  const { url } = await listen(t, server);
  const clock = new ManualClock(0);
  const pool = new ConnectionPool(poolOptions({ clock }));
  t.after(() => pool.close());
  const res = await pool.request(new URL(`${url}/list`), { ...GET, bodyTimeoutMs: 3_000 });
  const text = res.body.text().then(
    () => 'complete',
    (err: Error & { code?: string }) => err.code,
  );
  await new Promise((r) => setTimeout(r, 50));
  await clock.advance(3_000);
  assert.equal(await text, 'BODY_TIMEOUT');

  const abort = new AbortController();
  const watch = await pool.request(new URL(`${url}/watch`), { ...GET, signal: abort.signal, bodyTimeoutMs: 0 });
  const chunks: string[] = [];
  const done = (async () => {
    try {
      for await (const chunk of watch.body) {
        chunks.push(chunk.toString());
        stall?.write('{"type":"ADDED"}\n');
      }
      return 'ended';
    } catch (err) {
      return (err as Error).name;
    }
  })();
  await new Promise((r) => setTimeout(r, 100));
  abort.abort();
  assert.equal(await done, 'AbortError');
  assert.ok(chunks.length >= 1, 'chunks arrived before the abort');
});

void test('https through a proxy: CONNECT with Proxy-Authorization, then TLS with the target inside the tunnel', async (t) => {
  const cert = await selfSignedCertificate();
  const target = createHttpsServer({ cert: cert.cert, key: cert.key }, (req, res) => res.end(`secure ${req.url}`));
  const { port: targetPort } = await listen(t, target);
  const connects: string[] = [];
  const proxyServer = createServer((req, res) => {
    connects.push(`${req.method} ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
    res.end('plain via proxy');
  });
  proxyServer.on('connect', (req: IncomingMessage, socket: Socket) => {
    connects.push(`CONNECT ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
    if (req.url === `127.0.0.1:${targetPort}`) {
      const upstream = tcpConnect(targetPort, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    } else socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  const proxy = await listen(t, proxyServer);
  const pool = new ConnectionPool(
    poolOptions({
      proxy: new URL(`http://ops:s%40cret@127.0.0.1:${proxy.port}`),
      tls: { ca: cert.cert, rejectUnauthorized: true },
    }),
  );
  t.after(() => pool.close());
  const basic = `Basic ${Buffer.from('ops:s@cret').toString('base64')}`;

  const secure = await pool.request(new URL(`https://127.0.0.1:${targetPort}/graph?channel=stable-4.16`), GET);
  assert.equal(await secure.body.text(), 'secure /graph?channel=stable-4.16');
  const plain = await pool.request(new URL('http://api.example.test:8080/v1/x'), GET);
  assert.equal(await plain.body.text(), 'plain via proxy');
  await assert.rejects(
    pool.request(new URL('https://blocked.example.test/'), GET),
    /proxy refused CONNECT blocked\.example\.test:443: 403/,
  );
  assert.deepEqual(connects, [
    `CONNECT 127.0.0.1:${targetPort} ${basic}`,
    `GET http://api.example.test:8080/v1/x ${basic}`,
    `CONNECT blocked.example.test:443 ${basic}`,
  ]);
});

void test('a closed pool refuses new requests and lets its idle connections go', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  let closed = 0;
  server.on('connection', (s: Socket) => s.on('close', () => closed++));
  const { url } = await listen(t, server);
  const pool = new ConnectionPool(poolOptions());
  assert.equal(await (await pool.request(new URL(url), GET)).body.text(), 'ok');
  await pool.close();
  await assert.rejects(pool.request(new URL(url), GET), /the connection pool is closed/);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(closed, 1, 'the idle connection was closed');
});
