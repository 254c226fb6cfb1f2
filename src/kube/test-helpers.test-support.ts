/** Test support: waiting for a condition while a ManualClock is optionally moved along; a pausable TCP proxy. */
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { SeededRandom } from '../lib/random.js';
import { KubeClient } from './client.js';
import type { RestConfig } from './rest-config.js';
import { startFakeApi, type FakeApi } from './fake-api.test-support.js';

/** Untyped JSON, for assertions on raw server objects. */
export type Loose = ReturnType<typeof JSON.parse>;

/** Waits (real time, at most `limitMs`) until cond() holds; with a clock, advances it by `stepMs` between checks. */
export async function eventually(
  cond: () => boolean,
  options: { clock?: ManualClock; stepMs?: number; limitMs?: number; what?: string } = {},
): Promise<void> {
  const end = performance.now() + (options.limitMs ?? 5000);
  while (!cond()) {
    if (performance.now() > end) throw new Error(`condition not met in time${options.what ? `: ${options.what}` : ''}`);
    if (options.clock) await options.clock.advance(options.stepMs ?? 100);
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
  }
}

/** A client on a plain-HTTP test server. */
export function testClient(url: string, clock: ManualClock, extra: Partial<RestConfig> = {}): KubeClient {
  const config: RestConfig = {
    server: url,
    insecureSkipTLSVerify: false,
    auth: () => Promise.resolve(undefined),
    namespace: 'default',
    ...extra,
  };
  return new KubeClient({ config, clock, logger: silentLogger() });
}

/** A fake API server, a ManualClock and a client on it, all closed when the test ends. */
export async function fakeApiFixture(
  t: TestContext,
): Promise<{ api: FakeApi; clock: ManualClock; client: KubeClient }> {
  const api = await startFakeApi();
  const clock = new ManualClock();
  const client = testClient(api.url, clock);
  t.after(async () => {
    await client.close();
    await api.close();
  });
  return { api, clock, client };
}

export const testRandom = (): SeededRandom => new SeededRandom(42);

export interface Proxy {
  url: string;
  /** Cuts every connection and refuses new ones until resume(). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `target` (host:port) that can cut connections. */
export async function startProxy(target: URL): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let paused = false;
  const server = createServer((client) => {
    if (paused) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pause: () => {
      paused = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    resume: () => {
      paused = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
