/** The operator's install objects agree with the code that runs in them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../../cli/commands/run.js';
import { parseManagedOperatorConfig } from '../../managed/config/managed-operator-config.js';
import { OPERATOR_SETTINGS_ENV, defaultOperatorSettings } from '../../managed/config/operator-settings.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
} from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { OPERATOR_LABELS, OPERATOR_NAME } from './operator-objects.js';
import {
  OPERATOR_PORTS,
  managedOperatorManifestFiles,
  operatorConfigMap,
  operatorDeployment,
  operatorNamespace,
  operatorServiceMonitors,
  operatorServices,
  permissionsByNamespace,
} from './managed-operator-manifests.js';
import { managedOperatorPermissions } from './managed-operator-rbac.js';

const O = { version: '1.2.3', leaseName: 'the-lease' };

function container(): NonNullable<
  NonNullable<ReturnType<typeof operatorDeployment>['spec']>['template']['spec']
>['containers'][number] {
  const c = operatorDeployment(O).spec?.template.spec?.containers[0];
  assert.ok(c);
  return c;
}

void test('the namespace is scraped by the platform monitoring', () => {
  const ns = operatorNamespace(O);
  assert.equal(ns.metadata?.name, MANAGED_UPGRADE_OPERATOR_NAMESPACE);
  assert.equal(ns.metadata?.labels?.['openshift.io/cluster-monitoring'], 'true');
});

void test('the Deployment runs `run` from the versioned image, with the environment the settings read', () => {
  const d = operatorDeployment(O);
  assert.equal(d.spec?.replicas, 1);
  assert.deepEqual(d.spec?.selector.matchLabels, OPERATOR_LABELS);
  assert.deepEqual(d.spec?.template.metadata?.labels, OPERATOR_LABELS);
  assert.equal(d.spec?.template.spec?.serviceAccountName, OPERATOR_NAME);
  const c = container();
  assert.equal(c.image, 'quay.io/upgrade-operator/upgrade-operator:1.2.3');
  assert.deepEqual(c.args, ['run']);
  const env = new Map((c.env ?? []).map((e) => [e.name, e]));
  for (const name of Object.values(OPERATOR_SETTINGS_ENV)) assert.ok(env.has(name), `${name} is set`);
  assert.equal(env.get('OPERATOR_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath, 'metadata.namespace');
  assert.equal(
    env.get('WATCH_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath,
    'metadata.namespace',
    'the Role that grants UpgradeConfigs is in the operator namespace',
  );
  assert.equal(env.get('POD_NAME')?.valueFrom?.fieldRef?.fieldPath, 'metadata.name', 'leader-election identity');
  assert.equal(env.get('UPGRADE_CONFIG_NAMES')?.value, defaultOperatorSettings().upgradeConfigNames.join(','));
});

void test('container ports and probes match the defaults of `run`', () => {
  const defaults = new Map(runCommand().options.map((opt) => [opt.long, opt.defaultValue as unknown]));
  assert.equal(defaults.get('--metrics-bind-address'), `:${OPERATOR_PORTS.metrics.port}`);
  assert.equal(defaults.get('--collector-bind-address'), `:${OPERATOR_PORTS.collector.port}`);
  assert.equal(defaults.get('--health-probe-bind-address'), `:${OPERATOR_PORTS.probes.port}`);
  const c = container();
  assert.deepEqual(
    (c.ports ?? []).map((p) => [p.name, p.containerPort]),
    [
      [OPERATOR_PORTS.metrics.name, 8383],
      [OPERATOR_PORTS.collector.name, 8089],
      [OPERATOR_PORTS.probes.name, 8081],
    ],
  );
  assert.equal(c.livenessProbe?.httpGet?.path, '/healthz');
  assert.equal(c.readinessProbe?.httpGet?.path, '/readyz');
  assert.equal(c.livenessProbe?.httpGet?.port, OPERATOR_PORTS.probes.name);
  for (const p of c.ports ?? [])
    assert.ok((p.name ?? '').length <= 15, `port name ${p.name ?? ''} is an IANA service name`);
});

void test('the pod passes the restricted pod-security profile (OpenShift restricted-v2)', () => {
  const spec = operatorDeployment(O).spec?.template.spec;
  assert.equal(spec?.securityContext?.runAsNonRoot, true);
  assert.equal(spec?.securityContext?.seccompProfile?.type, 'RuntimeDefault');
  assert.equal(spec?.securityContext?.runAsUser, undefined, 'OpenShift assigns the user from the namespace range');
  const sc = container().securityContext;
  assert.equal(sc?.allowPrivilegeEscalation, false);
  assert.deepEqual(sc?.capabilities?.drop, ['ALL']);
  assert.equal(sc?.capabilities?.add, undefined);
  assert.equal(sc?.privileged, undefined);
  assert.equal(spec?.hostNetwork, undefined);
  assert.equal(spec?.volumes, undefined);
});

void test('runs on the control plane, with requests below limits', () => {
  const spec = operatorDeployment(O).spec?.template.spec;
  assert.deepEqual(spec?.nodeSelector, { 'node-role.kubernetes.io/master': '' });
  assert.deepEqual(
    (spec?.tolerations ?? []).map((t) => t.effect),
    ['NoSchedule', 'NoExecute'],
  );
  const r = container().resources;
  const mib = (q: unknown): number => Number(String(q).replace(/Mi$/, ''));
  const milli = (q: unknown): number => Number(String(q).replace(/m$/, ''));
  assert.ok(mib(r?.requests?.['memory']) < mib(r?.limits?.['memory']));
  assert.ok(milli(r?.requests?.['cpu']) < milli(r?.limits?.['cpu']));
  const nodeOptions = container().env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '';
  const heap = Number(/--max-old-space-size=(\d+)/.exec(nodeOptions)?.[1]);
  assert.ok(heap > 0 && heap < mib(r?.limits?.['memory']), 'the V8 heap cap is below the memory limit');
});

void test('each Service selects the pod and targets a named container port; each ServiceMonitor selects exactly one Service', () => {
  const ports = new Set((container().ports ?? []).map((p) => p.name));
  const services = operatorServices(O);
  for (const s of services) {
    assert.deepEqual(s.spec?.selector, OPERATOR_LABELS);
    for (const p of s.spec?.ports ?? [])
      assert.ok(ports.has(String(p.targetPort)), `${s.metadata?.name ?? ''} targets ${String(p.targetPort)}`);
  }
  for (const m of operatorServiceMonitors(O)) {
    const selected = services.filter((s) =>
      Object.entries(m.spec.selector.matchLabels).every(([k, v]) => s.metadata?.labels?.[k] === v),
    );
    assert.equal(selected.length, 1, m.metadata.name);
    assert.equal(
      m.metadata.namespace,
      MANAGED_UPGRADE_OPERATOR_NAMESPACE,
      'no namespaceSelector: the ServiceMonitor looks in its own namespace',
    );
    assert.ok(!('namespaceSelector' in m.spec));
    assert.ok(selected[0]?.spec?.ports?.some((p) => p.name === m.spec.endpoints[0]?.port));
  }
});

void test('the sample ConfigMap parses without a single problem', () => {
  const text = operatorConfigMap(O).data?.[MANAGED_UPGRADE_CONFIGMAP_KEY];
  const parsed = parseManagedOperatorConfig(text);
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.config.upgradeType, 'OSD');
  assert.equal(parsed.config.configManager.source, 'LOCAL');
  assert.equal(parsed.config.nodeDrain.timeOutMs, 45 * 60_000);
});

void test('RBAC: the Lease rule names the Lease, the code files of every reason exist, no wildcard', () => {
  const grants = managedOperatorPermissions(O);
  assert.ok(grants.some((g) => g.rule.resources?.includes('leases') && g.rule.resourceNames?.includes('the-lease')));
  for (const g of grants) {
    assert.ok(g.code.length > 0 && g.reason.length > 0);
    for (const f of g.code) assert.ok(existsSync(fileURLToPath(new URL(`../../${f}`, import.meta.url))), `${f} exists`);
    for (const list of [g.rule.apiGroups, g.rule.resources, g.rule.verbs]) assert.ok(!(list ?? []).includes('*'));
    if (g.rule.resourceNames)
      assert.ok(!g.rule.verbs.some((v) => v === 'create' || v === 'deletecollection'), 'names cannot limit create');
  }
  assert.deepEqual(
    [...permissionsByNamespace(O).keys()],
    [undefined, MANAGED_UPGRADE_OPERATOR_NAMESPACE, 'openshift-config', 'openshift-machine-api', 'default'],
  );
});

void test('files are numbered in apply order: namespace and account first, the workload after its RBAC and ConfigMap', () => {
  const files = managedOperatorManifestFiles(O);
  assert.deepEqual(
    files.map((f) => f.name),
    [...files.map((f) => f.name)].sort(),
  );
  const kinds = files.flatMap((f) => f.documents.map((d) => d.object['kind']));
  const at = (kind: string): number => kinds.indexOf(kind);
  assert.equal(at('Namespace'), 0);
  assert.ok(at('ServiceAccount') < at('ClusterRoleBinding'));
  assert.ok(at('ConfigMap') < at('Deployment'));
  assert.ok(at('Service') < at('ServiceMonitor'));
  for (const f of files)
    for (const d of f.documents)
      if (d.ruleComments) assert.equal(d.ruleComments.length, (d.object['rules'] as unknown[]).length);
});
