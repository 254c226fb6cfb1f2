import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterVersionResource, type ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import { manifestCount } from '../releases/payload.js';
import { startUpdateService, type UpdateService } from '../updateservice/server.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import {
  createClusterVersionOperator,
  type ClusterVersionOperator,
  type ClusterVersionOperatorOptions,
} from './cvo.js';
import { clusterVersionTransitionViolations, clusterVersionViolations } from './invariants.js';
import { installCluster, patchOperator, startResponders, type Responders } from './responders.test-support.js';

const catalogue = buildCatalogue();
const MIN = 60_000;

interface Fixture {
  cluster: TestCluster;
  cvo: ClusterVersionOperator;
  responders: Responders;
  service: UpdateService | undefined;
  /** Every ClusterVersion status seen, in order. */
  seen: ClusterVersion[];
  cv(): ClusterVersion;
  cond(type: string): { status: string; reason?: string; message?: string; lastTransitionTime: string } | undefined;
  setDesired(update: Record<string, unknown>): Promise<void>;
  runUntil(cond: () => boolean, maxMs?: number): Promise<void>;
}

async function setup(
  t: TestContext,
  options: {
    version?: string;
    withService?: boolean;
    cvo?: Partial<ClusterVersionOperatorOptions>;
    delayMs?: (name: string) => number;
    before?: (c: TestCluster) => Promise<void>;
  } = {},
): Promise<Fixture> {
  const cluster = await startTestCluster(t);
  let service: UpdateService | undefined;
  if (options.withService) {
    service = await startUpdateService({ catalogue, clock: cluster.clock, activity: cluster.clock.activity });
    const svc = service;
    t.after(() => svc.close());
  }
  await installCluster(cluster, options.version ?? '4.14.10', { catalogue });
  await options.before?.(cluster);
  const responders = startResponders(cluster, { catalogue, ...(options.delayMs ? { delayMs: options.delayMs } : {}) });
  const cvo = createClusterVersionOperator(cluster.ctx, {
    catalogue,
    ...(service ? { updateServiceUrl: service.graphUrl } : {}),
    ...options.cvo,
  });
  const seen: ClusterVersion[] = [];
  const inf = cluster.ctx.informers.informerFor(ClusterVersionResource);
  inf.addHandlers({ onAdd: (cv) => seen.push(cv), onUpdate: (_o, cv) => seen.push(cv) });
  await cvo.start(cluster.signal);
  // Every invariant (docs/design/cluster-model.md#invariants) the monitor checks holds at the end
  // of each test (completion included), except the ClusterOperator one: the responders here report
  // versions without a Progressing period. Registered last: a failing after-hook skips the hooks
  // registered after it.
  t.after(() =>
    assert.deepEqual(
      cluster.invariants!.violations().filter((v) => v.kind !== 'cluster-operator'),
      [],
    ),
  );
  const cv = (): ClusterVersion => inf.get(undefined, 'version')!;
  const fixture: Fixture = {
    cluster,
    cvo,
    responders,
    service,
    seen,
    cv,
    cond: (type) => cv().status?.conditions?.find((c) => c.type === type),
    setDesired: async (update) => {
      // As `oc adm upgrade` does: a merge patch of spec.desiredUpdate.
      await cluster.client.patch(
        ClusterVersionResource,
        undefined,
        'version',
        { spec: { desiredUpdate: { architecture: '', force: false, image: null, ...update } } },
        { type: 'merge' },
      );
    },
    runUntil: async (cond, maxMs = 6 * 60 * MIN) => {
      const deadline = cluster.clock.now() + maxMs;
      await cluster.clock.run({ until: () => cond() || cluster.clock.now() >= deadline });
      assert.ok(
        cond(),
        `condition not reached by ${new Date(cluster.clock.now()).toISOString()}; Progressing: ${fixture.cond('Progressing')?.message ?? ''}`,
      );
    },
  };
  return fixture;
}

function progressMessages(seen: readonly ClusterVersion[]): string[] {
  const out: string[] = [];
  for (const cv of seen) {
    const m = cv.status?.conditions?.find((c) => c.type === 'Progressing')?.message;
    if (m !== undefined && out[out.length - 1] !== m) out.push(m);
  }
  return out;
}

/** ClusterVersion invariants (docs/design/cluster-model.md#invariants; `invariants.ts`) over every status seen, in order. */
function assertHistoryInvariants(seen: readonly ClusterVersion[]): void {
  const violations = seen.flatMap((cv, i) => [
    ...clusterVersionViolations(cv),
    ...(i > 0 ? clusterVersionTransitionViolations(seen[i - 1]!, cv) : []),
  ]);
  assert.deepEqual(violations, []);
}

