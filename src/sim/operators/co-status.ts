/**
 * The conditions a simulated ClusterOperator reports, as a pure function of where its rollout is,
 * the cluster's size and the faults injected (docs/design/cluster-model.md#clusteroperator-shape,
 * docs/design/cluster-model.md#how-an-operator-rolls-out). Condition order follows the real objects
 * (Degraded, Progressing, Available, Upgradeable, EvaluationConditionsDetected);
 * `lastTransitionTime` moves only when a status changes.
 */
import type { ClusterOperatorStatusCondition } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';
import type { OperatorProfile } from './profiles.js';

/** A reason and message pair (a fault, or a condition's wording). */
export interface ReasonMessage {
  reason: string;
  message: string;
}

/** A condition before its transition time is known. */
export type DesiredCondition = Omit<ClusterOperatorStatusCondition, 'lastTransitionTime'>;

/** A rollout in progress (the operator reports Progressing=True). */
export interface RolloutView {
  target: string;
  /** How far along, in [0, 1). */
  fraction: number;
  /** Static-pod operators: the revision the nodes are leaving. */
  fromRevision: number;
}

/** Everything the conditions depend on. */
export interface OperatorStatusInput {
  profile: OperatorProfile;
  /** Version currently reported (`operator`), if any. */
  version: string | undefined;
  rollout?: RolloutView | undefined;
  /** Static-pod operators: the revision every node is at when no rollout runs. */
  revision: number;
  masters: number;
  nodes: number;
  degraded?: ReasonMessage | undefined;
  unavailable?: ReasonMessage | undefined;
  notUpgradeable?: ReasonMessage | undefined;
}

const ALL_IS_WELL = 'All is well';

/** The ClusterOperator conditions for the input. */
export function operatorConditions(input: OperatorStatusInput): DesiredCondition[] {
  const w = wording(input);
  const degraded: DesiredCondition = input.degraded
    ? { type: 'Degraded', status: 'True', ...input.degraded }
    : { type: 'Degraded', status: 'False', ...w.degraded };
  const progressing: DesiredCondition = {
    type: 'Progressing',
    status: input.rollout ? 'True' : 'False',
    ...w.progressing,
  };
  const available: DesiredCondition = input.unavailable
    ? { type: 'Available', status: 'False', ...input.unavailable }
    : { type: 'Available', status: 'True', ...w.available };
  const upgradeable: DesiredCondition = input.notUpgradeable
    ? { type: 'Upgradeable', status: 'False', ...input.notUpgradeable }
    : { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: ALL_IS_WELL };
  return [
    degraded,
    progressing,
    available,
    upgradeable,
    { type: 'EvaluationConditionsDetected', status: 'False', reason: 'AsExpected' },
  ];
}

/** The default reason and message of Available=False for a fault that gives none. */
export function defaultUnavailable(input: Pick<OperatorStatusInput, 'profile'> & { name: string }): ReasonMessage {
  switch (input.profile.style) {
    case 'static-pod':
      return { reason: 'StaticPods_ZeroNodesActive', message: 'StaticPodsAvailable: 0 nodes are active' };
    case 'workload': {
      const prefix = input.profile.workload?.prefix || 'Deployment';
      return { reason: `${prefix}_NoPod`, message: `${prefix}Available: no pods available on any node.` };
    }
    case 'network':
    case 'dns':
    case 'monitoring':
    case 'ingress':
    case 'console':
    case 'machine-api':
    case 'generic':
      return { reason: 'OperandUnavailable', message: `The ${input.name} operand is not available` };
  }
}

/**
 * Merges desired conditions into the existing ones: a condition whose status is unchanged keeps
 * its lastTransitionTime; a new or changed one gets `now`.
 */
export function mergeConditions(
  existing: readonly ClusterOperatorStatusCondition[] | undefined,
  desired: readonly DesiredCondition[],
  now: number,
): ClusterOperatorStatusCondition[] {
  return desired.map((desiredCondition) => {
    const old = existing?.find((c) => c.type === desiredCondition.type);
    const lastTransitionTime = old && old.status === desiredCondition.status ? old.lastTransitionTime : formatTime(now);
    const c: ClusterOperatorStatusCondition = {
      type: desiredCondition.type,
      status: desiredCondition.status,
      lastTransitionTime,
    };
    if (desiredCondition.reason !== undefined) c.reason = desiredCondition.reason;
    if (desiredCondition.message !== undefined) c.message = desiredCondition.message;
    return c;
  });
}

interface Wording {
  degraded: Partial<ReasonMessage>;
  progressing: Partial<ReasonMessage>;
  available: Partial<ReasonMessage>;
}

function nodesAre(count: number): string {
  return count === 1 ? '1 node is' : `${count} nodes are`;
}

/** How far a rollout over `n` units is (units done, never all of them while it runs). */
function unitsDone(fraction: number, count: number): number {
  return Math.max(0, Math.min(count - 1, Math.floor(fraction * count)));
}

