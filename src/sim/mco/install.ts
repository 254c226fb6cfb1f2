/**
 * The machine-config state of an installed, idle cluster at one release: base and rendered
 * MachineConfigs, the pools (spec, and status as the node controller would compute it), every
 * managed node's MCO annotations at `Done`, and the machine-config ClusterOperator at the version.
 * The nodes must exist already (they are selected by `node-role.kubernetes.io/<role>` labels).
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../api/builtin.js';
import {
  ClusterOperatorResource,
  type ClusterOperator,
  type OperandVersion,
} from '../../api/openshift/config-v1/cluster-operator.js';
import { MachineConfigResource } from '../../api/openshift/machineconfiguration-v1/machine-config.js';
import {
  MachineConfigDaemonState,
  MachineConfigNodeAnnotation,
  MachineConfigPoolLabel,
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { isAlreadyExists } from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import type { SimContext } from '../context.js';
import { MASTER_POOL, nodesForPool, WORKER_POOL } from './node-state.js';
import { AS_EXPECTED, formatVersions, setCoCondition } from './operator-status.js';
import { computePoolStatus } from './pool-status.js';
import {
  baseConfigNames,
  baseMachineConfig,
  componentImageFor,
  poolConfiguration,
  renderedMachineConfig,
} from './rendered-config.js';
import { MACHINE_CONFIG_CO } from './operator.js';

/** A pool to install. `master` and `worker` get the built-in labels and selectors. */
export interface PoolInstallSpec {
  name: string;
  maxUnavailable?: number | string;
  paused?: boolean;
}

export interface MachineConfigInstallOptions {
  /** The installed release, e.g. `4.14.10`. */
  version: string;
  /** Default `[{ name: 'master' }, { name: 'worker' }]`. */
  pools?: readonly PoolInstallSpec[];
  /** `HighlyAvailable` (default) or `SingleReplica`, written on each node. */
  controlPlaneTopology?: string;
  /** The MCO image reported as `operator-image` (default: derived from the version). */
  operatorImage?: string;
}

/** The machine-config-operator image of a release (as image-references names it). */
export function mcoImageFor(version: string): string {
  return componentImageFor(version, 'machine-config-operator');
}

/** The pool object (without status) as the installer creates it. */
export function poolObject(spec: PoolInstallSpec, version: string): MachineConfigPool {
  const builtIn = spec.name === MASTER_POOL || spec.name === WORKER_POOL;
  const labels: Record<string, string> = { [`pools.operator.machineconfiguration.openshift.io/${spec.name}`]: '' };
  if (builtIn) labels[MachineConfigPoolLabel.BuiltIn] = '';
  if (spec.name === MASTER_POOL) labels[MachineConfigPoolLabel.RequiredForUpgrade] = '';
  const pool: MachineConfigPool = {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name: spec.name, labels },
    spec: {
      machineConfigSelector: builtIn
        ? { matchLabels: { 'machineconfiguration.openshift.io/role': spec.name } }
        : {
            matchExpressions: [
              { key: 'machineconfiguration.openshift.io/role', operator: 'In', values: [WORKER_POOL, spec.name] },
            ],
          },
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${spec.name}`]: '' } },
      paused: spec.paused ?? false,
      configuration: poolConfiguration(spec.name, version),
    },
  };
  if (spec.maxUnavailable !== undefined) pool.spec.maxUnavailable = spec.maxUnavailable;
  return pool;
}

/** Installs the machine-config state of an idle cluster at `version` (see the module comment). */
export async function installMachineConfigState(ctx: SimContext, options: MachineConfigInstallOptions): Promise<void> {
  const { version } = options;
  const specs = options.pools ?? [{ name: MASTER_POOL }, { name: WORKER_POOL }];
  const now = ctx.clock.now();
  for (const role of [MASTER_POOL, WORKER_POOL]) {
    for (const name of baseConfigNames(role))
      await createIgnoringExisting(() =>
        ctx.client.create(MachineConfigResource, baseMachineConfig(name, role, version)),
      );
  }
  const pools: MachineConfigPool[] = [];
  for (const spec of specs) {
    const pool = await ctx.client.create(MachineConfigPoolResource, poolObject(spec, version));
    await createIgnoringExisting(() => ctx.client.create(MachineConfigResource, renderedMachineConfig(pool, version)));
    pools.push(pool);
  }
  const nodes = (await ctx.client.list(NodeResource)).items;
  const annotated: Node[] = [];
  for (const pool of pools) {
    const config = pool.spec.configuration?.name ?? '';
    for (const node of nodesForPool(pool, nodes, pools)) {
      const annotations: Record<string, string> = {
        [MachineConfigNodeAnnotation.CurrentConfig]: config,
        [MachineConfigNodeAnnotation.DesiredConfig]: config,
        [MachineConfigNodeAnnotation.State]: MachineConfigDaemonState.Done,
        [MachineConfigNodeAnnotation.Reason]: '',
        [MachineConfigNodeAnnotation.DesiredDrain]: `uncordon-${config}`,
        [MachineConfigNodeAnnotation.LastAppliedDrain]: `uncordon-${config}`,
        [MachineConfigNodeAnnotation.ControlPlaneTopology]: options.controlPlaneTopology ?? 'HighlyAvailable',
      };
      annotated.push(
        await ctx.client.patch(
          NodeResource,
          undefined,
          node.metadata?.name ?? '',
          { metadata: { annotations } },
          { type: 'merge' },
        ),
      );
    }
  }
  for (const pool of pools) {
    const withCondition: MachineConfigPool = {
      ...pool,
      status: {
        configuration: pool.spec.configuration ?? { name: '' },
        machineCount: 0,
        updatedMachineCount: 0,
        readyMachineCount: 0,
        unavailableMachineCount: 0,
        degradedMachineCount: 0,
        conditions: [
          { type: 'RenderDegraded', status: 'False', reason: '', message: '', lastTransitionTime: formatTime(now) },
        ],
      },
    };
    const status = computePoolStatus(withCondition, nodesForPool(pool, annotated, pools), now);
    if (status) await ctx.client.updateStatus(MachineConfigPoolResource, { ...pool, status });
  }
  await installClusterOperator(ctx, version, options.operatorImage ?? mcoImageFor(version), now);
}

async function installClusterOperator(ctx: SimContext, version: string, image: string, now: number): Promise<void> {
  let co: ClusterOperator;
  try {
    co = await ctx.client.create(ClusterOperatorResource, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: MACHINE_CONFIG_CO },
      spec: {},
    });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    co = await ctx.client.get(ClusterOperatorResource, undefined, MACHINE_CONFIG_CO);
  }
  const versions: OperandVersion[] = [
    { name: 'operator', version },
    { name: 'operator-image', version: image },
  ];
  let conditions = co.status?.conditions ?? [];
  conditions = setCoCondition(
    conditions,
    { type: 'Progressing', status: 'False', message: `Cluster version is ${version}` },
    now,
  );
  conditions = setCoCondition(conditions, { type: 'Degraded', status: 'False' }, now);
  conditions = setCoCondition(
    conditions,
    {
      type: 'Available',
      status: 'True',
      reason: AS_EXPECTED,
      message: `Cluster has deployed ${formatVersions(versions)}`,
    },
    now,
  );
  conditions = setCoCondition(conditions, { type: 'Upgradeable', status: 'True', reason: AS_EXPECTED }, now);
  await ctx.client.updateStatus(ClusterOperatorResource, { ...co, status: { ...co.status, versions, conditions } });
}

async function createIgnoringExisting(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}