test('a z-stream update set through spec.desiredUpdate runs end to end with the CVO message formats', async (t) => {
  const f = await setup(t, { withService: true });
  // installState: one Completed entry and the conditions of an idle cluster.
  assert.deepEqual(
    f.cv().status!.history!.map((h) => [h.state, h.version, h.verified]),
    [['Completed', '4.14.10', false]],
  );
  assert.deepEqual(
    f
      .cv()
      .status!.conditions!.map((c) => c.type)
      .sort(),
    ['Available', 'Failing', 'ImplicitlyEnabledCapabilities', 'Progressing', 'ReleaseAccepted', 'RetrievedUpdates'],
  );
  assert.equal(f.cv().status!.versionHash.length, 12);
  await f.runUntil(() => (f.cv().status?.availableUpdates ?? []).length > 0);
  const available = f.cv().status!.availableUpdates!.map((r) => r.version);
  assert.deepEqual(
    available,
    [...available].sort((a, b) => (a < b ? 1 : -1)).sort((a, b) => b.localeCompare(a, undefined, { numeric: true })),
  );
  assert.ok(available.includes('4.14.12'));

  f.responders.hold('etcd');
  f.responders.hold('kube-apiserver');
  await f.setDesired({ version: '4.14.12' });
  const total = manifestCount(findRelease(catalogue, '4.14.12')!);
  await f.runUntil(() => f.cond('ReleaseAccepted')?.status === 'Unknown');
  assert.equal(f.cond('ReleaseAccepted')?.reason, 'RetrievePayload');
  await f.runUntil(() => /waiting on etcd, kube-apiserver$/.test(f.cond('Progressing')?.message ?? ''));
  const image = findRelease(catalogue, '4.14.12')!.pullSpec;
  assert.equal(
    f.cond('ReleaseAccepted')?.message,
    `Payload loaded version="4.14.12" image="${image}" architecture="amd64"`,
  );
  assert.match(
    f.cond('Progressing')!.message!,
    new RegExp(
      `^Working towards 4\\.14\\.12: \\d+ of ${total} done \\(\\d+% complete\\), waiting on etcd, kube-apiserver$`,
    ),
  );
  assert.equal(f.cond('Progressing')?.reason, 'ClusterOperatorsUpdating');
  assert.equal(f.cond('Failing')?.status, 'False');
  assert.equal(f.cond('Available')?.message, 'Done applying 4.14.10');
  const head = f.cv().status!.history![0]!;
  assert.equal(head.state, 'Partial');
  assert.equal(head.version, '4.14.12');
  assert.equal(head.completionTime, null);
  assert.equal(f.cv().status?.desired.version, '4.14.12');
  assert.equal(f.cv().status?.observedGeneration, f.cv().metadata?.generation);

  f.responders.release('etcd');
  f.responders.release('kube-apiserver');
  await f.runUntil(() => f.cv().status?.history?.[0]?.state === 'Completed');
  assert.equal(f.cond('Progressing')?.status, 'False');
  assert.equal(f.cond('Progressing')?.message, 'Cluster version is 4.14.12');
  assert.equal(f.cond('Available')?.message, 'Done applying 4.14.12');
  const history = f.cv().status!.history!;
  assert.deepEqual(
    history.map((h) => [h.state, h.version]),
    [
      ['Completed', '4.14.12'],
      ['Completed', '4.14.10'],
    ],
  );
  assert.notEqual(history[0]!.completionTime, null);
  // Every CO reported before completion (the gates), including machine-config.
  assert.ok(f.responders.reported.some((r) => r.name === 'machine-config' && r.version === '4.14.12'));
  const messages = progressMessages(f.seen);
  for (const m of messages) {
    assert.match(
      m,
      /^(Cluster version is 4\.14\.1[02]|Working towards 4\.14\.12(: \d+ of \d+ done \(\d+% complete\))?(, waiting on [a-z, -]+)?|Working towards 4\.14\.12: waiting on [a-z, -]+)$/,
      m,
    );
  }
  assert.ok(
    messages.some((m) => /waiting on machine-config$/.test(m)),
    messages.join('\n'),
  );
  assertHistoryInvariants(f.seen);
  // Status writes: a bucket of 2 refilled every 15 s.
  const w = f.cvo.statusWrites;
  for (let i = 0; i + 2 < w.length; i++)
    assert.ok(w[i + 2]! - w[i]! >= 15_000 - 1, `writes ${i}..${i + 2} at ${w[i]} ${w[i + 2]}`);
});

