/**
 * Records a simulated cluster's run for the `simulate -o json` report: every transition of the
 * ClusterVersion, the ClusterOperators, the MachineConfigPools and the Nodes (from the shared
 * informers, stamped with the virtual clock), the alerts the rule evaluator fired, the
 * Alertmanager's silences and the final objects.
 *
 * Same seed, same report: changes that happen at the same virtual instant are listed by kind,
 * name, then the order they happened in, so that the interleaving of separate watch streams
 * cannot change the output.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../api/builtin.js';
import { ClusterOperatorResource, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
} from '../../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { apiVersion, type KubeObjectLike, type ResourceDescriptor } from '../../api/resource.js';
import { stripManagedFields, type Informer } from '../../kube/informer.js';
import type { SimContext } from '../context.js';
import type { ClusterMonitoring } from '../monitoring/cluster-monitoring.js';
import { alertEpisodes, isoTime, silenceRecords, type AlertEpisode, type SilenceRecord } from './alerts-report.js';
import { withPlaceholders, type UrlPlaceholder } from './placeholders.js';
import { objectChanges, RECORDED_KINDS, type FieldChange, type FieldValue, type RecordedKind } from './transitions.js';

/** One change of one field of one object, at a virtual instant. */
export interface Transition {
  /** Virtual time (RFC 3339, milliseconds). */
  at: string;
  /** Virtual ms since the report's origin (the scenario's start). */
  elapsedMs: number;
  kind: RecordedKind;
  name: string;
  field: string;
  from: FieldValue;
  to: FieldValue;
  reason?: string;
  message?: string;
}

/** The objects at the end of the run (status kept, managedFields dropped), by name. */
export interface FinalObjects {
  clusterVersion: ClusterVersion | null;
  clusterOperators: ClusterOperator[];
  machineConfigPools: MachineConfigPool[];
  nodes: Node[];
}

/** The cluster part of the JSON report. */
export interface ClusterReport {
  transitions: Transition[];
  alerts: AlertEpisode[];
  silences: SilenceRecord[];
  final: FinalObjects;
}

/** A running recorder. */
export interface ClusterRecorder {
  /** The transitions so far, `elapsedMs` counted from `originMs`. */
  transitions(originMs: number): Transition[];
  /** The whole report as of now, the loopback URLs of the simulation's servers replaced by their placeholders. */
  report(originMs: number, placeholders?: readonly UrlPlaceholder[]): ClusterReport;
  /** Stops recording (the report stays readable). */
  stop(): void;
}

interface Recorded {
  t: number;
  kind: RecordedKind;
  name: string;
  seq: number;
  change: FieldChange;
}

/**
 * Starts recording: waits for the shared informers of the four kinds to sync, takes their
 * current objects as the baseline, then records every change. `monitoring` gives the alerts
 * and silences.
 */
export async function startClusterRecorder(
  ctx: SimContext,
  monitoring: ClusterMonitoring,
  signal: AbortSignal,
): Promise<ClusterRecorder> {
  const informers = {
    ClusterVersion: ctx.informers.informerFor(ClusterVersionResource),
    ClusterOperator: ctx.informers.informerFor(ClusterOperatorResource),
    MachineConfigPool: ctx.informers.informerFor(MachineConfigPoolResource),
    Node: ctx.informers.informerFor(NodeResource),
  };
  ctx.informers.start(signal);
  await ctx.informers.waitForSync(signal);

  const recorded: Recorded[] = [];
  let seq = 0;
  const record = (kind: RecordedKind, before: KubeObjectLike | undefined, after: KubeObjectLike | undefined): void => {
    const changes = objectChanges(kind, before, after);
    if (changes.length === 0) return;
    const t = ctx.clock.now();
    const name = (after ?? before)?.metadata?.name ?? '';
    for (const change of changes) recorded.push({ t, kind, name, seq: seq++, change });
  };
  const unregister: Array<() => void> = [];
  const follow = <T extends KubeObjectLike>(kind: RecordedKind, informer: Informer<T>): void => {
    // Objects already cached are replayed as adds while registering: they are the baseline.
    let baseline = true;
    unregister.push(
      informer.addHandlers({
        onAdd: (obj) => {
          if (!baseline) record(kind, undefined, obj);
        },
        onUpdate: (old, obj) => record(kind, old, obj),
        onDelete: (obj) => record(kind, obj, undefined),
      }),
    );
    baseline = false;
  };
  follow('ClusterVersion', informers.ClusterVersion);
  follow('ClusterOperator', informers.ClusterOperator);
  follow('MachineConfigPool', informers.MachineConfigPool);
  follow('Node', informers.Node);

  const transitions = (originMs: number): Transition[] => {
    const origin = Math.floor(originMs);
    return [...recorded].sort(compareRecorded).map((recorded) => {
      const t = Math.floor(recorded.t);
      return { at: isoTime(t), elapsedMs: t - origin, kind: recorded.kind, name: recorded.name, ...recorded.change };
    });
  };
  return {
    transitions,
    report(originMs: number, placeholders: readonly UrlPlaceholder[] = []): ClusterReport {
      const am = monitoring.alertmanager;
      return withPlaceholders<ClusterReport>(
        {
          transitions: transitions(originMs),
          alerts: alertEpisodes(monitoring.rules.transitions()),
          silences: silenceRecords(am.silences.list(), ctx.clock.now()),
          final: {
            clusterVersion:
              finalOf(informers.ClusterVersion, ClusterVersionResource).find(
                (cv) => cv.metadata?.name === CLUSTER_VERSION_NAME,
              ) ?? null,
            clusterOperators: finalOf(informers.ClusterOperator, ClusterOperatorResource),
            machineConfigPools: finalOf(informers.MachineConfigPool, MachineConfigPoolResource),
            nodes: finalOf(informers.Node, NodeResource),
          },
        },
        placeholders,
      );
    },
    stop(): void {
      for (const u of unregister.splice(0)) u();
    },
  };
}

function compareRecorded(left: Recorded, right: Recorded): number {
  return (
    left.t - right.t ||
    RECORDED_KINDS.indexOf(left.kind) - RECORDED_KINDS.indexOf(right.kind) ||
    (left.name < right.name ? -1 : left.name > right.name ? 1 : 0) ||
    left.seq - right.seq
  );
}

/** The cached objects of an informer, by name, with their kind and apiVersion and without managedFields. */
function finalOf<T extends KubeObjectLike>(informer: Informer<T>, resourceDescriptor: ResourceDescriptor<T>): T[] {
  return informer
    .list()
    .map((o) => ({
      apiVersion: apiVersion(resourceDescriptor),
      kind: resourceDescriptor.kind,
      ...stripManagedFields(o),
    }))
    .sort((left, right) => {
      const x = left.metadata?.name ?? '';
      const y = right.metadata?.name ?? '';
      return x < y ? -1 : x > y ? 1 : 0;
    });
}
