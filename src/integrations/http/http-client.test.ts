import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { ActivityCounter } from '../../lib/activity.js';
import { ManualClock, flushMicrotasks } from '../../lib/clock.js';
import { IntegrationError } from '../integration-error.js';
import { caBundle, splitPemCertificates } from './ca-bundle.js';
import { HttpClient, bodyExcerpt, type HttpClientOptions } from './http-client.js';
import { NO_PROXY_CONFIG, proxyConfigFromEnv } from './proxy-env.js';
import { selfSignedCertificate } from '../../lib/http/tls.test-support.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: 'http' | 'https', seen: Seen[]): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function recording(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  seen: Seen[],
): RequestListener {
  return (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  };
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const seen: Seen[] = [];
  return listen(createServer(recording(handler, seen)), 'http', seen);
}

function reply(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function withClient(
  options: Partial<HttpClientOptions> & { baseUrl: string },
  fn: (client: HttpClient) => Promise<void>,
): Promise<void> {
  const client = new HttpClient({ api: 'test', proxy: NO_PROXY_CONFIG, ...options });
  try {
    await fn(client);
  } finally {
    await client.close();
  }
}

async function failure(p: Promise<unknown>): Promise<IntegrationError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof IntegrationError, `expected an IntegrationError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a failure');
}

test('sends JSON with the user agent, a static bearer token, query parameters and a base path', async () => {
  const server = await serve((_req, res) => reply(res, 200, '{"ok":true}'));
  try {
    await withClient(
      {
        baseUrl: `${server.url}/prefix/`,
        bearerToken: 'sekret',
        userAgent: 'upgrade-operator/1.2.3',
        headers: { 'X-Extra': 'yes' },
      },
      async (client) => {
        const body = await client.json({
          method: 'POST',
          path: '/api/v2/silences',
          query: { a: '1 2', skip: undefined, b: 'x&y' },
          json: { hello: 'world' },
        });
        assert.deepEqual(body, { ok: true });
      },
    );
    const [seen] = server.seen;
    assert.ok(seen);
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/prefix/api/v2/silences?a=1+2&b=x%26y');
    assert.equal(seen.headers['user-agent'], 'upgrade-operator/1.2.3');
    assert.equal(seen.headers['authorization'], 'Bearer sekret');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers['accept'], 'application/json');
    assert.equal(seen.headers['x-extra'], 'yes');
    assert.deepEqual(JSON.parse(seen.body), { hello: 'world' });
  } finally {
    await server.close();
  }
});

test('a token function is asked before every request (a rotated token file is picked up)', async () => {
  const server = await serve((_req, res) => reply(res, 200, '{}'));
  let n = 0;
  try {
    await withClient({ baseUrl: server.url, bearerToken: () => `token-${++n}\n` }, async (client) => {
      await client.json({ path: '/a' });
      await client.json({ path: '/b' });
    });
    assert.deepEqual(
      server.seen.map((s) => s.headers['authorization']),
      ['Bearer token-1', 'Bearer token-2'],
    );
  } finally {
    await server.close();
  }
  await withClient(
    { baseUrl: server.url, bearerToken: () => Promise.reject(new Error('ENOENT: token')) },
    async (client) => {
      const err = await failure(client.json({ path: '/c' }));
      assert.equal(err.reason, 'Unreachable');
      assert.match(err.message, /reading the bearer token: ENOENT/);
    },
  );
});

test('an error status becomes HttpStatus with the status and a short excerpt of the body', async () => {
  const long = `oops ${'x'.repeat(500)}`;
  const server = await serve((req, res) =>
    req.url === '/long'
      ? reply(res, 500, long, 'text/plain')
      : reply(res, 403, 'forbidden:\n  no   access\n', 'text/plain'),
  );
  try {
    await withClient({ baseUrl: server.url }, async (client) => {
      const err = await failure(client.json({ path: '/x' }));
      assert.equal(err.reason, 'HttpStatus');
      assert.equal(err.status, 403);
      assert.equal(err.api, 'test');
      assert.equal(err.message, `test: GET ${server.url}/x: HTTP 403 Forbidden: forbidden: no access`);
      const big = await failure(client.request({ path: '/long' }));
      assert.equal(big.status, 500);
      assert.ok(big.message.length < 320, big.message);
      assert.ok(big.message.endsWith('…'));
      const accepted = await client.request({ path: '/x', acceptErrorStatus: true });
      assert.equal(accepted.status, 403);
    });
  } finally {
    await server.close();
  }
});

test('a body that is not JSON is BadResponse', async () => {
  const server = await serve((_req, res) => reply(res, 200, '<html>login</html>', 'text/html'));
  try {
    await withClient({ baseUrl: server.url }, async (client) => {
      const err = await failure(client.json({ path: '/' }));
      assert.equal(err.reason, 'BadResponse');
      assert.equal(err.status, 200);
      assert.match(err.message, /not JSON: <html>login<\/html>/);
    });
  } finally {
    await server.close();
  }
});

test('connection refused and reset are Unreachable', async () => {
  const closed = await serve(() => undefined);
  await closed.close();
  await withClient({ baseUrl: closed.url }, async (client) => {
    const err = await failure(client.json({ path: '/' }));
    assert.equal(err.reason, 'Unreachable');
    assert.match(err.message, /connection refused/);
  });
  const resetting = await serve((req) => req.socket.destroy());
  try {
    await withClient({ baseUrl: resetting.url }, async (client) => {
      assert.equal((await failure(client.json({ path: '/' }))).reason, 'Unreachable');
    });
  } finally {
    await resetting.close();
  }
});

test('no answer within the timeout (on the injected clock) is Timeout; activity is held meanwhile', async () => {
  const server = await serve(() => undefined); // never answers
  const clock = new ManualClock();
  const activity = new ActivityCounter();
  try {
    await withClient({ baseUrl: server.url, clock, activity, timeoutMs: 5_000 }, async (client) => {
      const pending = failure(client.json({ path: '/slow' }));
      while (server.seen.length === 0) await flushMicrotasks();
      assert.equal(activity.busy, 1);
      await clock.advance(4_999);
      assert.equal(activity.busy, 1);
      await clock.advance(1);
      const err = await pending;
      assert.equal(err.reason, 'Timeout');
      assert.match(err.message, /no answer within 5s/);
      assert.equal(activity.busy, 0);
    });
  } finally {
    await server.close();
  }
});

test('with releaseActivityAfterWallMs, a request held by the server stops counting as activity', async () => {
  const server = await serve(() => undefined);
  const clock = new ManualClock();
  const wallClock = new ManualClock();
  const activity = new ActivityCounter();
  try {
    await withClient(
      { baseUrl: server.url, clock, wallClock, activity, releaseActivityAfterWallMs: 2_000, timeoutMs: 60_000 },
      async (client) => {
        const pending = failure(client.json({ path: '/held' }));
        while (server.seen.length === 0) await flushMicrotasks();
        assert.equal(activity.busy, 1);
        await wallClock.advance(2_000);
        assert.equal(activity.busy, 0);
        // The virtual clock may now move on, and the request times out on it.
        await clock.advance(60_000);
        assert.equal((await pending).reason, 'Timeout');
        assert.equal(activity.busy, 0);
      },
    );
  } finally {
    await server.close();
  }
});

test("the caller's abort is Aborted, before or during the request", async () => {
  const server = await serve(() => undefined);
  try {
    await withClient({ baseUrl: server.url }, async (client) => {
      const before = new AbortController();
      before.abort();
      assert.equal((await failure(client.json({ path: '/', signal: before.signal }))).reason, 'Aborted');
      const during = new AbortController();
      const pending = failure(client.json({ path: '/', signal: during.signal }));
      while (server.seen.length === 0) await flushMicrotasks();
      during.abort();
      assert.equal((await pending).reason, 'Aborted');
    });
  } finally {
    await server.close();
  }
});

test('requests go through the proxy the environment names: absolute form for http, CONNECT for https', async () => {
  const seen: Seen[] = [];
  const connects: string[] = [];
  const proxyServer = createServer(recording((_req, res) => reply(res, 200, '{"via":"proxy"}'), seen));
  proxyServer.on('connect', (req: IncomingMessage, socket: Socket) => {
    connects.push(`${req.method} ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  const proxy = await listen(proxyServer, 'http', seen);
  try {
    const env = { HTTP_PROXY: proxy.url, https_proxy: proxy.url, NO_PROXY: '.internal' };
    const client = new HttpClient({ api: 'test', proxy: proxyConfigFromEnv(env) });
    try {
      assert.deepEqual(await client.json({ path: 'http://api.example.test:8080/v1/x?y=1' }), { via: 'proxy' });
      assert.equal(seen[0]?.url, 'http://api.example.test:8080/v1/x?y=1');
      assert.equal(seen[0]?.headers['host'], 'api.example.test:8080');
      const err = await failure(client.json({ path: 'https://secure.example.test/graph' }));
      assert.equal(err.reason, 'Unreachable');
      assert.deepEqual(connects, ['CONNECT secure.example.test:443']);
    } finally {
      await client.close();
    }
  } finally {
    await proxy.close();
  }
});