test('a Degraded ClusterOperator waits 40 minutes before Failing; Available=False fails at once', async (t) => {
  const f = await setup(t, {
    before: async (c) => {
      await patchOperator(
        c.client,
        'kube-storage-version-migrator',
        { conditions: [{ type: 'Degraded', status: 'True', reason: 'Scripted', message: 'scripted' }] },
        c.clock.now(),
      );
    },
  });
  const image = findRelease(catalogue, '4.14.11')!.pullSpec;
  await f.setDesired({ version: '4.14.11', image });
  await f.runUntil(() =>
    /waiting up to 40 minutes on kube-storage-version-migrator$/.test(f.cond('Progressing')?.message ?? ''),
  );
  assert.equal(f.cond('Progressing')?.reason, 'ClusterOperatorDegraded');
  assert.equal(f.cond('Failing')?.status, 'False');
  const reachedAt = f.cluster.clock.now();
  await f.runUntil(() => f.cond('Failing')?.status === 'True');
  assert.ok(f.cluster.clock.now() - reachedAt >= 38 * MIN, 'not before 40 minutes');
  assert.ok(f.cluster.clock.now() - reachedAt <= 46 * MIN, 'soon after 40 minutes');
  assert.equal(f.cond('Failing')?.reason, 'ClusterOperatorDegraded');
  assert.equal(f.cond('Failing')?.message, 'Cluster operator kube-storage-version-migrator is degraded');
  assert.equal(
    f.cond('Progressing')?.message,
    'Unable to apply 4.14.11: wait has exceeded 40 minutes for these operators: kube-storage-version-migrator',
  );
  assert.equal(f.cond('Progressing')?.status, 'True');

  await patchOperator(
    f.cluster.client,
    'kube-storage-version-migrator',
    { conditions: [{ type: 'Degraded', status: 'False', reason: 'AsExpected' }] },
    f.cluster.clock.now(),
  );
  await f.runUntil(
    () =>
      f.cond('Failing')?.status === 'False' &&
      !/kube-storage-version-migrator/.test(f.cond('Progressing')?.message ?? ''),
  );
  // Available=False on an operator the update has not reached yet fails as soon as it is reached.
  await patchOperator(
    f.cluster.client,
    'dns',
    { conditions: [{ type: 'Available', status: 'False', reason: 'Scripted', message: 'scripted' }] },
    f.cluster.clock.now(),
  );
  await f.runUntil(() => f.cond('Failing')?.status === 'True');
  assert.equal(f.cond('Failing')?.reason, 'ClusterOperatorNotAvailable');
  assert.equal(f.cond('Failing')?.message, 'Cluster operator dns is not available');
  assert.equal(f.cond('Progressing')?.message, 'Unable to apply 4.14.11: the cluster operator dns is not available');
  await patchOperator(
    f.cluster.client,
    'dns',
    { conditions: [{ type: 'Available', status: 'True', reason: 'AsExpected' }] },
    f.cluster.clock.now(),
  );
  await f.runUntil(() => f.cv().status?.history?.[0]?.state === 'Completed');
  assertHistoryInvariants(f.seen);
});

