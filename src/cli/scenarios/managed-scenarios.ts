/**
 * The managed-upgrade scenarios (issue 4's end-to-end cases, runnable by users with
 * `upgrade-operator simulate --scenario <name>`): the happy paths of OSD and ARO, and one per
 * failure case. Each verdict is read from the cluster as a user would read it.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { DeploymentResource, EventResource, NamespaceResource, PodDisruptionBudgetResource } from '../../api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineSetResource } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { UPGRADE_SELECTOR } from '../../steps/capacity/machine-set-scaler.js';
import type { ManagedProgress, ManagedScenarioScript, ManagedUpgradeRun, ManagedUpgradeSpec } from './managed-upgrade.js';

/** A managed scenario: what runs, and how to tell that it ended as it should. */
export interface ManagedScenario {
  description: string;
  spec: ManagedUpgradeSpec;
  script: ManagedScenarioScript;
  verdict(run: ManagedUpgradeRun): Promise<{ ok: boolean; summary: string }>;
}

/** The operator ConfigMap of the scenarios: MUO's OSD values, a 90-minute control-plane window. */
export function scenarioOperatorConfig(o: { upgradeWindowMinutes?: number } = {}): string {
  return [
    'configManager:',
    '  source: LOCAL',
    '  localConfigName: managed-upgrade-config',
    'maintenance:',
    '  controlPlaneTime: 90',
    'scale:',
    '  timeOut: 30',
    'nodeDrain:',
    '  timeOut: 45',
    '  expectedNodeDrainTime: 8',
    'upgradeWindow:',
    `  timeOut: ${o.upgradeWindowMinutes ?? 120}`,
    '  delayTrigger: 30',
    '',
  ].join('\n');
}

const OSD_MINOR: ManagedUpgradeSpec = {
  type: 'OSD',
  from: '4.14.30',
  fromChannel: 'stable-4.14',
  desired: { version: '4.15.38', channel: 'stable-4.15' },
  startInMinutes: 10,
  capacityReservation: true,
  pdbForceDrainTimeoutMinutes: 60,
  operatorConfig: scenarioOperatorConfig(),
  limitMinutes: 600,
};

async function upgradedVerdict(run: ManagedUpgradeRun): Promise<{ ok: boolean; summary: string }> {
  const p = run.progress();
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  const h = run.upgradeConfig()?.status?.history?.[0];
  const minutes = h?.startTime && h.completeTime ? (Date.parse(h.completeTime) - Date.parse(h.startTime)) / 60_000 : undefined;
  const ok = p.phase === 'Upgraded' && cv.status?.history?.[0]?.state === 'Completed' && cv.status.history[0].version === h?.version;
  return {
    ok,
    summary: ok
      ? `${h?.precedingVersion ?? '?'} → ${h?.version ?? '?'} Upgraded: ${p.doneSteps.length} conditions True in ${minutes?.toFixed(1) ?? '?'} virtual minutes`
      : `the upgrade ended in phase ${p.phase || '(none)'}: ${p.waiting || p.stepMessage}`,
  };
}

const stepStarted = (condition: string) => (p: ManagedProgress): boolean => p.step === `${condition}=False`;
const stepDone = (condition: string) => (p: ManagedProgress): boolean => p.doneSteps.includes(condition);

const SHOP = 'shop';

/** A customer's workload whose PodDisruptionBudget allows no eviction at all (minAvailable = replicas). */
async function createBlockingWorkload(run: ManagedUpgradeRun): Promise<void> {
  const c = run.env.client;
  await c.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SHOP } });
  const labels = { app: 'checkout' };
  const deployment: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: SHOP },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'checkout', image: 'quay.io/example/checkout:1.4' }] } },
    },
  };
  await c.create(DeploymentResource, deployment);
  await c.create(PodDisruptionBudgetResource, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'checkout', namespace: SHOP },
    spec: { minAvailable: 2, selector: { matchLabels: labels } },
  });
}

