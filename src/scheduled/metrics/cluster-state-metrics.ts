/**
 * APPUiO's gauges about the cluster itself (docs/design/scheduled-flow.md#metrics):
 * `cluster_upgrading`, `machine_config_pools_upgrading`, `machine_config_pools_paused`,
 * `node_draining` and `machine_info`, under the namespace `openshift_upgrade_controller`. Names and
 * label names are APPUiO's; help texts are ours. Computed at scrape time from the cached
 * ClusterVersion, MachineConfigPools, Nodes and Machines by pure functions, one per source, so a
 * failing source blanks only the families that need it.
 *
 * Deliberate difference
 * (docs/design/scheduled-flow.md#7-completion-and-availability-need-image-and-version, as the
 * UpgradeJob's completion): the desired release counts as completed when a Completed history entry
 * matches every field `desiredUpdate` sets; upstream required image and version both equal, so a
 * version-only `desiredUpdate` kept `cluster_upgrading` at 1 for good.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import type { Registry } from 'prom-client';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { MACHINE_API_NAMESPACE, type Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import {
  MachineConfigNodeAnnotation,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { isVersionUpgradeCompleted, updatingPools } from '../steps/upgrade-job-cluster.js';
import {
  registerScrapeGauges,
  type GaugeFamily,
  type MetricSeries,
  type ScrapeCollectorOptions,
} from './scrape-gauges.js';

/** Family names, APPUiO's spelling. */
export const ClusterStateMetricName = {
  clusterUpgrading: 'openshift_upgrade_controller_cluster_upgrading',
  poolsUpgrading: 'openshift_upgrade_controller_machine_config_pools_upgrading',
  poolsPaused: 'openshift_upgrade_controller_machine_config_pools_paused',
  nodeDraining: 'openshift_upgrade_controller_node_draining',
  machineInfo: 'openshift_upgrade_controller_machine_info',
} as const;

const N = ClusterStateMetricName;

const CLUSTER_UPGRADING: GaugeFamily = {
  name: N.clusterUpgrading,
  help: '1 while the cluster upgrades: ClusterVersion has no Completed history entry for spec.desiredUpdate, or an unpaused MachineConfigPool is updating; else 0.',
  labelNames: [],
};
const POOL_FAMILIES: readonly GaugeFamily[] = [
  {
    name: N.poolsUpgrading,
    help: '1 while the MachineConfigPool is updating (not all machines updated) and not paused; else 0.',
    labelNames: ['pool'],
  },
  { name: N.poolsPaused, help: '1 while the MachineConfigPool is paused (spec.paused); else 0.', labelNames: ['pool'] },
];
const NODE_DRAINING: GaugeFamily = {
  name: N.nodeDraining,
  help: "1 while the machine-config daemon's drain request for the node is not yet applied (desiredDrain differs from lastAppliedDrain); else 0.",
  labelNames: ['node'],
};
const MACHINE_INFO: GaugeFamily = {
  name: N.machineInfo,
  help: 'A Machine of the Machine API with its MachineSet, Node, provider ID and phase. Always 1.',
  labelNames: ['machine', 'machineset', 'node_ref', 'provider_id', 'phase'],
};

/** The families with their label names and our help texts. */
export const CLUSTER_STATE_FAMILIES: readonly GaugeFamily[] = [
  CLUSTER_UPGRADING,
  ...POOL_FAMILIES,
  NODE_DRAINING,
  MACHINE_INFO,
];

const flag = (b: boolean): number => (b ? 1 : 0);

/**
 * True while the desired release is not completed: `spec.desiredUpdate` is set and no Completed
 * history entry matches it. Absent `desiredUpdate` (a cluster never told to upgrade) counts as
 * completed.
 */
export function desiredUpdatePending(cv: ClusterVersion): boolean {
  const desired = cv.spec.desiredUpdate;
  return desired !== undefined && !isVersionUpgradeCompleted(cv, desired);
}

/**
 * `cluster_upgrading`: one label-less series; none while there is no ClusterVersion (APPUiO
 * reports an error then, not a value). Pure.
 */
export function clusterUpgradingSeries(
  cv: ClusterVersion | undefined,
  pools: readonly MachineConfigPool[],
): Map<string, MetricSeries[]> {
  if (!cv) return new Map([[N.clusterUpgrading, []]]);
  const upgrading = desiredUpdatePending(cv) || updatingPools(pools).some((p) => !p.paused);
  return new Map([[N.clusterUpgrading, [{ labels: {}, value: flag(upgrading) }]]]);
}

