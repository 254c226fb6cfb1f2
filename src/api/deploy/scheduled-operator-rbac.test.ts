/**
 * Least privilege of the scheduled flow's shipped RBAC. Every scenario a test runs is checked
 * against the generated rules where it runs (`runCheckedScenario`, operator-requests.test-support.ts);
 * here two runs that, between them, make every kind of request the code has are collected, so
 * that every verb of every rule must be used by some request: `scheduled-pool-delay` (a full
 * upgrade with a delayed infra pool and its MachineConfigPoolUnpause hook), extended with what
 * no scenario exercises: a PodDisruptionBudget that blocks worker drains and a NodeForceDrain
 * that deletes the blocked pods and skips a DaemonSet's pods (namespace and DaemonSet look-ups,
 * Events on Nodes), a `run: Next` hook (claim), an UpgradeSuspensionWindow (status); after it, a
 * managed ClusterVersion (the sync's update of the cluster's ClusterVersion), a second succeeded
 * UpgradeJob and a history limit of 1 (the delete), notifications to a webhook on loopback (their
 * configuration, Secret and state ConfigMap), and leader election through a Manager. Then
 * `scheduled-hook-failed` (a failing Abort hook). The check is tested on a planted defect in each
 * direction.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Node } from 'kubernetes-types/core/v1.js';
import { DaemonSetResource, NamespaceResource, NodeResource, PodResource } from '../builtin.js';
import { ManagedClusterVersionResource } from '../managedupgrade.appuio.io/v1beta1/cluster-version-contract.js';
import { APPUIO_API_VERSION, APPUIO_CONTROLLER_NAMESPACE } from '../managedupgrade.appuio.io/v1beta1/group.js';
import { ScheduledUpgradeConfigResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../openshift/config-v1/cluster-version.js';
import { SCHEDULED_LEADER_ELECTION_ID } from '../../cli/commands/run.js';
import { environmentFor, loadScenario } from '../../cli/scenarios/catalog.js';
import {
  startNotificationReceiver,
  webhookNotificationManifests,
} from '../../engine/notifications/notification-receiver.test-support.js';
import { NOTIFICATIONS_CONFIG_NAME, NOTIFICATIONS_STATE_NAME } from '../notifications-contract.js';
import { startSimEnvironment, type SimEnvironment } from '../../cli/scenarios/sim-environment.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { formatTime } from '../../lib/clock.js';
import type { JsonObject } from '../../lib/json.js';
import {
  deniedRequests,
  exerciseLeaderElection,
  runCheckedScenario,
  scheduledGrants,
  unusedVerbs,
  type OperatorRequest,
} from './operator-requests.test-support.js';
import type { ResolvedGrant } from './rbac-authorizer.test-support.js';
import { scheduledRoles } from './scheduled-operator-manifests.js';
import { scheduledLeaderElectionPermissions, scheduledOperatorPermissions } from './scheduled-operator-rbac.js';

const NS = APPUIO_CONTROLLER_NAMESPACE;
const OPTIONS = { version: '0.0.0-test', leaseName: SCHEDULED_LEADER_ELECTION_ID };
const NEW_CHANNEL = 'stable-4.15';
const DAEMONSET_NAMESPACE = 'node-agents';
const DAEMONSET_NAME = 'node-agent';

const requests: OperatorRequest[] = [];

/** Workload and objects added to `scheduled-pool-delay` (the UpgradeJobs carry `upgrade-config: nightly`). */
const EXTRA_MANIFESTS: JsonObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: 'shop' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'checkout' } },
      template: {
        metadata: { labels: { app: 'checkout' } },
        spec: { containers: [{ name: 'checkout', image: 'quay.io/example/checkout:1.4' }] },
      },
    },
  },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'checkout', namespace: 'shop' },
    spec: { minAvailable: 2, selector: { matchLabels: { app: 'checkout' } } },
  },
  {
    apiVersion: APPUIO_API_VERSION,
    kind: 'NodeForceDrain',
    metadata: { name: 'workers', namespace: NS },
    spec: {
      nodeSelector: { matchLabels: { 'node-role.kubernetes.io/worker': '' } },
      namespaceSelector: {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['openshift-monitoring'] }],
      },
      nodeDrainGracePeriod: '1m',
      podForceDeleteGracePeriod: '1m',
    },
  },
  {
    apiVersion: APPUIO_API_VERSION,
    kind: 'UpgradeJobHook',
    metadata: { name: 'announce-once', namespace: NS },
    spec: {
      events: ['Finish'],
      run: 'Next',
      selector: { matchLabels: { 'upgrade-config': 'nightly' } },
      template: {
        spec: {
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'announce', image: 'curlimages/curl:8.1.2' }] },
          },
        },
      },
    },
  },
  {
    apiVersion: APPUIO_API_VERSION,
    kind: 'UpgradeSuspensionWindow',
    metadata: { name: 'next-year-freeze', namespace: NS },
    spec: { start: '{{ +8760h }}', end: '{{ +8784h }}', reason: 'freeze', configSelector: {}, jobSelector: {} },
  },
];