/** The named managed scenarios. */
export const managedScenarios: Readonly<Record<string, ManagedScenario>> = {
  'managed-osd-upgrade': {
    description: 'an OSD managed upgrade 4.14.30 → 4.15.38 by this operator: UpgradeConfig due in 10 minutes, 17 steps, capacity reserved, maintenance silences, workers rolled',
    spec: OSD_MINOR,
    script: {},
    verdict: upgradedVerdict,
  },
  'managed-aro-upgrade': {
    description: 'an ARO managed z-stream upgrade 4.14.30 → 4.14.45 by this operator: 14 steps, no capacity reservation',
    spec: { ...OSD_MINOR, type: 'ARO', desired: { version: '4.14.45', channel: 'stable-4.14' }, capacityReservation: false },
    script: {},
    verdict: upgradedVerdict,
  },
  'managed-pdb-blocked-drain': {
    description:
      'OSD 4.14.30 → 4.15.38 while a customer PodDisruptionBudget (minAvailable = replicas) blocks every eviction: the NodeKeeper deletes the blocked pods after PDBForceDrainTimeout (15 min) and the workers finish',
    spec: { ...OSD_MINOR, pdbForceDrainTimeoutMinutes: 15 },
    script: { setup: createBlockingWorkload },
    async verdict(run) {
      const v = await upgradedVerdict(run);
      const events = (await run.env.client.list(EventResource, { namespace: 'default' })).items.filter((e) => e.reason === 'ForceDrainPodDeleted');
      const forced = events.reduce((n, e) => n + (e.count ?? 1), 0);
      return { ok: v.ok && forced > 0, summary: `${v.summary}; ${forced} PDB-blocked pod deletion(s) by the NodeKeeper` };
    },
  },
  'managed-degraded-operator': {
    description:
      'OSD 4.14.30 → 4.15.38 while the authentication operator is Degraded: the pre-upgrade health check refuses with the reason; 30 minutes after the start time the operator recovers and the upgrade goes on',
    spec: OSD_MINOR,
    script: {
      setup: (run) => run.sim.components.operators.degrade('authentication', { reason: 'OAuthServerDeployment_UnavailablePod', message: 'OAuthServerDeploymentDegraded: 1 of 3 requested instances are unavailable' }),
      actions: [{ name: 'authentication recovers', afterMinutes: 40, run: (run) => run.sim.components.operators.clearFaults('authentication') }],
    },
    async verdict(run) {
      const refused = run.timeline.find((p) => p.waiting.includes('ClusterHealthyBeforeUpgrade') && p.waiting.includes('authentication'));
      const v = await upgradedVerdict(run);
      return { ok: v.ok && refused !== undefined, summary: `${refused ? `refused while degraded (“${refused.waiting}”), then ` : 'never refused, '}${v.summary}` };
    },
  },
  'managed-failure-window': {
    description:
      'OSD 4.14.30 → 4.15.38 with Alertmanager down: no maintenance silence can be created, the 60-minute upgrade window passes before the upgrade commences, the extra capacity is removed and the upgrade is Failed',
    spec: { ...OSD_MINOR, operatorConfig: scenarioOperatorConfig({ upgradeWindowMinutes: 60 }) },
    script: { setup: (run) => run.sim.components.monitoring.setAlertmanagerFault({ kind: 'down' }) },
    async verdict(run) {
      const p = run.progress();
      const h = run.upgradeConfig()?.status?.history?.[0];
      const failed = h?.conditions?.find((c) => c.type === 'FailedUpgrade')?.status === 'True';
      const clones = (await run.env.client.list(MachineSetResource, { namespace: 'openshift-machine-api', labelSelector: UPGRADE_SELECTOR })).items.length;
      const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
      const untouched = cv.spec?.desiredUpdate?.version !== h?.version;
      const ok = p.phase === 'Failed' && failed && clones === 0 && untouched;
      return { ok, summary: `phase ${p.phase}, FailedUpgrade ${failed ? 'True' : 'not set'}, ${clones} capacity clone(s) left, ClusterVersion ${untouched ? 'untouched' : 'was changed'}` };
    },
  },
  'managed-conditional-update': {
    description: 'OSD 4.14.10 → 4.15.2, a conditional update (a known risk applies): the operator names the release image with the version, as the CVO requires for a non-recommended target',
    spec: { ...OSD_MINOR, from: '4.14.10', desired: { version: '4.15.2', channel: 'stable-4.15' } },
    script: {},
    async verdict(run) {
      const v = await upgradedVerdict(run);
      const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
      const image = cv.spec?.desiredUpdate?.image ?? '';
      return { ok: v.ok && image !== '', summary: `${v.summary}; desiredUpdate named ${image || 'no image'}` };
    },
  },
  'managed-operator-restart': {
    description:
      'OSD 4.14.30 → 4.15.38 with the operator process killed and restarted five times (Pending, while capacity is added, after the control-plane silence, while the control plane and while the workers upgrade): it finishes once, with no duplicate silence or MachineSet',
    spec: OSD_MINOR,
    script: {
      actions: [
        { name: 'restart while Pending', when: (p) => p.phase === 'Pending', run: (r) => r.restartOperator() },
        { name: 'restart while capacity is added', when: stepStarted('ComputeCapacityReserved'), run: (r) => r.restartOperator() },
        { name: 'restart after the control-plane silence', when: stepDone('ControlPlaneMaintenanceWindowCreated'), run: (r) => r.restartOperator() },
        { name: 'restart while the control plane upgrades', when: stepStarted('ControlPlaneUpgraded'), run: (r) => r.restartOperator() },
        { name: 'restart while the workers upgrade', when: (p) => stepStarted('WorkerNodesUpgraded')(p) && (p.pools['worker']?.[0] ?? 0) >= 1, run: (r) => r.restartOperator() },
      ],
    },
    async verdict(run) {
      const v = await upgradedVerdict(run);
      const ok = v.ok && run.actionsRun.length === 5;
      return { ok, summary: `${v.summary}, across ${run.operatorStarts} operator processes` };
    },
  },
};
