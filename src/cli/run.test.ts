/**
 * `upgrade-operator run` wired against the embedded API server: Lease leader election (a
 * standby replica takes over when the leader stops), the three endpoints, and the controllers
 * acting only while leading.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { ConfigMapResource, EventResource, LeaseResource, NamespaceResource } from '../api/builtin.js';
import { operatorConfigMap } from '../api/deploy/managed-operator-manifests.js';
import { operatorManifestOptions } from './manifests.js';
import {
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
  ManagedUpgradeConfigResource,
} from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { managedUpgradeConfigCrd } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { customResourceDefinitions } from '../api/manifests.js';
import { ScheduledUpgradeConfigResource } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { openshiftCustomResourceDefinitions } from '../api/openshift/crds.js';
import { startApiServer } from '../apiserver/server.js';
import { KubeClient } from '../kube/client.js';
import { RealClock } from '../lib/clock.js';
import { silentLogger, type Logger } from '../lib/log.js';
import { capturedLogger } from '../lib/log.test-support.js';
import { parseExposition, type ParsedFamily } from '../kube/metrics-exposition.test-support.js';
import { installCustomResourceDefinitions } from '../sim/install-crds.js';
import { rehearsal } from './rehearsal.js';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID, parseFlows } from './commands/run.js';
import { parseBindAddress, rehearsedRunOptions, runOperator, type RunningEndpoints, type RunOptions } from './run.js';

const NS = MANAGED_UPGRADE_OPERATOR_NAMESPACE;

/** The embedded API server on the real clock, a kubeconfig file for it, and a client. */
async function apiServer(
  t: TestContext,
  namespace: string,
): Promise<{ client: KubeClient; kubeconfig: string; logger: Logger }> {
  const clock = new RealClock();
  const logger = silentLogger();
  const server = await startApiServer({ port: 0, clock, logger });
  const dir = mkdtempSync(join(tmpdir(), 'run-test-'));
  const client = new KubeClient({
    config: { server: server.url, insecureSkipTLSVerify: false, auth: () => Promise.resolve(undefined), namespace },
    clock,
    logger,
  });
  t.after(async () => {
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  return { client, kubeconfig, logger };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await request(url);
  return { status: res.statusCode, body: await res.body.text() };
}

/** The sum of a family's samples that carry these labels (0 when none). */
function total(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string>): number {
  return (families.get(name)?.samples ?? [])
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/**
 * Scrapes the metrics endpoint until the controller has reconciled, then checks
 * controller-runtime's families, the rest client's and the process's are there (issue 16).
 */
async function runtimeFamilies(metricsUrl: string, controller: string): Promise<Map<string, ParsedFamily>> {
  const families = await until(`a reconcile of ${controller} counted`, async () => {
    const f = parseExposition((await get(`${metricsUrl}/metrics`)).body);
    return total(f, 'controller_runtime_reconcile_total', { controller }) > 0 ? f : undefined;
  });
  assert.equal(total(families, 'controller_runtime_max_concurrent_reconciles', { controller }), 1);
  assert.ok(total(families, 'controller_runtime_reconcile_time_seconds', { controller, le: '+Inf' }) > 0);
  assert.ok(total(families, 'workqueue_adds_total', { name: controller, controller }) > 0);
  assert.ok(total(families, 'workqueue_work_duration_seconds', { name: controller, le: '+Inf' }) > 0);
  assert.ok(families.get('workqueue_depth')?.samples.some((s) => s.labels['name'] === controller));
  assert.ok(total(families, 'rest_client_requests_total', { code: '200', method: 'GET' }) > 0);
  for (const name of ['process_cpu_user_seconds_total', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes'])
    assert.ok(families.has(name), name);
  return families;
}

/** `run`'s defaults on loopback, with fast leader election; each test sets its flows and namespace. */
function testRunOptions(kubeconfig: string, identity: string): Omit<RunOptions, 'flows' | 'namespace'> {
  return {
    managedUpstreamClusterVersionName: 'version',
    managedClusterVersionName: 'version',
    managedClusterVersionNamespace: '',
    machineNamespace: 'openshift-machine-api',
    nodeDrainReconcileInterval: 180_000,
    kubeconfig,
    identity,
    prometheusUrl: 'http://127.0.0.1:9',
    alertmanagerUrl: 'http://127.0.0.1:9',
    metricsBindAddress: '127.0.0.1:0',
    collectorBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    leaderElect: true,
    leaderElectLeaseDuration: 2_000,
    leaderElectRenewDeadline: 1_500,
    leaderElectRetryPeriod: 200,
  };
}

/** The scheduled UpgradeConfig `upgrades/weekly` with a cron in UTC and no health checks. */
function weeklyConfig(cron: string): never {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeConfig',
    metadata: { name: 'weekly', namespace: 'upgrades' },
    spec: {
      schedule: { cron, location: 'UTC' },
      maxSchedulingDelay: '1h',
      jobTemplate: { spec: { config: { preUpgradeHealthChecks: {}, postUpgradeHealthChecks: {} } } },
    },
  } as never;
}

void test('bind addresses: host:port, :port and port', () => {
  assert.deepEqual(parseBindAddress('127.0.0.1:8383'), { host: '127.0.0.1', port: 8383 });
  assert.deepEqual(parseBindAddress(':8089'), { host: '0.0.0.0', port: 8089 });
  assert.deepEqual(parseBindAddress('[::1]:0'), { host: '::1', port: 0 });
  assert.throws(() => parseBindAddress('localhost:http'), /is not host:port/);
});

void test('flows: managed, scheduled or both; anything else is refused', () => {
  assert.deepEqual(parseFlows('managed'), ['managed']);
  assert.deepEqual(parseFlows('scheduled, managed,scheduled'), ['scheduled', 'managed']);
  assert.throws(
    () => parseFlows('managed,nightly'),
    /must be managed, scheduled or managed,scheduled \(got "managed,nightly"\)/,
  );
  assert.throws(() => parseFlows(','), /must be/);
});

void test('run: one leader at a time through the Lease; the standby takes over when the leader stops; endpoints serve on every replica', async (t) => {
  const { client, kubeconfig, logger } = await apiServer(t, NS);
  // Readiness needs every cache synced, so the OpenShift kinds must exist (as on OpenShift).
  await installCustomResourceDefinitions(client, [...openshiftCustomResourceDefinitions(), managedUpgradeConfigCrd()]);
  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });

  const options = (identity: string): RunOptions => ({
    ...testRunOptions(kubeconfig, identity),
    flows: ['managed'],
    namespace: 'default',
    leaderElectionId: LEADER_ELECTION_ID,
  });
  const start = (
    identity: string,
  ): { abort: AbortController; done: Promise<void>; endpoints: Promise<RunningEndpoints> } => {
    const abort = new AbortController();
    let listening!: (e: RunningEndpoints) => void;
    const endpoints = new Promise<RunningEndpoints>((r) => (listening = r));
    const done = runOperator(options(identity), abort.signal, logger, listening);
    return { abort, done, endpoints };
  };
  const holder = (): Promise<string | undefined> =>
    client.get(LeaseResource, NS, LEADER_ELECTION_ID).then((l) => l.spec?.holderIdentity || undefined);

  const a = start('replica-a');
  const aEndpoints = await a.endpoints;
  assert.equal(
    await until('replica-a to lead', async () => ((await holder()) === 'replica-a' ? true : undefined)),
    true,
  );
  const b = start('replica-b');
  const bEndpoints = await b.endpoints;
  t.after(() => {
    a.abort.abort();
    b.abort.abort();
  });

  // Both replicas serve their endpoints; only the leader's controllers act.
  for (const e of [aEndpoints, bEndpoints]) {
    assert.equal((await get(`${e.probes}/healthz`)).status, 200);
    await until('readiness', async () => ((await get(`${e.probes}/readyz`)).status === 200 ? true : undefined));
    assert.match((await get(`${e.metrics}/metrics`)).body, /# TYPE upgradeoperator_upgrade_started_timestamp gauge/);
    assert.equal((await get(`${e.collector}/metrics`)).status, 200);
  }
  await client.create(ManagedUpgradeConfigResource, {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: 'not-the-managed-one', namespace: NS },
    spec: {
      type: 'OSD',
      upgradeAt: '2030-01-01T00:00:00Z',
      PDBForceDrainTimeout: 60,
      desired: { version: '4.15.38', channel: 'stable-4.15' },
    },
  });
  const ignored = await until('the Ignored Event', async () =>
    (await client.list(EventResource, { namespace: NS })).items.find((e) => e.reason === 'Ignored'),
  );
  assert.match(ignored.message ?? '', /acts only on UpgradeConfigs named managed-upgrade-config/);
  assert.equal(ignored.count ?? 1, 1, 'one replica acted');
  assert.equal(await holder(), 'replica-a');
  // controller-runtime's families: the leader reconciled; the standby's Lease status is 0.
  const leader = await runtimeFamilies(aEndpoints.metrics, 'upgradeconfig');
  assert.equal(total(leader, 'leader_election_master_status', { name: LEADER_ELECTION_ID }), 1);
  const standby = parseExposition((await get(`${bEndpoints.metrics}/metrics`)).body);
  assert.equal(standby.get('leader_election_master_status')?.samples.length, 1);
  assert.equal(total(standby, 'leader_election_master_status', { name: LEADER_ELECTION_ID }), 0);
  assert.equal(total(standby, 'controller_runtime_reconcile_total', { controller: 'upgradeconfig' }), 0);

  // The leader stops: it drains, releases the Lease, and the standby takes over.
  a.abort.abort();
  await a.done;
  assert.equal(
    await until('replica-b to lead', async () => ((await holder()) === 'replica-b' ? true : undefined)),
    true,
  );
  b.abort.abort();
  await b.done;
  assert.equal(await holder(), undefined, 'the Lease is released on a clean stop');
});

void test('run --flows scheduled: APPUiO’s Lease in the scheduled namespace; the UpgradeConfig controller reports a bad schedule', async (t) => {
  const { client, kubeconfig, logger } = await apiServer(t, 'upgrades');
  await installCustomResourceDefinitions(client, [
    ...openshiftCustomResourceDefinitions(),
    ...customResourceDefinitions(),
  ]);
  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'upgrades' } });
  const abort = new AbortController();
  t.after(() => abort.abort());
  let listening!: (e: RunningEndpoints) => void;
  const endpoints = new Promise<RunningEndpoints>((r) => (listening = r));
  const done = runOperator(
    { ...testRunOptions(kubeconfig, 'replica-s'), flows: ['scheduled'], namespace: 'upgrades' },
    abort.signal,
    logger,
    listening,
  );
  await until('the APPUiO Lease', async () =>
    (await client.get(LeaseResource, 'upgrades', SCHEDULED_LEADER_ELECTION_ID)).spec?.holderIdentity === 'replica-s'
      ? true
      : undefined,
  );
  await client.create(ScheduledUpgradeConfigResource, weeklyConfig('0 25 * * *'));
  const invalid = await until('ScheduleValid=False', async () =>
    (await client.get(ScheduledUpgradeConfigResource, 'upgrades', 'weekly')).status?.conditions?.find(
      (c) => c.type === 'ScheduleValid' && c.status === 'False',
    ),
  );
  assert.match(invalid.message ?? '', /25/);
  const families = await runtimeFamilies((await endpoints).metrics, 'scheduled-upgradeconfig');
  assert.equal(total(families, 'leader_election_master_status', { name: SCHEDULED_LEADER_ELECTION_ID }), 1);
  abort.abort();
  await done;
});

