/**
 * Test support for the OCM client, providers, notifier and UpgradeConfigManager: the simulated
 * OCM (and its agent) on loopback with one cluster, a small forwarding HTTP proxy, and a helper
 * that drives a virtual clock until a promise settles (for retries on the clock).
 */
import type { TestContext } from 'node:test';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import { SeededRandom } from '../lib/random.js';
import { SimOcm } from '../sim/ocm/sim-ocm.js';
import { VirtualClock } from '../sim/virtual-clock.js';

/** The cluster's own id (ClusterVersion.spec.clusterID). */
export const EXTERNAL_ID = '7b2c1e0a-1d3f-4a5b-9c8d-0e1f2a3b4c5d';
/** OCM's internal id of the cluster. */
export const OCM_CLUSTER_ID = '2a3b4c5d6e7f8g9h0i1j2k3l4m5n6o7p';
/** The pull-secret token OCM accepts. */
export const OCM_TOKEN = 'pull-secret-token-0123456789abcdef';

/** A running simulated OCM with one cluster (4.14.10, stable, 45-minute drain grace). */
export interface OcmFixture {
  ocm: SimOcm;
  url: string;
  /** The OCM agent of the cluster. */
  agentUrl: string;
}

/** Starts the simulated OCM and its agent on loopback; closed after the test. */
export async function startOcmFixture(t: TestContext, clock: Clock, activity?: ActivityTracker): Promise<OcmFixture> {
  const ocm = new SimOcm({ clock, random: new SeededRandom(7), auth: { tokens: [OCM_TOKEN] } });
  ocm.state.addCluster({
    id: OCM_CLUSTER_ID,
    externalId: EXTERNAL_ID,
    name: 'prod-1',
    version: '4.14.10',
    nodeDrainGracePeriod: { value: 45, unit: 'minutes' },
  });
  const server = await ocm.listen(activity ? { activity } : {});
  const agent = await ocm.listenAgent({ clusterId: OCM_CLUSTER_ID, ...(activity ? { activity } : {}) });
  t.after(async () => {
    await server.close();
    await agent.close();
  });
  return { ocm, url: server.url, agentUrl: agent.url };
}

/** A forwarding proxy: absolute-form requests are sent on to `target`, whatever host they name. */
export interface ForwardingProxy {
  url: string;
  /** The absolute-form targets seen, in order. */
  seen: string[];
}

/** Starts a plain-HTTP forwarding proxy on loopback; closed after the test. */
export async function startForwardingProxy(t: TestContext, target: string): Promise<ForwardingProxy> {
  const seen: string[] = [];
  const to = new URL(target);
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://unused');
    const out = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...req.headers, host: to.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Runs the virtual clock (jumping only while nothing is in flight) until `p` settles; returns its outcome. */
export async function settleOnClock<T>(
  clock: VirtualClock,
  p: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  p.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  const result = await clock.run({ until: () => outcome !== undefined });
  if (outcome === undefined) throw new Error(`settleOnClock: the promise did not settle (${result.reason})`);
  return outcome;
}

/** A fresh event-driven virtual clock at 2026-03-02T08:00:00Z. */
export function testVirtualClock(): VirtualClock {
  return new VirtualClock({ mode: 'event', start: Date.UTC(2026, 2, 2, 8) });
}
