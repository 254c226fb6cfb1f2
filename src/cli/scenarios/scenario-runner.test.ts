/**
 * A scenario with its operator in another process (`simulate --operator external`), against an
 * API server on the wall clock: what the external operator is told, and that the scenario waits
 * for it. And what the user prepared before a run (the operator's namespace) is adopted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapResource, LeaseResource, NamespaceResource, ServiceAccountResource } from '../../api/builtin.js';
import { runCheckedScenario } from '../../api/deploy/operator-requests.test-support.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { parseScenarioFile } from './scenario-file.js';
import type { ExternalOperatorEndpoints, OperatorLease } from './scenario-runner.js';
import { startSimEnvironment } from './sim-environment.js';
import { startExternalServer } from './external-server.test-support.js';

const SCENARIO = `description: an OCM policy, the operator elsewhere, a customer namespace and a marker applied at the start
cluster: {profile: ha-cloud, version: 4.14.30, channel: stable-4.14}
ocm:
  policies:
    - {version: 4.15.38, nextRunIn: 30m}
operator:
  config: |
    configManager:
      source: OCM
      ocmBaseUrl: {{ ocmUrl }}
manifests:
  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: marker, namespace: shop}, data: {at: "{{ +0m }}"}}
end: {timeout: 2m}
`;

void test('an external operator is told where the monitoring and OCM are; the manifests wait for its Lease, the Namespaces go first', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scenario-runner-'));
  const { server, kubeconfig, admin } = await startExternalServer(dir, 'external');
  t.after(async () => {
    await admin.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const parsed = parseScenarioFile(SCENARIO);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const env = await startSimEnvironment({ seed: 1, external: { kubeconfig, timeScale: 600 } });
  t.after(() => env.close());

  let told!: (told: { endpoints: ExternalOperatorEndpoints; lease: OperatorLease }) => void;
  const ready = new Promise<{ endpoints: ExternalOperatorEndpoints; lease: OperatorLease }>(
    (resolve) => (told = resolve),
  );
  let holder: string | undefined;
  const running = runCheckedScenario(env, 'external-operator', parsed.scenario, {
    seed: 1,
    externalOperator: {
      ready: (endpoints, lease) => told({ endpoints, lease }),
      arrived: (h) => void (holder = h),
    },
  });
  const { endpoints, lease } = await ready;
  assert.deepEqual(lease, { namespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE, name: 'managed-upgrade-operator-lock' });
  assert.deepEqual(endpoints.flows, ['managed']);
  for (const url of [endpoints.prometheusUrl, endpoints.alertmanagerUrl, endpoints.ocmUrl])
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  const operatorConfig = await admin.get(
    ConfigMapResource,
    MANAGED_UPGRADE_OPERATOR_NAMESPACE,
    MANAGED_UPGRADE_CONFIGMAP_NAME,
  );
  assert.match(
    operatorConfig.data?.[MANAGED_UPGRADE_CONFIGMAP_KEY] ?? '',
    new RegExp(`ocmBaseUrl: ${endpoints.ocmUrl ?? '?'}\\n`),
  );
  // Waiting: the Namespaces are there, nothing else of the manifests.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(await admin.getIfExists(NamespaceResource, undefined, 'shop'));
  assert.equal(await admin.getIfExists(ConfigMapResource, 'shop', 'marker'), undefined);
  assert.equal(holder, undefined);

  // The operator (here: its Lease) arrives; the scenario starts.
  await admin.create(LeaseResource, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { namespace: lease.namespace, name: lease.name },
    spec: { holderIdentity: 'upgrade-operator-0', leaseDurationSeconds: 15 },
  });
  const outcome = await running;
  t.after(() => outcome.run.close());
  assert.equal(holder, 'upgrade-operator-0');
  assert.ok(await admin.getIfExists(ConfigMapResource, 'shop', 'marker'));
  assert.deepEqual([outcome.report['operator'], outcome.report['operatorStarts']], ['external', 0]);
});

void test('an external operator is refused a scenario that restarts the in-process one, before anything runs', async () => {
  const parsed = parseScenarioFile(`description: restarts
cluster: {profile: ha-cloud, version: 4.14.30, channel: stable-4.14}
operator: {flows: [scheduled]}
actions:
  - {name: restart, after: 5m, do: {restartOperator: true}}
`);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const env = await startSimEnvironment({ seed: 1 });
  try {
    await assert.rejects(
      runCheckedScenario(env, 'restarts', parsed.scenario, {
        seed: 1,
        externalOperator: { ready: () => assert.fail('nothing runs') },
      }),
      /this scenario cannot run with an external operator:\n {2}- action "restart" \(restartOperator\) controls the operator process of simulate/,
    );
  } finally {
    await env.close();
  }
});

void test('a namespace the user prepared (shipped ServiceAccount, ConfigMap) is adopted, as is an existing manifest Namespace', async (t) => {
  const parsed = parseScenarioFile(`description: the operator's namespace and a customer's exist before the run
cluster: {profile: ha-cloud, version: 4.14.30, channel: stable-4.14}
operator:
  config: |
    configManager:
      source: LOCAL
      localConfigName: managed-upgrade-config
manifests:
  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: marker, namespace: shop}}
end: {timeout: 2m}
`);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const env = await startSimEnvironment({ seed: 1 });
  t.after(() => env.close());
  const NS = MANAGED_UPGRADE_OPERATOR_NAMESPACE;
  await env.client.create(NamespaceResource, { metadata: { name: NS, labels: { prepared: 'by-user' } } });
  await env.client.create(ServiceAccountResource, { metadata: { name: 'upgrade-operator', namespace: NS } });
  await env.client.create(ConfigMapResource, {
    metadata: { name: MANAGED_UPGRADE_CONFIGMAP_NAME, namespace: NS },
    data: { [MANAGED_UPGRADE_CONFIGMAP_KEY]: 'configManager: {source: OCM}\n', note: 'kept' },
  });
  await env.client.create(NamespaceResource, { metadata: { name: 'shop', labels: { prepared: 'by-user' } } });

  const outcome = await runCheckedScenario(env, 'adopted-namespace', parsed.scenario, { seed: 1 });
  t.after(() => outcome.run.close());
  assert.equal(outcome.run.ended, 'timeout');
  const ns = await env.client.get(NamespaceResource, undefined, NS);
  assert.equal(ns.metadata?.labels?.['prepared'], 'by-user');
  assert.ok(await env.client.getIfExists(ServiceAccountResource, NS, 'upgrade-operator'));
  const config = await env.client.get(ConfigMapResource, NS, MANAGED_UPGRADE_CONFIGMAP_NAME);
  assert.match(config.data?.[MANAGED_UPGRADE_CONFIGMAP_KEY] ?? '', /source: LOCAL/);
  assert.equal(config.data?.['note'], 'kept');
  assert.equal((await env.client.get(NamespaceResource, undefined, 'shop')).metadata?.labels?.['prepared'], 'by-user');
  assert.ok(await env.client.getIfExists(ConfigMapResource, 'shop', 'marker'));
});

void test("an action without a trigger runs once all the file's manifests are applied, not before", async (t) => {
  const namespaces = Array.from(
    { length: 5 },
    (_, i) => `  - {apiVersion: v1, kind: Namespace, metadata: {name: shop${i + 1}}}`,
  );
  const parsed = parseScenarioFile(`description: an action that needs the last manifest's Namespace
cluster: {profile: ha-cloud, version: 4.14.30, channel: stable-4.14}
manifests:
${namespaces.join('\n')}
actions:
  - name: a ConfigMap in the last Namespace
    do:
      apply:
        - {apiVersion: v1, kind: ConfigMap, metadata: {name: marker, namespace: shop5}}
end: {timeout: 1m}
`);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const env = await startSimEnvironment({ seed: 1 });
  t.after(() => env.close());
  const outcome = await runCheckedScenario(env, 'action-after-manifests', parsed.scenario, { seed: 1 });
  t.after(() => outcome.run.close());
  assert.deepEqual(outcome.run.actionsRun, [{ name: 'a ConfigMap in the last Namespace', elapsedMs: 0 }]);
  assert.ok(await env.client.getIfExists(ConfigMapResource, 'shop5', 'marker'), outcome.summary);
});