void test('run --flows managed,scheduled: one metrics endpoint with both flows’ families and every controller’s controller-runtime families', async (t) => {
  const { client, kubeconfig, logger } = await apiServer(t, 'upgrades');
  await installCustomResourceDefinitions(client, [
    ...openshiftCustomResourceDefinitions(),
    ...customResourceDefinitions(),
  ]);
  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'upgrades' } });
  const abort = new AbortController();
  let listening!: (e: RunningEndpoints) => void;
  const endpoints = new Promise<RunningEndpoints>((r) => (listening = r));
  const done = runOperator(
    {
      ...testRunOptions(kubeconfig, 'both'),
      flows: ['managed', 'scheduled'],
      namespace: 'upgrades',
      leaderElect: false,
    },
    abort.signal,
    logger,
    listening,
  );
  t.after(async () => {
    abort.abort();
    await done.catch(() => undefined);
  });
  const { metrics } = await endpoints;
  await client.create(ScheduledUpgradeConfigResource, weeklyConfig('0 1 * * *'));
  const families = await runtimeFamilies(metrics, 'scheduled-upgradeconfig');
  assert.ok(families.has('upgradeoperator_upgrade_started_timestamp'), 'the managed flow’s families');
  assert.ok(families.has('openshift_upgrade_controller_cluster_upgrading'), 'the scheduled flow’s families');
  const controllers = new Set(
    families.get('controller_runtime_reconcile_total')?.samples.map((s) => s.labels['controller']),
  );
  for (const c of ['upgradeconfig', 'nodekeeper', 'machineconfigpool', 'scheduled-upgradeconfig', 'upgradejob'])
    assert.ok(controllers.has(c), c);
  assert.equal(families.get('leader_election_master_status')?.samples.length ?? 0, 0, 'no Lease, no series');
  abort.abort();
  await done;
});