function wording(input: OperatorStatusInput): Wording {
  const r = input.rollout;
  const asExpected = { reason: 'AsExpected', message: ALL_IS_WELL };
  switch (input.profile.style) {
    case 'static-pod': {
      const n = Math.max(1, input.masters);
      const degraded = { reason: 'AsExpected', message: 'NodeControllerDegraded: All master nodes are ready' };
      if (!r) {
        const at = `${nodesAre(n)} at revision ${input.revision}`;
        return {
          degraded,
          progressing: { reason: 'AsExpected', message: `NodeInstallerProgressing: ${at}` },
          available: {
            reason: 'AsExpected',
            message: `StaticPodsAvailable: ${n} node${n === 1 ? ' is' : 's are'} active; ${at}`,
          },
        };
      }
      const done = unitsDone(r.fraction, n);
      const next = r.fromRevision + 1;
      const split =
        done === 0
          ? `${nodesAre(n)} at revision ${r.fromRevision}; 0 nodes have achieved new revision ${next}`
          : `${nodesAre(n - done)} at revision ${r.fromRevision}; ${nodesAre(done)} at revision ${next}`;
      return {
        degraded,
        progressing: { reason: 'NodeInstaller', message: `NodeInstallerProgressing: ${split}` },
        available: {
          reason: 'AsExpected',
          message: `StaticPodsAvailable: ${n} node${n === 1 ? ' is' : 's are'} active; ${split}`,
        },
      };
    }
    case 'network': {
      const n = Math.max(1, input.nodes);
      const progressing = r
        ? {
            reason: 'Deploying',
            message: `DaemonSet "/openshift-ovn-kubernetes/ovnkube-node" is not available (awaiting ${n - unitsDone(r.fraction, n)} nodes)`,
          }
        : { reason: 'AsExpected' };
      return { degraded: { reason: 'AsExpected' }, progressing, available: { reason: 'AsExpected' } };
    }
    case 'dns': {
      const n = Math.max(1, input.nodes);
      const progressing = r
        ? {
            reason: 'DNSReportsProgressingIsTrue',
            message: `DNS "default" reports Progressing=True: "Have ${n - 1} available DNS pods, want ${n}."`,
          }
        : { reason: 'AsExpected', message: 'Desired and current number of DNSes are equal' };
      return {
        degraded: { reason: 'DNSNotDegraded' },
        progressing,
        available: { reason: 'AsExpected', message: 'DNS "default" is available.' },
      };
    }
    case 'monitoring': {
      const progressing = r
        ? { reason: 'RollOutInProgress', message: 'Rolling out the stack.' }
        : { reason: 'RollOutDone', message: 'Successfully rolled out the stack.' };
      return {
        degraded: { reason: 'AsExpected' },
        progressing,
        available: { reason: 'RollOutDone', message: 'Successfully rolled out the stack.' },
      };
    }
    case 'ingress': {
      const replicas = 2;
      const progressing = r
        ? {
            reason: 'Reconciling',
            message: `ingresscontroller "default" is progressing: IngressControllerProgressing: One or more status conditions indicate progressing: DeploymentRollingOut=True (DeploymentRollingOut: Waiting for router deployment rollout to finish: ${unitsDone(r.fraction, replicas)} of ${replicas} updated replica(s) are available...\n).`,
          }
        : { reason: 'AsExpected', message: 'desired and current number of IngressControllers are equal' };
      return {
        degraded: { reason: 'IngressNotDegraded', message: 'The "default" ingress controller reports Degraded=False.' },
        progressing,
        available: { reason: 'IngressAvailable', message: 'The "default" ingress controller reports Available=True.' },
      };
    }
    case 'console': {
      const progressing = r
        ? {
            reason: 'SyncLoopRefresh_InProgress',
            message: `SyncLoopRefreshProgressing: Working toward version ${r.target}, ${1 + unitsDone(r.fraction, 2)} replicas available`,
          }
        : asExpected;
      return { degraded: asExpected, progressing, available: asExpected };
    }
    case 'machine-api': {
      const progressing = r
        ? { reason: 'SyncingResources', message: `Progressing towards operator: ${r.target}` }
        : { reason: 'AsExpected' };
      const available = {
        reason: 'AsExpected',
        message: `Cluster Machine API Operator is available at operator: ${input.version ?? r?.target ?? ''}`,
      };
      return { degraded: { reason: 'AsExpected' }, progressing, available };
    }
    case 'workload': {
      const wl = input.profile.workload ?? { deployment: 'unknown/unknown', prefix: '' };
      const [namespace = '', name = ''] = wl.deployment.split('/');
      const replicas = Math.max(1, input.masters);
      const ref = wl.prefix ? `deployment/${name}.${namespace}` : `deployment/${name}`;
      const progressing = r
        ? {
            reason: `${wl.prefix}_PodsUpdating`,
            message: `${wl.prefix}Progressing: ${ref}: ${unitsDone(r.fraction, replicas)}/${replicas} pods have been updated to the latest generation`,
          }
        : asExpected;
      return { degraded: asExpected, progressing, available: asExpected };
    }
    case 'generic': {
      const progressing = r ? { reason: 'Progressing', message: `Working towards ${r.target}` } : asExpected;
      return { degraded: asExpected, progressing, available: asExpected };
    }
  }
}