/**
 * A DaemonSet's pods, one on each plain worker (the simulation runs no DaemonSet controller):
 * the drain leaves them, and NodeForceDrain looks the DaemonSet up and leaves them too.
 */
async function createDaemonSetPods(env: SimEnvironment): Promise<void> {
  const nodes = (await env.client.list(NodeResource)).items;
  const workers = nodes.filter(
    (n: Node) =>
      n.metadata?.labels?.['node-role.kubernetes.io/worker'] !== undefined &&
      n.metadata.labels['node-role.kubernetes.io/infra'] === undefined,
  );
  assert.ok(workers.length > 0, 'worker nodes');
  await env.client.create(NamespaceResource, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: DAEMONSET_NAMESPACE },
  });
  const labels = { app: DAEMONSET_NAME };
  const containers = [{ name: 'agent', image: 'quay.io/example/agent:1' }];
  const ds = await env.client.create(DaemonSetResource, {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: DAEMONSET_NAME, namespace: DAEMONSET_NAMESPACE },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers } } },
  });
  for (const [i, worker] of workers.entries()) {
    await env.client.create(PodResource, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${DAEMONSET_NAME}-${i}`,
        namespace: DAEMONSET_NAMESPACE,
        labels,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            name: DAEMONSET_NAME,
            uid: ds.metadata?.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: { nodeName: worker.metadata?.name ?? '', containers },
    });
  }
}

async function runUntil(env: SimEnvironment, done: () => boolean, what: string, limitMs = 3_600_000): Promise<void> {
  const deadline = env.clock.now() + limitMs;
  await env.clock.run({ until: () => done() || env.clock.now() >= deadline, signal: env.signal });
  assert.ok(done(), what);
}

/** The managed ClusterVersion with the cluster's own spec but another channel: the sync replaces the spec. */
async function syncClusterVersion(env: SimEnvironment): Promise<void> {
  const upstream = await env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  const { desiredUpdate: _d, ...spec } = upstream.spec;
  await env.client.create(ManagedClusterVersionResource, {
    apiVersion: APPUIO_API_VERSION,
    kind: 'ClusterVersion',
    metadata: { name: 'version', namespace: NS },
    spec: { template: { spec: { ...spec, channel: NEW_CHANNEL } } },
  });
  const cvs = env.ctx.informers.informerFor(ClusterVersionResource);
  await runUntil(
    env,
    () => cvs.get(undefined, CLUSTER_VERSION_NAME)?.spec.channel === NEW_CHANNEL,
    'the sync set the new channel',
  );
}

/** A second succeeded UpgradeJob of the config, then a history limit of 1: the older one is deleted. */
async function deleteBeyondHistoryLimit(env: SimEnvironment): Promise<void> {
  const jobs = env.ctx.informers.informerFor(UpgradeJobResource, { namespace: NS });
  const [done] = jobs.list();
  assert.ok(done?.metadata?.name && jobs.list().length === 1, 'one UpgradeJob');
  const succeeded = done.status?.conditions?.find((c) => c.type === 'Succeeded' && c.status === 'True');
  assert.ok(succeeded && done.spec, 'the UpgradeJob succeeded');
  const later: UpgradeJob = {
    apiVersion: APPUIO_API_VERSION,
    kind: 'UpgradeJob',
    metadata: {
      name: `${done.metadata.name}-later`,
      namespace: NS,
      labels: { ...done.metadata.labels },
      ownerReferences: done.metadata.ownerReferences ?? [],
    },
    // Far ahead, so that the job controller waits instead of starting it.
    spec: {
      ...done.spec,
      startAfter: formatTime(env.clock.now() + 30 * 86_400_000),
      startBefore: formatTime(env.clock.now() + 30 * 86_400_000 + 3_600_000),
    },
  };
  const created = await env.client.create(UpgradeJobResource, later);
  await updateStatusWithRetry(
    env.client,
    UpgradeJobResource,
    `${NS}/${created.metadata?.name ?? ''}`,
    (j: UpgradeJob) => ({ ...j, status: { ...j.status, conditions: [succeeded] } }),
    { clock: env.clock },
  );
  await env.client.patch(
    ScheduledUpgradeConfigResource,
    NS,
    'nightly',
    { spec: { successfulJobsHistoryLimit: 1 } },
    { type: 'merge' },
  );
  await runUntil(
    env,
    () => jobs.list().length === 1 && jobs.list()[0]?.metadata?.name === later.metadata?.name,
    'the older succeeded job was deleted',
  );
}

const EXTENDED =
  'scheduled-pool-delay (NodeForceDrain, DaemonSet, run: Next hook, suspension window, ClusterVersion sync, history limit)';

/** Runs a named scenario, with `extra` manifests (and the DaemonSet's pods) and further steps when given, collecting its requests. */
async function scenario(
  name: string,
  path: string,
  extra: JsonObject[],
  then?: (env: SimEnvironment) => Promise<void>,
): Promise<void> {
  const { file } = loadScenario(name);
  const env = await startSimEnvironment(environmentFor(file, 1));
  try {
    let setup: Promise<void> = Promise.resolve();
    const outcome = await runCheckedScenario(
      env,
      path,
      { ...file, manifests: [...(file.manifests ?? []), ...extra] },
      {
        seed: 1,
        beforeManifests: () => {
          if (extra.length === 0) return;
          const busy = env.clock.activity.begin('rbac test: DaemonSet pods');
          setup = createDaemonSetPods(env).finally(busy);
          // Handled when awaited below; this keeps a failure from being reported as unhandled meanwhile.
          setup.catch(() => undefined);
        },
      },
      {
        // Checked below, both runs together, so that a denied request is named with every run that made it.
        deferCheck: true,
        continueWith: async ({ run }) => {
          await setup;
          assert.equal(run.ended, 'end condition', `${path} reached its end`);
          await then?.(env);
        },
      },
    );
    try {
      requests.push(...outcome.requests);
      // Leader election as `upgrade-operator run --flows scheduled` does it: acquire (create), renew, release.
      if (then) requests.push(...(await exerciseLeaderElection(env, NS, SCHEDULED_LEADER_ELECTION_ID)));
    } finally {
      await outcome.run.close();
    }
  } finally {
    await env.close();
  }
}

before(async () => {
  // Notifications to a webhook on loopback: their configuration, Secret and state ConfigMap.
  const receiver = await startNotificationReceiver({ failFirst: 0 });
  const notifications = webhookNotificationManifests(NS, receiver.url('sre'));
  try {
    await scenario('scheduled-pool-delay', EXTENDED, [...EXTRA_MANIFESTS, ...notifications], async (env) => {
      await syncClusterVersion(env);
      await deleteBeyondHistoryLimit(env);
    });
  } finally {
    await receiver.close();
  }
  assert.ok(receiver.accepted('sre').length > 0, 'notifications were delivered');
  await scenario('scheduled-hook-failed', 'scheduled-hook-failed', []);
});

void test('the runs made the requests this test relies on', () => {
  const seen = (method: string, fragment: string): boolean =>
    requests.some((r) => r.method === method && r.path.split('?')[0]?.includes(fragment));
  assert.ok(requests.length > 100, `only ${requests.length} operator requests were seen`);
  assert.ok(seen('DELETE', '/namespaces/shop/pods/'), 'NodeForceDrain deleted a pod the PDB held');
  assert.ok(
    seen('GET', `/namespaces/${DAEMONSET_NAMESPACE}/daemonsets/${DAEMONSET_NAME}`),
    'NodeForceDrain looked for the DaemonSet',
  );
  assert.ok(!seen('DELETE', `/namespaces/${DAEMONSET_NAMESPACE}/pods/`), 'and left its pods alone');
  assert.ok(seen('GET', '/api/v1/namespaces/shop'), "NodeForceDrain read a pod's namespace");
  assert.ok(seen('POST', '/api/v1/namespaces/default/events'), 'an Event about a Node');
  assert.ok(seen('POST', `/namespaces/${NS}/configmaps`), 'the notification state ConfigMap was created');
  assert.ok(seen('PATCH', `/namespaces/${NS}/configmaps/${NOTIFICATIONS_STATE_NAME}`), 'and recorded deliveries');
  assert.ok(seen('GET', `/namespaces/${NS}/secrets/${NOTIFICATIONS_CONFIG_NAME}`), "the receivers' URLs were read");
  assert.ok(
    seen('PUT', `/apis/config.openshift.io/v1/clusterversions/${CLUSTER_VERSION_NAME}`),
    'the sync replaced the ClusterVersion spec',
  );
  assert.ok(seen('PUT', `/namespaces/${NS}/clusterversions/version/status`), 'the managed ClusterVersion status');
  assert.ok(seen('PUT', `/namespaces/${NS}/upgradejobhooks/announce-once/status`), 'the run: Next hook was claimed');
  assert.ok(
    seen('PUT', `/namespaces/${NS}/upgradesuspensionwindows/next-year-freeze/status`),
    'the suspension window status',
  );
  assert.ok(seen('PUT', `/namespaces/${NS}/nodeforcedrains/workers/status`), 'the NodeForceDrain status');
  assert.ok(
    seen('DELETE', `/namespaces/${NS}/upgradejobs/`),
    'a succeeded UpgradeJob beyond the history limit was deleted',
  );
  assert.ok(
    seen('PUT', `/namespaces/${NS}/leases/${SCHEDULED_LEADER_ELECTION_ID}`),
    'the Lease was renewed or released',
  );
});

void test('every API request of the operator is allowed by the generated RBAC', () => {
  assert.deepEqual(deniedRequests(requests, scheduledGrants()), []);
});

/**
 * Verbs whose code paths these runs do not reach, each still needed: the event recorder patches
 * an Event (count and lastTimestamp) only when the same Event repeats within its aggregation
 * window (kube/event-recorder.ts, tested there); these runs write no Event twice.
 */
const NOT_REACHED = [`patch events in ${NS}`, 'patch events in default'];

void test('every verb of every rule is used by some request (least privilege)', () => {
  assert.deepEqual(
    unusedVerbs(requests, scheduledGrants()).filter((u) => !NOT_REACHED.includes(u)),
    [],
  );
});

/** `grants` with `verb` taken out of every rule on `resource`. */
function withoutVerb(grants: readonly ResolvedGrant[], resource: string, verb: string): ResolvedGrant[] {
  return grants.map((g) =>
    g.grant.rule.resources?.includes(resource)
      ? { ...g, grant: { ...g.grant, rule: { ...g.grant.rule, verbs: g.grant.rule.verbs.filter((v) => v !== verb) } } }
      : g,
  );
}

void test('planted defects: a verb taken away is named with the request and the run that made it; a verb added and never used is named', () => {
  const denied = deniedRequests(requests, withoutVerb(scheduledGrants(), 'upgradejobs', 'delete'));
  assert.equal(denied.length, 1, denied.join('\n'));
  const line = denied[0] ?? '';
  assert.ok(line.startsWith(`delete managedupgrade.appuio.io/upgradejobs `), line);
  assert.ok(line.includes(`  [DELETE /apis/managedupgrade.appuio.io/v1beta1/namespaces/${NS}/upgradejobs/`), line);
  assert.ok(line.endsWith(`  made by: ${EXTENDED}`), line);
  const extra = scheduledGrants().map((g) =>
    g.grant.rule.resources?.includes('nodeforcedrains')
      ? { ...g, grant: { ...g.grant, rule: { ...g.grant.rule, verbs: [...g.grant.rule.verbs, 'create'] } } }
      : g,
  );
  assert.deepEqual(
    unusedVerbs(requests, extra).filter((u) => !NOT_REACHED.includes(u)),
    [`create nodeforcedrains in ${NS}`],
  );
});

void test('RBAC: the Lease rule names the Lease, the code files of every reason exist, no wildcard, no name limit on create', () => {
  const grants = [...scheduledOperatorPermissions(OPTIONS), ...scheduledLeaderElectionPermissions(OPTIONS)];
  assert.ok(
    grants.some(
      (g) => g.rule.resources?.includes('leases') && g.rule.resourceNames?.includes(SCHEDULED_LEADER_ELECTION_ID),
    ),
  );
  for (const g of grants) {
    assert.ok(g.code.length > 0 && g.reason.length > 0);
    for (const f of g.code) assert.ok(existsSync(fileURLToPath(new URL(`../../${f}`, import.meta.url))), `${f} exists`);
    for (const list of [g.rule.apiGroups, g.rule.resources, g.rule.verbs]) assert.ok(!(list ?? []).includes('*'));
    if (g.rule.resourceNames)
      assert.ok(!g.rule.verbs.some((v) => v === 'create' || v === 'deletecollection'), 'names cannot limit create');
  }
  assert.deepEqual(
    scheduledRoles(OPTIONS).map((r) => r.namespace),
    [undefined, NS, 'openshift-machine-api', 'default', NS],
  );
});
