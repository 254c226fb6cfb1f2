import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../lib/clock.js';
import { createConnector, type Connector } from './connector.js';

/** Go's limits: 30 s to connect, 10 s for the TLS handshake. */
function goConnector(clock: ManualClock): Connector {
  return createConnector({
    connectTimeoutMs: 30_000,
    tlsHandshakeTimeoutMs: 10_000,
    keepAliveInitialDelayMs: 30_000,
    tls: { rejectUnauthorized: true },
    clock,
  });
}

/** A TCP server that accepts connections and never says a word (a stalled TLS peer). */
async function silentServer(t: {
  after(fn: () => Promise<void> | void): void;
}): Promise<{ port: number; connected: Promise<void> }> {
  const sockets: Socket[] = [];
  let onConnect!: () => void;
  const connected = new Promise<void>((r) => (onConnect = r));
  const server = createServer((s) => {
    sockets.push(s);
    onConnect();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return { port: (server.address() as AddressInfo).port, connected };
}

void test('the TLS handshake has its own limit, counted from the TCP connection (Go: TLSHandshakeTimeout 10 s)', async (t) => {
  const { port, connected } = await silentServer(t);
  const clock = new ManualClock(0);
  const connector = goConnector(clock);
  const results: Array<Error | null> = [];
  connector({ host: '127.0.0.1', tls: true, port }, (err, socket) => {
    results.push(err);
    socket?.destroy();
  });
  await connected;
  await clock.advance(9_999);
  assert.deepEqual(results, [], 'still shaking hands');
  await clock.advance(1);
  const err = results[0] as (Error & { code?: string }) | undefined;
  assert.equal(err?.code, 'TLS_HANDSHAKE_TIMEOUT');
  assert.match(err.message, /TLS handshake timeout/);
});

void test('plain TCP connects and hands over the socket; a refused connection is an error at once', async (t) => {
  const { port, connected } = await silentServer(t);
  const clock = new ManualClock(0);
  const connector = goConnector(clock);
  const socket = await new Promise<Socket>((resolve, reject) =>
    connector({ host: '127.0.0.1', tls: false, port }, (err, s) =>
      err || !s ? reject(err ?? new Error('no socket')) : resolve(s),
    ),
  );
  await connected;
  assert.equal(socket.remotePort, port);
  socket.destroy();
  const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
    connector({ host: '127.0.0.1', tls: false, port: 9 }, (err, s) => {
      s?.destroy();
      resolve(err);
    }),
  );
  assert.match(String(refused?.code), /ECONNREFUSED/);
});