test('Upgradeable=False blocks a minor update until it is forced; patch updates pass', async (t) => {
  const f = await setup(t, {
    before: async (c) => {
      await patchOperator(
        c.client,
        'operator-lifecycle-manager',
        {
          conditions: [
            {
              type: 'Upgradeable',
              status: 'False',
              reason: 'IncompatibleOperatorsInstalled',
              message: 'ClusterServiceVersions blocking minor version upgrades',
            },
          ],
        },
        c.clock.now(),
      );
    },
  });
  await f.runUntil(() => f.cond('Upgradeable')?.status === 'False');
  assert.equal(f.cond('Upgradeable')?.reason, 'IncompatibleOperatorsInstalled');
  assert.equal(
    f.cond('Upgradeable')?.message,
    'Cluster operator operator-lifecycle-manager should not be upgraded between minor versions: ClusterServiceVersions blocking minor version upgrades',
  );
  const image = findRelease(catalogue, '4.15.3')!.pullSpec;
  await f.setDesired({ version: '4.15.3', image });
  await f.runUntil(() => f.cond('ReleaseAccepted')?.status === 'False');
  assert.equal(f.cond('ReleaseAccepted')?.reason, 'PreconditionChecks');
  assert.equal(
    f.cond('ReleaseAccepted')?.message,
    `Preconditions failed for payload loaded version="4.15.3" image="${image}": Multiple precondition checks failed:\n` +
      '* Precondition "ClusterVersionUpgradeable" failed because of "IncompatibleOperatorsInstalled": Cluster operator operator-lifecycle-manager should not be upgraded between minor versions: ClusterServiceVersions blocking minor version upgrades\n' +
      '* Precondition "ClusterVersionRecommendedUpdate" failed because of "UnknownUpdate": RetrievedUpdates=False (NoUpstream), so the recommended status of updating from 4.14.10 to 4.15.3 is unknown.',
  );
  await f.cluster.clock.run({ until: f.cluster.clock.now() + 5 * MIN });
  assert.equal(f.cond('Progressing')?.message, 'Cluster version is 4.14.10');
  assert.equal(f.cv().status?.desired.version, '4.14.10');
  assert.equal(f.cv().status?.history?.[0]?.version, '4.14.10');

  await f.setDesired({ version: '4.15.3', image, force: true });
  await f.runUntil(() => f.cond('ReleaseAccepted')?.status === 'True' && f.cv().status?.desired.version === '4.15.3');
  const head = f.cv().status!.history![0]!;
  assert.equal(head.state, 'Partial');
  assert.match(
    head.acceptedRisks ?? '',
    /^Forced through blocking failures: Precondition "ClusterVersionUpgradeable" failed because of "IncompatibleOperatorsInstalled"/,
  );
  await f.runUntil(() => f.cv().status?.history?.[0]?.state === 'Completed');
  assert.equal(f.cond('Available')?.message, 'Done applying 4.15.3');

  // A patch update is not blocked by Upgradeable=False.
  const patch = findRelease(catalogue, '4.15.5')!.pullSpec;
  await f.setDesired({ version: '4.15.5', image: patch });
  await f.runUntil(() => f.cv().status?.desired.version === '4.15.5');
  assert.equal(f.cond('ReleaseAccepted')?.reason, 'PayloadLoaded');
});

test('version-only for a conditional target is Invalid; the update service outage and channel errors show in RetrievedUpdates', async (t) => {
  const f = await setup(t, {
    withService: true,
    cvo: { riskTable: { OLMOperatorsInFailedState: true } },
    delayMs: () => 30_000,
  });
  await f.runUntil(() => (f.cv().status?.conditionalUpdates ?? []).length > 0);
  assert.equal(f.cond('RetrievedUpdates')?.status, 'True');
  const conditional = f.cv().status!.conditionalUpdates!;
  const c4153 = conditional.find((c) => c.release.version === '4.15.3')!;
  assert.deepEqual(c4153.risks.map((r) => r.name).sort(), [
    'AWSCustomDomainNodesNotReady',
    'OLMOperatorsInFailedState',
  ]);
  const rec = c4153.conditions!.find((c) => c.type === 'Recommended')!;
  assert.equal(rec.status, 'False');
  assert.equal(rec.reason, 'OLMOperatorsInFailedState');
  assert.equal(
    rec.message,
    "The Operator Lifecycle Manager (OLM) operators can't be upgraded and may incorrectly report failed status. https://issues.redhat.com/browse/OPRUN-3267",
  );
  assert.ok(!(f.cv().status!.availableUpdates ?? []).some((r) => r.version === '4.15.3'));
  const pre = conditional
    .find((c) => c.release.version === '4.15.2')!
    .conditions!.find((c) => c.type === 'Recommended')!;
  assert.equal(pre.reason, 'PreRelease');

  await f.setDesired({ version: '4.15.3' });
  await f.runUntil(() => f.cond('Invalid')?.status === 'True');
  assert.equal(f.cond('Invalid')?.reason, 'InvalidClusterVersion');
  assert.equal(
    f.cond('Invalid')?.message,
    'The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.15.3": when image is empty the update must be an available update',
  );
  assert.equal(f.cond('Progressing')?.message, 'Stopped at 4.14.10: the cluster version is invalid');
  assert.equal(f.cv().status?.desired.version, '4.14.10');

  // Outage: the last good updates stay; the condition says why.
  const svc = f.service!;
  await svc.setFault({ kind: 'refused' });
  f.cvo.refreshUpdates();
  await f.runUntil(() => f.cond('RetrievedUpdates')?.status === 'False');
  assert.equal(f.cond('RetrievedUpdates')?.reason, 'RemoteFailed');
  const port = new URL(svc.url).port;
  assert.equal(
    f.cond('RetrievedUpdates')?.message,
    `Unable to retrieve available updates: Get "${svc.graphUrl}?arch=amd64&channel=stable-4.15&id=6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31&version=4.14.10": dial tcp 127.0.0.1:${port}: connect: connection refused`,
  );
  assert.ok((f.cv().status!.availableUpdates ?? []).length > 0);
  await svc.setFault({ kind: 'server-error' });
  await f.runUntil(() => f.cond('RetrievedUpdates')?.reason === 'ResponseFailed', 5 * MIN);
  assert.equal(
    f.cond('RetrievedUpdates')?.message,
    'Unable to retrieve available updates: unexpected HTTP status: 500 Internal Server Error',
  );
  await svc.setFault(undefined);
  await f.runUntil(() => f.cond('RetrievedUpdates')?.status === 'True', 5 * MIN);

  // A channel without the current version: at once, VersionNotFound.
  await f.cluster.client.patch(
    ClusterVersionResource,
    undefined,
    'version',
    { spec: { channel: 'stable-4.16', desiredUpdate: null } },
    { type: 'merge' },
  );
  await f.runUntil(() => f.cond('RetrievedUpdates')?.reason === 'VersionNotFound', 30_000);
  assert.equal(
    f.cond('RetrievedUpdates')?.message,
    'Unable to retrieve available updates: currently reconciling cluster version 4.14.10 not found in the "stable-4.16" channel',
  );
  assert.equal(f.cv().status?.availableUpdates, null);
  await f.runUntil(() => f.cond('Invalid') === undefined, 30_000);
});