test('TLS: an unknown CA is Unreachable; the CA bundle or insecureSkipVerify make it work', async () => {
  const { cert, key } = await selfSignedCertificate();
  const seen: Seen[] = [];
  const server = await listen(
    createHttpsServer(
      { cert, key },
      recording((_req, res) => reply(res, 200, '{"tls":true}'), seen),
    ),
    'https',
    seen,
  );
  try {
    await withClient({ baseUrl: server.url }, async (client) => {
      const err = await failure(client.json({ path: '/' }));
      assert.equal(err.reason, 'Unreachable');
      assert.match(err.message, /certificate/i);
    });
    await withClient({ baseUrl: server.url, ca: `# service CA\n${cert}` }, async (client) => {
      assert.deepEqual(await client.json({ path: '/' }), { tls: true });
    });
    await withClient({ baseUrl: server.url, insecureSkipVerify: true }, async (client) => {
      assert.deepEqual(await client.json({ path: '/' }), { tls: true });
    });
  } finally {
    await server.close();
  }
});

test('caBundle adds certificates to the system roots and rejects broken ones', async () => {
  const { cert } = await selfSignedCertificate();
  assert.equal(caBundle(undefined), undefined);
  assert.equal(caBundle([]), undefined);
  const bundle = caBundle([cert, `${cert}\n${cert}`]);
  assert.ok(bundle && bundle.length > 3);
  assert.equal(bundle.filter((c) => c.trim() === cert.trim()).length, 3);
  assert.equal(splitPemCertificates(`junk\n${cert}\nmore junk`).length, 1);
  assert.throws(() => caBundle('no certificate here'), /no PEM certificate/);
  assert.throws(
    () => splitPemCertificates('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'),
    /certificate 1 does not parse/,
  );
});

