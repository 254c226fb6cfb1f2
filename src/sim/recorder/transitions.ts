/**
 * What changed between two states of a ClusterVersion, ClusterOperator, MachineConfigPool or
 * Node, as an SRE reads an upgrade: one {@link FieldChange} per field that changed (a
 * condition's status or reason, a version, a counter, an MCO annotation), never a whole object.
 * Pure: the recorder adds the time.
 *
 * Fields are named after where they live in the object (`status.desired.version`,
 * `spec.unschedulable`, `machineconfiguration.openshift.io/state`); conditions are
 * `condition/<Type>` with the status as the value and the new reason and message alongside. A
 * condition whose message alone changed (the ClusterVersion's "Working towards 4.15.38: 512 of
 * 863 done (59% complete)" above all) is the separate field `condition/<Type>.message`, so a
 * reader can keep or drop those lines. Creation and deletion are the field `object`
 * (`absent` → `present` and back); a created object also reports every tracked field it was
 * created with (from null), leaving out those unset or false.
 */
import type { Node, NodeCondition } from 'kubernetes-types/core/v1.js';
import { operatorVersion, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { MachineConfigNodeAnnotation } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';

/** The kinds the recorder follows, in the order a report lists simultaneous changes. */
export const RECORDED_KINDS = ['ClusterVersion', 'ClusterOperator', 'MachineConfigPool', 'Node'] as const;

/** One of {@link RECORDED_KINDS}. */
export type RecordedKind = (typeof RECORDED_KINDS)[number];

/** A field's value: flat, so that reports diff line by line. */
export type FieldValue = string | number | boolean | null;

/** One field of one object that changed. */
export interface FieldChange {
  field: string;
  from: FieldValue;
  to: FieldValue;
  /** A condition's reason after the change (conditions only, when it has one). */
  reason?: string;
  /** A condition's message after the change (conditions only, when it has one). */
  message?: string;
}

/** A condition as the diff sees it (ClusterVersion, ClusterOperator, pool and Node conditions alike). */
interface ConditionLike {
  type: string;
  status: string;
  reason?: string | undefined;
  message?: string | undefined;
}

/** What the diff compares of one object: plain fields in order, then conditions. */
interface Tracked {
  fields: Array<[string, FieldValue]>;
  conditions: ConditionLike[];
}

/** Condition types in the order an SRE reads them; others follow alphabetically. */
const CONDITION_ORDER = [
  'Available',
  'Progressing',
  'Failing',
  'Degraded',
  'ReleaseAccepted',
  'RetrievedUpdates',
  'Upgradeable',
  'Updated',
  'Updating',
  'NodeDegraded',
  'RenderDegraded',
  'Ready',
];

/** The annotations of a Node that the MCO's roll-out moves, in roll-out order. */
export const NODE_ANNOTATIONS = [
  MachineConfigNodeAnnotation.DesiredConfig,
  MachineConfigNodeAnnotation.State,
  MachineConfigNodeAnnotation.Reason,
  MachineConfigNodeAnnotation.CurrentConfig,
] as const;

function clusterVersionTracked(cv: ClusterVersion): Tracked {
  const head = cv.status?.history?.[0];
  return {
    fields: [
      ['spec.channel', cv.spec.channel ?? null],
      ['spec.desiredUpdate.version', cv.spec.desiredUpdate?.version ?? null],
      ['metadata.generation', cv.metadata?.generation ?? null],
      ['status.observedGeneration', cv.status?.observedGeneration ?? null],
      ['status.desired.version', cv.status?.desired.version ?? null],
      ['status.history[0].version', head?.version ?? null],
      ['status.history[0].state', head?.state ?? null],
    ],
    conditions: cv.status?.conditions ?? [],
  };
}

function clusterOperatorTracked(co: ClusterOperator): Tracked {
  return {
    fields: [['status.versions[operator]', operatorVersion(co) ?? null]],
    conditions: co.status?.conditions ?? [],
  };
}

function poolTracked(pool: MachineConfigPool): Tracked {
  const s = pool.status;
  return {
    fields: [
      ['spec.paused', pool.spec.paused ?? false],
      ['spec.configuration.name', pool.spec.configuration?.name ?? null],
      ['status.configuration.name', s?.configuration.name ?? null],
      ['status.machineCount', s?.machineCount ?? null],
      ['status.updatedMachineCount', s?.updatedMachineCount ?? null],
      ['status.readyMachineCount', s?.readyMachineCount ?? null],
      ['status.unavailableMachineCount', s?.unavailableMachineCount ?? null],
      ['status.degradedMachineCount', s?.degradedMachineCount ?? null],
    ],
    conditions: s?.conditions ?? [],
  };
}

function nodeTracked(node: Node): Tracked {
  const annotations = node.metadata?.annotations ?? {};
  const ready = (node.status?.conditions ?? []).filter((c: NodeCondition) => c.type === 'Ready');
  return {
    fields: [
      ...NODE_ANNOTATIONS.map((a): [string, FieldValue] => [a, annotations[a] ?? null]),
      ['spec.unschedulable', node.spec?.unschedulable ?? false],
    ],
    conditions: ready,
  };
}

/** The tracked view of an object of a recorded kind. */
function tracked(kind: RecordedKind, obj: object): Tracked {
  switch (kind) {
    case 'ClusterVersion':
      return clusterVersionTracked(obj as ClusterVersion);
    case 'ClusterOperator':
      return clusterOperatorTracked(obj as ClusterOperator);
    case 'MachineConfigPool':
      return poolTracked(obj as MachineConfigPool);
    case 'Node':
      return nodeTracked(obj);
  }
}

function conditionRank(type: string): number {
  const i = CONDITION_ORDER.indexOf(type);
  return i < 0 ? CONDITION_ORDER.length : i;
}

function conditionTypes(left: readonly ConditionLike[], right: readonly ConditionLike[]): string[] {
  const types = [...new Set([...left, ...right].map((c) => c.type))];
  return types.sort((x, y) => conditionRank(x) - conditionRank(y) || (x < y ? -1 : x > y ? 1 : 0));
}

function withText(change: FieldChange, conditionLike: ConditionLike | undefined): FieldChange {
  if (conditionLike?.reason) change.reason = conditionLike.reason;
  if (conditionLike?.message) change.message = conditionLike.message;
  return change;
}

/** The changes of the conditions: status or reason as `condition/<Type>`, else the message as `condition/<Type>.message`. */
function conditionChanges(before: readonly ConditionLike[], after: readonly ConditionLike[]): FieldChange[] {
  const out: FieldChange[] = [];
  for (const type of conditionTypes(before, after)) {
    const a = before.find((c) => c.type === type);
    const b = after.find((c) => c.type === type);
    const field = `condition/${type}`;
    if ((a?.status ?? null) !== (b?.status ?? null) || (a?.reason ?? '') !== (b?.reason ?? '')) {
      out.push(withText({ field, from: a?.status ?? null, to: b?.status ?? null }, b));
    } else if ((a?.message ?? '') !== (b?.message ?? '')) {
      out.push({ field: `${field}.message`, from: a?.message ?? null, to: b?.message ?? null });
    }
  }
  return out;
}

const EMPTY: Tracked = { fields: [], conditions: [] };

/**
 * The changes from `before` to `after` of one object of `kind`: `before` undefined for a
 * created object, `after` undefined for a deleted one (which reports only `object`).
 */
export function objectChanges(
  kind: RecordedKind,
  before: object | undefined,
  after: object | undefined,
): FieldChange[] {
  if (before === undefined && after === undefined) return [];
  if (after === undefined) return [{ field: 'object', from: 'present', to: 'absent' }];
  const a = before === undefined ? EMPTY : tracked(kind, before);
  const b = tracked(kind, after);
  const out: FieldChange[] = before === undefined ? [{ field: 'object', from: 'absent', to: 'present' }] : [];
  const old = new Map(a.fields);
  for (const [field, value] of b.fields) {
    const from = old.get(field) ?? null;
    // A new object's unset fields and false flags are no news.
    if (before === undefined && (value === null || value === false)) continue;
    if (from !== value) out.push({ field, from, to: value });
  }
  out.push(...conditionChanges(a.conditions, b.conditions));
  return out;
}

/** True for the message-only changes of a condition (`condition/<Type>.message`), which readers may filter out. */
export function isMessageOnly(change: Pick<FieldChange, 'field'>): boolean {
  return change.field.startsWith('condition/') && change.field.endsWith('.message');
}