test('retargeting mid-update closes the abandoned Partial entry and completes the new target', async (t) => {
  const f = await setup(t);
  f.responders.hold('network');
  const i11 = findRelease(catalogue, '4.14.11')!.pullSpec;
  await f.setDesired({ version: '4.14.11', image: i11 });
  await f.runUntil(() => /waiting on network$/.test(f.cond('Progressing')?.message ?? ''));
  const i12 = findRelease(catalogue, '4.14.12')!.pullSpec;
  await f.setDesired({ version: '4.14.12', image: i12 });
  await f.runUntil(() => f.cv().status?.desired.version === '4.14.12');
  let history = f.cv().status!.history!;
  assert.deepEqual(
    history.map((h) => [h.state, h.version]),
    [
      ['Partial', '4.14.12'],
      ['Partial', '4.14.11'],
      ['Completed', '4.14.10'],
    ],
  );
  assert.equal(history[0]!.completionTime, null);
  assert.notEqual(history[1]!.completionTime, null);
  f.responders.release('network');
  await f.runUntil(() => f.cv().status?.history?.[0]?.state === 'Completed');
  history = f.cv().status!.history!;
  assert.deepEqual(
    history.map((h) => [h.state, h.version]),
    [
      ['Completed', '4.14.12'],
      ['Partial', '4.14.11'],
      ['Completed', '4.14.10'],
    ],
  );
  assert.equal(f.cond('Progressing')?.message, 'Cluster version is 4.14.12');
  assertHistoryInvariants(f.seen);
});

test('a CVO pod restart mid-update freezes the status for the gap, then the counter goes backwards and catches up', async (t) => {
  const f = await setup(t);
  f.responders.hold('dns');
  const image = findRelease(catalogue, '4.14.11')!.pullSpec;
  await f.setDesired({ version: '4.14.11', image });
  await f.runUntil(() => /waiting on dns$/.test(f.cond('Progressing')?.message ?? ''));
  const done = (m: string | undefined): number => Number(/: (\d+) of \d+ done/.exec(m ?? '')?.[1] ?? NaN);
  const before = done(f.cond('Progressing')?.message);
  const writes = f.cvo.statusWrites.length;
  const restartedAt = f.cluster.clock.now();
  f.cvo.restart();
  await f.runUntil(() => done(f.cond('Progressing')?.message) < before);
  const firstWrite = f.cvo.statusWrites.slice(writes)[0]!;
  assert.ok(
    firstWrite - restartedAt >= 0.5 * MIN,
    `no status write during the restart gap (first after ${(firstWrite - restartedAt) / 1000} s)`,
  );
  await f.runUntil(
    () =>
      /waiting on dns$/.test(f.cond('Progressing')?.message ?? '') && done(f.cond('Progressing')?.message) === before,
    10 * MIN,
  );
  f.responders.release('dns');
  await f.runUntil(() => f.cv().status?.history?.[0]?.state === 'Completed');
  assertHistoryInvariants(f.seen);
});
