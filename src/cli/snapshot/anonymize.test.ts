import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { matchesLabelSelector } from '../../sim/workloads/label-selector.js';
import { isJsonObject } from '../../lib/json.js';
import { anonymizeSnapshot, stableName } from './anonymize.js';
import { snapshotScenario } from './snapshot-scenario.js';
import { sampleSnapshot } from './snapshot.test-support.js';

const derivedAlerts = new Set(['Watchdog']);

void test('the same name always becomes the same hash, different names different ones', () => {
  assert.equal(stableName('node', 'w0'), stableName('node', 'w0'));
  assert.notEqual(stableName('node', 'w0'), stableName('node', 'w1'));
  assert.match(stableName('node', 'w0'), /^node-[0-9a-f]{10}$/);
  assert.deepEqual(anonymizeSnapshot(sampleSnapshot()), anonymizeSnapshot(sampleSnapshot()));
});

void test('no name of the cluster is left; platform namespaces, roles, zones and versions are', () => {
  const file = snapshotScenario(anonymizeSnapshot(sampleSnapshot()), { derivedAlerts });
  const text = stringify({
    ...file,
    operator: undefined,
    manifests: file.manifests?.filter((m) => m['kind'] !== 'UpgradeConfig'),
  });
  for (const name of [
    'w0',
    'm0',
    'shop',
    'checkout',
    'payments',
    'prod-worker',
    'team.example.com',
    'gpu',
    'quay.io',
    'debug',
    'db',
  ])
    assert.ok(!new RegExp(`\\b${name.replace('.', '\\.')}\\b`).test(text), `${name} is left`);
  for (const kept of [
    'eu-1a',
    '4.14.30',
    'stable-4.14',
    'node-role.kubernetes.io/master',
    'openshift-managed-upgrade-operator',
    'KubePodCrashLooping',
  ])
    assert.ok(text.includes(kept), `${kept} is gone`);
});

void test('references still hold: selectors select, nodes name their MachineSet, bare pods their node, tolerations their taints', () => {
  const file = snapshotScenario(anonymizeSnapshot(sampleSnapshot()), { derivedAlerts });
  const manifests = file.manifests ?? [];
  const spec = (kind: string): Record<string, unknown> => {
    const m = manifests.find((x) => x['kind'] === kind);
    assert.ok(m && isJsonObject(m['spec']));
    return m['spec'];
  };
  const pdb = spec('PodDisruptionBudget') as { selector: { matchLabels: Record<string, string> } };
  const deployments = manifests.filter((m) => m['kind'] === 'Deployment');
  const selected = deployments.filter((d) =>
    matchesLabelSelector(
      pdb.selector,
      (d['spec'] as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels,
    ),
  );
  assert.equal(selected.length, 1, 'the PDB selects the checkout Deployment and nothing else');
  const nodes = file.cluster.nodes ?? [];
  const machineSets = new Set((file.cluster.machineSets ?? []).map((ms) => ms.name));
  assert.deepEqual(
    nodes.filter((n) => n.machineSet !== undefined).map((n) => machineSets.has(n.machineSet ?? '')),
    [true, true],
  );
  const bare = spec('Pod') as { nodeName: string };
  assert.ok(nodes.some((n) => n.name === bare.nodeName));
  const checkout = selected[0]?.['spec'] as {
    template: { spec: { nodeSelector: Record<string, string>; tolerations: Array<{ key: string; value: string }> } };
  };
  const [key, value] = Object.entries(checkout.template.spec.nodeSelector)[0] ?? [];
  assert.ok(
    nodes.some((n) => key !== undefined && n.labels?.[key] === value),
    'the nodeSelector still matches nodes',
  );
  const toleration = checkout.template.spec.tolerations[0];
  assert.ok(nodes.some((n) => n.taints?.some((t) => t.key === toleration?.key && t.value === toleration.value)));
  assert.equal(
    file.snapshot?.notes?.some((n) => n.includes('MachineConfigPool pool-')),
    true,
    'the custom pool named by its hash',
  );
});