/** `machine_config_pools_upgrading` and `machine_config_pools_paused`, one series per pool. Pure. */
export function machineConfigPoolSeries(pools: readonly MachineConfigPool[]): Map<string, MetricSeries[]> {
  const upgrading = new Set(
    updatingPools(pools)
      .filter((p) => !p.paused)
      .map((p) => p.name),
  );
  const out = new Map<string, MetricSeries[]>([
    [N.poolsUpgrading, []],
    [N.poolsPaused, []],
  ]);
  for (const p of pools) {
    const pool = p.metadata?.name ?? '';
    out.get(N.poolsUpgrading)?.push({ labels: { pool }, value: flag(upgrading.has(pool)) });
    out.get(N.poolsPaused)?.push({ labels: { pool }, value: flag(p.spec.paused === true) });
  }
  return out;
}

/** True while the node's `desiredDrain` annotation differs from `lastAppliedDrain` (a missing one counts as ""). */
export function nodeDraining(node: Node): boolean {
  const a = node.metadata?.annotations ?? {};
  return (
    (a[MachineConfigNodeAnnotation.DesiredDrain] ?? '') !== (a[MachineConfigNodeAnnotation.LastAppliedDrain] ?? '')
  );
}

/** `node_draining`, one series per node. Pure. */
export function nodeDrainingSeries(nodes: readonly Node[]): Map<string, MetricSeries[]> {
  return new Map([
    [N.nodeDraining, nodes.map((n) => ({ labels: { node: n.metadata?.name ?? '' }, value: flag(nodeDraining(n)) }))],
  ]);
}

/** The MachineSet controlling a Machine: the first controller ownerRef, if its kind is MachineSet (Go's `GetControllerOf`); else "". */
export function machineSetOf(machine: Machine): string {
  const ref = (machine.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  return ref?.kind === 'MachineSet' ? ref.name : '';
}

/** `machine_info`, one series per Machine in `namespace`. Pure. */
export function machineInfoSeries(machines: readonly Machine[], namespace: string): Map<string, MetricSeries[]> {
  const series = machines
    .filter((m) => (m.metadata?.namespace ?? '') === namespace)
    .map((m) => ({
      labels: {
        machine: m.metadata?.name ?? '',
        machineset: machineSetOf(m),
        node_ref: m.status?.nodeRef?.name ?? '',
        provider_id: m.spec?.providerID ?? '',
        phase: m.status?.phase ?? '',
      },
      value: 1,
    }));
  return new Map([[N.machineInfo, series]]);
}

/** What {@link ClusterStateCollector} reads on every scrape (typically informer caches). */
export interface ClusterStateSources {
  /** The upstream config.openshift.io ClusterVersion (`version`); undefined when it does not exist. */
  clusterVersion: () => ClusterVersion | undefined;
  machineConfigPools: () => readonly MachineConfigPool[];
  nodes: () => readonly Node[];
  /** Machines; only those in the machine namespace count. */
  machines: () => readonly Machine[];
}

/** Options of {@link ClusterStateCollector}. */
export interface ClusterStateCollectorOptions extends ScrapeCollectorOptions {
  /** Namespace of the Machines (APPUiO's `--machine-namespace`); default `openshift-machine-api`. */
  machineNamespace?: string;
}

/**
 * Registers the five families on `registry`. A throwing source blanks the families that read
 * it: the ClusterVersion `cluster_upgrading`; the pools the two pool families and
 * `cluster_upgrading`; the nodes `node_draining`; the Machines `machine_info`.
 */
export class ClusterStateCollector {
  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry, sources: ClusterStateSources, options: ClusterStateCollectorOptions) {
    const namespace = options.machineNamespace ?? MACHINE_API_NAMESPACE;
    registerScrapeGauges(
      registry,
      [
        {
          families: [CLUSTER_UPGRADING],
          series: () => clusterUpgradingSeries(sources.clusterVersion(), sources.machineConfigPools()),
        },
        { families: POOL_FAMILIES, series: () => machineConfigPoolSeries(sources.machineConfigPools()) },
        { families: [NODE_DRAINING], series: () => nodeDrainingSeries(sources.nodes()) },
        { families: [MACHINE_INFO], series: () => machineInfoSeries(sources.machines(), namespace) },
      ],
      options.log,
    );
  }
}