test('bodyExcerpt collapses whitespace and cuts long bodies', () => {
  assert.equal(bodyExcerpt('  a\n\n b\t c  '), 'a b c');
  assert.equal(bodyExcerpt('abcdef', 3), 'abc…');
});

test('authScheme: the AccessToken credential of OCM; no token in any error message, even when the server echoes it', async () => {
  const secret = 'cluster-uuid:s3cr3t-pull-secret-token';
  const server = await serve((req, res) => {
    if (req.url === '/echo-part')
      return reply(res, 401, `{"reason":"Access token 's3cr3t-pull-secret-token' is invalid"}`);
    return reply(res, 403, `{"reason":"denied for ${req.headers['authorization'] ?? ''}"}`);
  });
  try {
    await withClient({ baseUrl: server.url, bearerToken: secret, authScheme: 'AccessToken' }, async (client) => {
      const whole = await failure(client.json({ path: '/echo' }));
      assert.equal(server.seen[0]?.headers['authorization'], `AccessToken ${secret}`);
      assert.equal(whole.status, 403);
      assert.doesNotMatch(whole.message, /s3cr3t/);
      assert.match(whole.message, /denied for AccessToken \[redacted\]/);
      const part = await failure(client.json({ path: '/echo-part' }));
      assert.doesNotMatch(part.message, /s3cr3t/);
      assert.match(part.message, /Access token '\[redacted\]' is invalid/);
      assert.equal(client.redact(`x ${secret} y`), 'x [redacted] y');
    });
  } finally {
    await server.close();
  }
});

test('tlsHandshakeTimeoutMs bounds the TLS handshake: a server that accepts and never answers is Timeout', async () => {
  const sockets: Socket[] = [];
  const silent = createNetServer((s) => void sockets.push(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  try {
    await withClient({ baseUrl: `https://127.0.0.1:${port}`, tlsHandshakeTimeoutMs: 150 }, async (client) => {
      const err = await failure(client.json({ path: '/never' }));
      assert.equal(err.reason, 'Timeout');
      assert.match(err.message, /TLS handshake not done within 150ms/);
    });
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});
