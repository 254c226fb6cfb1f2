import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource } from '../../api/builtin.js';
import {
  ManagedUpgradeConfigResource,
  MANAGED_UPGRADE_CONFIG_NAME,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type {
  ManagedUpgradeConfig,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { OCM_CLUSTER_ID } from '../../integrations/ocm-sim.test-support.js';
import { ManualClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import { NAMESPACE, startOcmCluster, type OcmClusterFixture } from './ocm-cluster.test-support.js';
import { LocalPolicyProvider, refreshPolicy, type PolicyProvider } from './policy-provider.js';
import { UpgradeConfigManager } from './upgrade-config-manager.js';

const MIN = 60_000;

function manager(
  f: OcmClusterFixture,
  metrics: number[],
  provider?: (c: ReturnType<OcmClusterFixture['config']>) => PolicyProvider | undefined,
): UpgradeConfigManager {
  return new UpgradeConfigManager({
    client: f.cluster.client,
    clock: f.cluster.clock,
    random: new SeededRandom(5),
    logger: silentLogger(),
    events: f.events,
    metrics: { setSyncTimestamp: (_name, s) => void metrics.push(s) },
    namespace: NAMESPACE,
    config: f.config,
    provider: provider ?? ((c) => f.sources.provider(c)),
  });
}

async function get(f: OcmClusterFixture): Promise<ManagedUpgradeConfig | undefined> {
  return f.cluster.client.getIfExists(ManagedUpgradeConfigResource, NAMESPACE, MANAGED_UPGRADE_CONFIG_NAME);
}

/** Plays the controller: records a history entry for the desired version. */
async function setPhase(f: OcmClusterFixture, phase: UpgradeHistory['phase']): Promise<void> {
  const cr = await get(f);
  assert.ok(cr);
  await f.cluster.client.updateStatus(ManagedUpgradeConfigResource, {
    ...cr,
    status: {
      history: [
        { version: cr.spec?.desired.version ?? '', phase },
        { version: '4.13.9', phase: 'Upgraded' },
      ],
    },
  });
}

async function reasons(f: OcmClusterFixture): Promise<string[]> {
  await f.events.flush();
  const list = await f.cluster.client.list(EventResource, { namespace: NAMESPACE });
  return list.items.map((e) => e.reason ?? '');
}

test('the sync loop: a policy becomes the UpgradeConfig, a change updates it in place (history kept), none removes it, Upgraded is kept', async (t) => {
  const f = await startOcmCluster(t);
  const { clock } = f.cluster;
  const state = f.fx.ocm.state;
  const metrics: number[] = [];
  const m = manager(f, metrics);
  const abort = new AbortController();
  const running = m.start(abort.signal);
  t.after(async () => {
    abort.abort();
    await running;
  });
  const t0 = clock.now();
  // Two policies: the earliest actionable one wins (the earlier one is cancelled).
  state.addPolicy(OCM_CLUSTER_ID, {
    id: 'cancelled',
    version: '4.14.11',
    nextRun: Date.UTC(2026, 2, 3),
    state: 'cancelled',
  });
  state.addPolicy(OCM_CLUSTER_ID, { id: 'p1', version: '4.15.3', nextRun: Date.UTC(2026, 2, 4, 12) });
  await clock.run({ until: () => metrics.length === 1 });
  const firstAt = clock.now() - t0;
  assert.ok(firstAt >= 54_000 && firstAt <= 66_000, `first sync after 1 min ±10 % (${firstAt})`);
  const created = await get(f);
  assert.deepEqual(created?.spec, {
    desired: { version: '4.15.3', channel: 'stable-4.15' },
    upgradeAt: '2026-03-04T12:00:00Z',
    PDBForceDrainTimeout: 45,
    type: 'OSD',
    capacityReservation: true,
  });
  await setPhase(f, 'Pending');

  state.updatePolicy(OCM_CLUSTER_ID, 'p1', { nextRun: Date.UTC(2026, 2, 5, 12), capacityReservation: false });
  const before = clock.now();
  await clock.run({ until: () => metrics.length === 2 });
  const interval = clock.now() - before;
  assert.ok(interval >= 9 * MIN && interval <= 11 * MIN, `then every watchInterval ±10 % (${interval})`);
  const updated = await get(f);
  assert.equal(updated?.metadata?.uid, created?.metadata?.uid, 'updated in place, not recreated');
  assert.equal(updated?.spec?.upgradeAt, '2026-03-05T12:00:00Z');
  assert.equal(updated?.spec?.capacityReservation, false);
  assert.deepEqual(
    updated?.status?.history?.map((h) => `${h.version ?? ''}:${h.phase}`),
    ['4.15.3:Pending', '4.13.9:Upgraded'],
  );
  assert.equal(metrics[1], clock.now() / 1000);

  state.cancelPolicy(OCM_CLUSTER_ID, 'p1');
  await clock.run({ until: () => metrics.length === 3 });
  assert.equal(await get(f), undefined, 'removed when no policy is actionable');

  state.addPolicy(OCM_CLUSTER_ID, { id: 'p2', version: '4.15.4', nextRun: Date.UTC(2026, 2, 6) });
  await clock.run({ until: () => metrics.length === 4 });
  await setPhase(f, 'Upgraded');
  state.setPolicyState(OCM_CLUSTER_ID, 'p2', 'completed', 'Cluster has been successfully upgraded to version 4.15.4');
  await clock.run({ until: () => metrics.length === 5 });
  assert.equal(
    (await get(f))?.spec?.desired.version,
    '4.15.4',
    'an Upgraded UpgradeConfig is never removed by the sync',
  );
  assert.deepEqual(await reasons(f), [
    'PolicyApplied',
    'PolicyUpdated',
    'PolicyRemoved',
    'PolicyApplied',
    'PolicyNotApplied',
  ]);
});

test('the kill switch: refreshPolicy sees a policy changed since the UpgradeConfig was written', async (t) => {
  const f = await startOcmCluster(t);
  const state = f.fx.ocm.state;
  state.addPolicy(OCM_CLUSTER_ID, { id: 'p1', version: '4.15.3', nextRun: Date.UTC(2026, 2, 4, 12) });
  const metrics: number[] = [];
  const m = manager(f, metrics);
  const signal = new AbortController().signal;
  assert.equal((await m.sync(signal)).outcome, 'created');
  const cr = await get(f);
  assert.ok(cr);
  const provider = f.sources.provider(f.config());
  assert.deepEqual(await refreshPolicy(provider, cr, signal), { outcome: 'unchanged' });
  state.updatePolicy(OCM_CLUSTER_ID, 'p1', { version: '4.15.5' });
  const changed = await refreshPolicy(provider, cr, signal);
  assert.equal(changed.outcome, 'changed');
  assert.equal(changed.outcome === 'changed' ? changed.spec?.desired.version : undefined, '4.15.5');
  state.cancelPolicy(OCM_CLUSTER_ID, 'p1');
  const gone = await refreshPolicy(provider, cr, signal);
  assert.deepEqual(gone.outcome === 'changed' ? [gone.spec, gone.why] : [], [
    undefined,
    'the OCM policy no longer asks for an upgrade',
  ]);
});

test('a policy whose version is not a semantic version: no UpgradeConfig, the sync fails saying why, a Warning Event on an existing one', async (t) => {
  const f = await startOcmCluster(t);
  const state = f.fx.ocm.state;
  const metrics: number[] = [];
  const m = manager(f, metrics);
  const signal = new AbortController().signal;
  const why =
    "unable to determine channel from channel group 'stable' and version 'crashme' for policy ID 'p1': \"crashme\" is not a semantic version (expected MAJOR.MINOR.PATCH with optional -PRERELEASE and +BUILD, without a v prefix or leading zeros)";
  state.addPolicy(OCM_CLUSTER_ID, { id: 'p1', version: 'crashme', nextRun: Date.UTC(2026, 2, 4, 12) });
  await assert.rejects(m.sync(signal), (e: unknown) => e instanceof Error && e.message === why);
  assert.equal(await get(f), undefined, 'no UpgradeConfig is built from it');
  assert.deepEqual(metrics, [], 'not a successful sync');

  // An UpgradeConfig from an earlier good policy stays as it was; the failure is an Event on it.
  state.updatePolicy(OCM_CLUSTER_ID, 'p1', { version: '4.15.3' });
  assert.equal((await m.sync(signal)).outcome, 'created');
  const created = await get(f);
  state.updatePolicy(OCM_CLUSTER_ID, 'p1', { version: 'crashme' });
  await assert.rejects(m.sync(signal), (e: unknown) => e instanceof Error && e.message === why);
  const kept = await get(f);
  assert.deepEqual(
    [kept?.metadata?.resourceVersion, kept?.spec?.desired],
    [created?.metadata?.resourceVersion, { version: '4.15.3', channel: 'stable-4.15' }],
  );
  await f.events.flush();
  const list = await f.cluster.client.list(EventResource, { namespace: NAMESPACE });
  assert.deepEqual(
    list.items.filter((e) => e.reason === 'PolicySyncFailed').map((e) => [e.type, e.message]),
    [['Warning', `could not apply the OCM upgrade policy: ${why}`]],
  );
});

test('failures back off 1 min doubling (±10 %), a success resets to the watch interval; not configured retries each minute', async (t) => {
  const f = await startOcmCluster(t);
  const { clock } = f.cluster;
  const calls: number[] = [];
  let failing = true;
  const provider: PolicyProvider = {
    source: 'OCM',
    specs: async () => {
      calls.push(clock.now());
      if (failing) throw new Error('OCM is down');
      return [];
    },
  };
  const metrics: number[] = [];
  let configured = true;
  const m = manager(f, metrics, () => (configured ? provider : undefined));
  const abort = new AbortController();
  const running = m.start(abort.signal);
  t.after(async () => {
    abort.abort();
    await running;
  });
  const t0 = clock.now();
  await clock.run({ until: () => calls.length === 5 });
  failing = false;
  await clock.run({ until: () => calls.length === 7 });
  const gaps = calls.map((c, i) => c - (i === 0 ? t0 : calls[i - 1]!));
  [1, 1, 2, 4, 8, 16, 10].forEach((mins, i) =>
    assert.ok(Math.abs(gaps[i]! - mins * MIN) <= mins * MIN * 0.1, `gap ${i}: ${gaps[i]!} vs ${mins} min`),
  );
  assert.equal(metrics.length, 2, 'only successes set the sync timestamp');
  configured = false;
  const n = calls.length;
  await clock.run({ until: clock.now() + 60 * MIN });
  assert.equal(calls.length, n);
  configured = true;
  const back = clock.now();
  await clock.run({ until: () => calls.length === n + 1 });
  assert.ok(clock.now() - back <= 1.1 * MIN, 'a provider configured later is picked up within a minute');
  abort.abort();
  await running;
  const stoppedAt = calls.length;
  await clock.run({ until: clock.now() + 120 * MIN });
  assert.equal(calls.length, stoppedAt, 'the loop ends with its signal');
});

test('with the informer cache, a LOCAL sync makes no API request and still records the sync', async () => {
  const cr: ManagedUpgradeConfig = {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: MANAGED_UPGRADE_CONFIG_NAME, namespace: NAMESPACE, resourceVersion: '7' },
    spec: {
      type: 'OSD',
      upgradeAt: '2026-03-02T10:00:00Z',
      PDBForceDrainTimeout: 60,
      desired: { version: '4.15.38', channel: 'stable-4.15' },
    },
  };
  const requests: string[] = [];
  // Every client call is recorded: none may happen.
  const client = new Proxy({}, { get: (_t, prop) => () => requests.push(String(prop)) }) as never;
  const synced: number[] = [];
  const m = new UpgradeConfigManager({
    client,
    clock: new ManualClock(Date.UTC(2026, 2, 2)),
    random: new SeededRandom(5),
    logger: silentLogger(),
    events: { event: () => requests.push('event') } as never,
    metrics: { setSyncTimestamp: (_name, s) => void synced.push(s) },
    namespace: NAMESPACE,
    config: () => ({ configManager: { source: 'LOCAL' } }) as never,
    provider: () => new LocalPolicyProvider(),
    cached: (ns, name) => (ns === NAMESPACE && name === MANAGED_UPGRADE_CONFIG_NAME ? cr : undefined),
  });
  const r = await m.sync(new AbortController().signal);
  assert.equal(r.outcome, 'unchanged');
  assert.deepEqual(requests, []);
  assert.equal(synced.length, 1, 'upgradeoperator_upgradeconfig_sync_timestamp is set');
});

test('the first sync waits for the caches it reads: no policy is fetched while the operator ConfigMap is unknown', async (t) => {
  const f = await startOcmCluster(t);
  const { clock } = f.cluster;
  const calls: number[] = [];
  const provider: PolicyProvider = {
    source: 'OCM',
    specs: async () => {
      calls.push(clock.now());
      return [];
    },
  };
  let synced!: (ok: boolean) => void;
  const cachesSynced = new Promise<boolean>((resolve) => (synced = resolve));
  const m = new UpgradeConfigManager({
    client: f.cluster.client,
    clock,
    random: new SeededRandom(5),
    logger: silentLogger(),
    events: f.events,
    metrics: { setSyncTimestamp: () => undefined },
    namespace: NAMESPACE,
    config: f.config,
    provider: () => provider,
    synced: () => cachesSynced,
  });
  const abort = new AbortController();
  const running = m.start(abort.signal);
  t.after(async () => {
    abort.abort();
    synced(false);
    await running;
  });
  await clock.run({ until: clock.now() + 10 * MIN });
  assert.deepEqual(calls, [], 'nothing is synced before the caches are');
  synced(true);
  const after = clock.now();
  await clock.run({ until: () => calls.length === 1 });
  assert.ok(clock.now() - after <= 1.1 * MIN, 'then the first sync follows at once');
});
