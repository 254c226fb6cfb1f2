/** The scheduled flow's install objects agree with the code that runs in them and with APPUiO's deployment. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand } from '../../cli/commands/run.js';
import { customResourceDefinitions } from '../manifests.js';
import { APPUIO_CONTROLLER_NAMESPACE, APPUIO_GROUP } from '../managedupgrade.appuio.io/v1beta1/group.js';
import { managedOperatorManifestFiles } from './managed-operator-manifests.js';
import { OPERATOR_LABELS, OPERATOR_NAME } from './operator-objects.js';
import {
  AGGREGATE_TO_CLUSTER_READER,
  SCHEDULED_OPERATOR_PORTS,
  SCHEDULED_METRICS_KEEP_REGEX,
  scheduledDeployment,
  scheduledMetricsService,
  scheduledNamespace,
  scheduledOperatorManifestFiles,
  scheduledServiceMonitor,
  scheduledUserRoles,
} from './scheduled-operator-manifests.js';

const O = { version: '1.2.3', leaseName: '9fced507.appuio.io' };

function container(): NonNullable<
  NonNullable<ReturnType<typeof scheduledDeployment>['spec']>['template']['spec']
>['containers'][number] {
  const c = scheduledDeployment(O).spec?.template.spec?.containers[0];
  assert.ok(c);
  return c;
}

void test("APPUiO's namespace, scraped by the platform monitoring", () => {
  const ns = scheduledNamespace(O);
  assert.equal(ns.metadata?.name, 'appuio-openshift-upgrade-controller');
  assert.equal(ns.metadata?.labels?.['openshift.io/cluster-monitoring'], 'true');
});

void test('the Deployment runs the scheduled flow with POD_NAMESPACE and POD_NAME from the downward API', () => {
  const d = scheduledDeployment(O);
  assert.equal(d.spec?.replicas, 1);
  assert.deepEqual(d.spec?.selector.matchLabels, OPERATOR_LABELS);
  assert.deepEqual(d.spec?.template.metadata?.labels, OPERATOR_LABELS);
  assert.equal(d.spec?.template.spec?.serviceAccountName, OPERATOR_NAME);
  const c = container();
  assert.equal(c.image, 'quay.io/upgrade-operator/upgrade-operator:1.2.3');
  const env = new Map((c.env ?? []).map((e) => [e.name, e]));
  assert.equal(env.get('POD_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath, 'metadata.namespace');
  assert.equal(env.get('POD_NAME')?.valueFrom?.fieldRef?.fieldPath, 'metadata.name', 'leader-election identity');
});

void test("`run` with the container's arguments, in the pod's namespace, serves the scheduled flow on the objects the Role grants", () => {
  const saved = process.env['POD_NAMESPACE'];
  process.env['POD_NAMESPACE'] = APPUIO_CONTROLLER_NAMESPACE;
  try {
    const cmd = runCommand();
    const [sub, ...args] = container().args ?? [];
    assert.equal(sub, 'run');
    const parsed = cmd.parseOptions(args);
    assert.deepEqual(parsed.unknown, []);
    const opts = cmd.opts<{
      flows: string[];
      namespace: string;
      managedClusterVersionNamespace: string;
      machineNamespace: string;
      leaderElect: boolean;
      leaderElectionId?: string;
    }>();
    assert.deepEqual(opts.flows, ['scheduled']);
    assert.equal(
      opts.namespace,
      APPUIO_CONTROLLER_NAMESPACE,
      'the six kinds are granted by a Role in the pod namespace',
    );
    assert.equal(opts.managedClusterVersionNamespace, APPUIO_CONTROLLER_NAMESPACE);
    assert.equal(opts.machineNamespace, 'openshift-machine-api', 'the Machines Role is there');
    assert.equal(opts.leaderElect, true);
    assert.equal(
      opts.leaderElectionId,
      undefined,
      "the scheduled flow alone uses APPUiO's Lease, the one the leader-election Role names",
    );
  } finally {
    if (saved === undefined) delete process.env['POD_NAMESPACE'];
    else process.env['POD_NAMESPACE'] = saved;
  }
});

void test('container ports and probes match the defaults of `run`', () => {
  const defaults = new Map(runCommand().options.map((opt) => [opt.long, opt.defaultValue as unknown]));
  assert.equal(defaults.get('--metrics-bind-address'), `:${SCHEDULED_OPERATOR_PORTS.metrics.port}`);
  assert.equal(defaults.get('--health-probe-bind-address'), `:${SCHEDULED_OPERATOR_PORTS.probes.port}`);
  const c = container();
  assert.deepEqual(
    (c.ports ?? []).map((p) => [p.name, p.containerPort]),
    [
      ['http-metrics', 8383],
      ['health', 8081],
    ],
  );
  assert.equal(c.livenessProbe?.httpGet?.path, '/healthz');
  assert.equal(c.readinessProbe?.httpGet?.path, '/readyz');
  assert.equal(c.readinessProbe?.httpGet?.port, SCHEDULED_OPERATOR_PORTS.probes.name);
});

void test("APPUiO's security context, and the restricted-v2 SCC", () => {
  const spec = scheduledDeployment(O).spec?.template.spec;
  assert.equal(spec?.securityContext?.runAsNonRoot, true);
  assert.equal(spec?.securityContext?.seccompProfile?.type, 'RuntimeDefault');
  assert.equal(spec?.securityContext?.runAsUser, undefined, 'OpenShift assigns the user from the namespace range');
  const sc = container().securityContext;
  assert.equal(sc?.allowPrivilegeEscalation, false);
  assert.deepEqual(sc?.capabilities?.drop, ['ALL']);
  assert.equal(sc?.privileged, undefined);
  assert.equal(spec?.hostNetwork, undefined);
  assert.equal(spec?.volumes, undefined);
});

void test("requests below limits, APPUiO's CPU request, the V8 heap capped below the memory limit", () => {
  const r = container().resources;
  const mib = (q: unknown): number => Number(String(q).replace(/Mi$/, ''));
  const milli = (q: unknown): number => Number(String(q).replace(/m$/, ''));
  assert.equal(r?.requests?.['cpu'], '10m');
  assert.ok(mib(r?.requests?.['memory']) < mib(r?.limits?.['memory']));
  assert.ok(milli(r?.requests?.['cpu']) < milli(r?.limits?.['cpu']));
  const heap = Number(
    /--max-old-space-size=(\d+)/.exec(container().env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '')?.[1],
  );
  assert.ok(heap > 0 && heap < mib(r?.limits?.['memory']));
});

void test('the Service targets the metrics port; the ServiceMonitor selects it and keeps only openshift_upgrade_controller_*', () => {
  const s = scheduledMetricsService(O);
  const m = scheduledServiceMonitor(O);
  assert.deepEqual(s.spec?.selector, OPERATOR_LABELS);
  assert.ok((container().ports ?? []).some((p) => p.name === s.spec?.ports?.[0]?.targetPort));
  assert.ok(Object.entries(m.spec.selector.matchLabels).every(([k, v]) => s.metadata?.labels?.[k] === v));
  assert.equal(m.spec.endpoints[0]?.port, s.spec?.ports?.[0]?.name);
  assert.equal(
    m.metadata.namespace,
    APPUIO_CONTROLLER_NAMESPACE,
    'no namespaceSelector: the ServiceMonitor looks in its own namespace',
  );
  assert.ok(!('namespaceSelector' in m.spec));
  assert.deepEqual(m.spec.endpoints[0]?.metricRelabelings, [
    { action: 'keep', sourceLabels: ['__name__'], regex: SCHEDULED_METRICS_KEEP_REGEX },
  ]);
  // Prometheus anchors relabel regexes.
  const keep = new RegExp(`^(?:${SCHEDULED_METRICS_KEEP_REGEX})$`);
  assert.ok(keep.test('openshift_upgrade_controller_upgradejob_state'));
  assert.ok(!keep.test('process_cpu_seconds_total') && !keep.test('nodejs_heap_size_total_bytes'));
});

void test('viewer and editor roles for each of the six kinds; only viewers aggregate (into cluster-reader)', () => {
  const plurals = customResourceDefinitions()
    .map((crd) => crd['spec'] as { group: string; names: { plural: string } })
    .filter((s) => s.group === APPUIO_GROUP)
    .map((s) => s.names.plural)
    .sort();
  assert.equal(plurals.length, 6);
  const roles = scheduledUserRoles();
  const viewers = roles.filter((r) => r.metadata?.name?.endsWith('-viewer-role'));
  const editors = roles.filter((r) => r.metadata?.name?.endsWith('-editor-role'));
  assert.equal(viewers.length + editors.length, roles.length);
  for (const [set, verbs] of [
    [viewers, ['get', 'list', 'watch']],
    [editors, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
  ] as const) {
    assert.deepEqual(set.map((r) => r.rules?.[0]?.resources?.[0]).sort(), plurals);
    for (const r of set) {
      assert.deepEqual(r.rules?.[0]?.verbs, verbs);
      assert.deepEqual(r.rules?.[1], {
        apiGroups: [APPUIO_GROUP],
        resources: [`${r.rules?.[0]?.resources?.[0] ?? ''}/status`],
        verbs: ['get'],
      });
    }
  }
  for (const r of viewers) assert.equal(r.metadata?.labels?.[AGGREGATE_TO_CLUSTER_READER], 'true');
  for (const r of editors)
    assert.ok(
      !Object.keys(r.metadata?.labels ?? {}).some((k) => k.includes('aggregate')),
      `${r.metadata?.name ?? ''} aggregates nowhere`,
    );
});

void test("files in apply order; no object shares kind, namespace and name with one of the managed flow's", () => {
  const files = scheduledOperatorManifestFiles(O);
  assert.deepEqual(
    files.map((f) => f.name),
    [...files.map((f) => f.name)].sort(),
  );
  const kinds = files.flatMap((f) => f.documents.map((d) => d.object['kind']));
  const at = (kind: string): number => kinds.indexOf(kind);
  assert.equal(at('Namespace'), 0);
  assert.ok(at('ServiceAccount') < at('ClusterRoleBinding'));
  assert.ok(at('RoleBinding') < at('Deployment'));
  assert.ok(at('Service') < at('ServiceMonitor'));
  for (const f of files)
    for (const d of f.documents)
      if (d.ruleComments) assert.equal(d.ruleComments.length, (d.object['rules'] as unknown[]).length);
  const key = (o: Record<string, unknown>): string => {
    const meta = o['metadata'] as { name: string; namespace?: string };
    return `${String(o['kind'])} ${meta.namespace ?? ''}/${meta.name}`;
  };
  const managed = new Set(
    managedOperatorManifestFiles({ version: '1.2.3', leaseName: 'managed-upgrade-operator-lock' }).flatMap((f) =>
      f.documents.map((d) => key(d.object)),
    ),
  );
  const clashes = files.flatMap((f) => f.documents.map((d) => key(d.object))).filter((k) => managed.has(k));
  assert.deepEqual(clashes, []);
});