void test('run on an API server without the kinds it reads: not ready, /readyz?verbose names each with the fix, the log says it once; ready once installed', async (t) => {
  const { client, kubeconfig } = await apiServer(t, NS);
  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await client.create(ConfigMapResource, operatorConfigMap(operatorManifestOptions()));
  const { logger, lines } = capturedLogger<{ level: number; msg: string; err?: string; informer?: string }>();
  const abort = new AbortController();
  let listening!: (e: RunningEndpoints) => void;
  const endpoints = new Promise<RunningEndpoints>((r) => (listening = r));
  const done = runOperator(
    { ...testRunOptions(kubeconfig, 'bare'), flows: ['managed'], namespace: 'default' },
    abort.signal,
    logger,
    listening,
  );
  t.after(async () => {
    abort.abort();
    await done.catch(() => undefined);
  });
  const { probes } = await endpoints;
  const verbose = await until('the informers to report the missing kinds', async () => {
    const r = await get(`${probes}/readyz?verbose`);
    return r.body.includes('upgradeconfigs.upgrade.managed.openshift.io/v1alpha1 (') ? r : undefined;
  });
  assert.equal(verbose.status, 503);
  assert.match(
    verbose.body,
    /\[-\]informer-sync failed: caches not synced: .*clusterversions\.config\.openshift\.io\/v1 \(the API server does not serve clusterversions\.config\.openshift\.io\/v1: OpenShift 4 serves it: is this an OpenShift cluster \(or a rehearsal of one\)\?\)/,
  );
  assert.match(
    verbose.body,
    /upgradeconfigs\.upgrade\.managed\.openshift\.io\/v1alpha1 \(the API server does not serve upgradeconfigs\.upgrade\.managed\.openshift\.io\/v1alpha1: install the operator's CustomResourceDefinitions: kubectl apply -k deploy\/crds\)/,
  );
  assert.equal((await get(`${probes}/readyz`)).body, 'readyz check failed\n');
  // Installed, the caches sync and the operator is ready.
  await installCustomResourceDefinitions(client, [...openshiftCustomResourceDefinitions(), managedUpgradeConfigCrd()]);
  await until('ready', async () => ((await get(`${probes}/readyz`)).status === 200 ? true : undefined), 60_000);
  const notServed = lines.filter((l) => l.informer === 'clusterversions' && /does not serve/.test(l.err ?? ''));
  assert.equal(notServed.length, 1, 'one warning per kind, however often the list is retried');
  // The operator ConfigMap existed from the start: it is never reported missing, not even before the cache synced.
  assert.deepEqual(
    lines.filter((l) => /ConfigMap has problems/.test(l.msg)),
    [],
  );
});

void test("run --rehearsal: the file's cluster, flows and namespace; the flows on its scaled clock, the Lease on the wall clock", async (t) => {
  const { client, kubeconfig, logger } = await apiServer(t, 'upgrades');
  await installCustomResourceDefinitions(client, [
    ...openshiftCustomResourceDefinitions(),
    ...customResourceDefinitions(),
  ]);
  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'upgrades' } });
  const dir = mkdtempSync(join(tmpdir(), 'run-rehearsal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'rehearsal.json');
  const wallNow = new RealClock().now();
  // Virtual time starts at 2030-06-01T00:00Z and runs a minute per wall second.
  writeFileSync(
    file,
    JSON.stringify(
      rehearsal({
        scenario: 'a test',
        kubeconfig,
        prometheusUrl: 'http://127.0.0.1:9',
        alertmanagerUrl: 'http://127.0.0.1:9',
        flows: ['scheduled'],
        namespace: 'upgrades',
        scaling: { start: Date.UTC(2030, 5, 1), realOrigin: wallNow, scale: 60 },
      }),
    ),
  );
  const { kubeconfig: _none, ...flags } = testRunOptions('', 'replica-r');
  const options = await rehearsedRunOptions({ ...flags, flows: ['managed'], namespace: 'default' }, file, () => false);
  assert.equal(options.kubeconfig, kubeconfig);
  assert.deepEqual([options.flows, options.namespace], [['scheduled'], 'upgrades']);
  const abort = new AbortController();
  t.after(() => abort.abort());
  const done = runOperator(options, abort.signal, logger);
  const lease = await until('the APPUiO Lease', async () => {
    const l = await client.get(LeaseResource, 'upgrades', SCHEDULED_LEADER_ELECTION_ID);
    return l.spec?.holderIdentity === 'replica-r' ? l : undefined;
  });
  const renewed = Date.parse(lease.spec?.renewTime ?? '');
  assert.ok(Math.abs(renewed - wallNow) < 60_000, `the Lease is renewed on the wall clock: ${lease.spec?.renewTime}`);
  await client.create(ScheduledUpgradeConfigResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeConfig',
    metadata: { name: 'nightly', namespace: 'upgrades' },
    spec: {
      schedule: { cron: '0 1 * * *', location: 'UTC' },
      maxSchedulingDelay: '1h',
      jobTemplate: { spec: { config: { preUpgradeHealthChecks: {}, postUpgradeHealthChecks: {} } } },
    },
  } as never);
  const next = await until('the next possible schedules', async () => {
    const c = await client.get(ScheduledUpgradeConfigResource, 'upgrades', 'nightly');
    return c.status?.nextPossibleSchedules?.[0]?.time;
  });
  assert.equal(next, '2030-06-01T01:00:00Z', "planned on the rehearsal's time, not on this machine's");
  abort.abort();
  await done;

  await assert.rejects(
    () =>
      rehearsedRunOptions(
        { ...flags, flows: ['managed'], namespace: 'default' },
        join(dir, 'missing.json'),
        () => false,
      ),
    /cannot read the rehearsal file .*missing\.json/,
  );
  writeFileSync(join(dir, 'bad.json'), '{"kind": "UpgradeOperatorRehearsal"}');
  await assert.rejects(
    () =>
      rehearsedRunOptions({ ...flags, flows: ['managed'], namespace: 'default' }, join(dir, 'bad.json'), () => false),
    /invalid rehearsal file .*bad\.json \(written by simulate --operator external --rehearsal-out\):\n {2}\/: the key "kubeconfig" is required/,
  );
});
