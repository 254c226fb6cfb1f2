/**
 * The `ClusterVersion.status` the simulated CVO writes, from what it holds (pure): desired,
 * history, generation, hash and capabilities as held; Available from the last completed
 * version; Progressing/Failing from the worker's report; RetrievedUpdates, ReleaseAccepted,
 * Invalid and Upgradeable (with its sub-conditions) as last evaluated. Conditions of other types
 * on the object are kept, and transition times change only with a condition's status.
 */
import type { ClusterVersion, ClusterVersionStatus } from '../../api/openshift/config-v1/cluster-version.js';
import { removeConditions, setCondition, type ConditionInput } from './conditions.js';
import { progressConditions, type WorkerReport } from './progress.js';
import type { RetrievedState } from './update-retriever.js';
import { UPGRADEABLE_SUB_CONDITIONS, type UpgradeableResult } from './upgradeable.js';

/** What the CVO holds. */
export interface StatusModel {
  desired: ClusterVersionStatus['desired'] | undefined;
  history: NonNullable<ClusterVersionStatus['history']>;
  observedGeneration: number;
  versionHash: string;
  capabilities: ClusterVersionStatus['capabilities'];
  report: WorkerReport | undefined;
  operatorStart: ReadonlyMap<string, number>;
  /** The Invalid message, when the spec is invalid. */
  invalid: string | undefined;
  releaseAccepted: ConditionInput | undefined;
  retrieved: RetrievedState | undefined;
  upgradeable: UpgradeableResult;
}

/** The status to write over the object as it is now. */
export function buildClusterVersionStatus(
  cv: ClusterVersion,
  statusModel: StatusModel,
  now: number,
): ClusterVersionStatus {
  let conditions = cv.status?.conditions ?? [];
  const completedVersion = statusModel.history.find((h) => h.state === 'Completed')?.version;
  if (completedVersion)
    conditions = setCondition(
      conditions,
      { type: 'Available', status: 'True', message: `Done applying ${completedVersion}` },
      now,
    );
  if (statusModel.report) {
    const { progressing, failing } = progressConditions({
      report: statusModel.report,
      now,
      operatorStart: statusModel.operatorStart,
      invalid: statusModel.invalid !== undefined,
    });
    conditions = setCondition(setCondition(conditions, failing, now), progressing, now);
  }
  if (statusModel.retrieved) conditions = setCondition(conditions, statusModel.retrieved.condition, now);
  if (statusModel.releaseAccepted) conditions = setCondition(conditions, statusModel.releaseAccepted, now);
  conditions = statusModel.invalid
    ? setCondition(
        conditions,
        { type: 'Invalid', status: 'True', reason: 'InvalidClusterVersion', message: statusModel.invalid },
        now,
      )
    : removeConditions(conditions, 'Invalid');
  const { upgradeable, subConditions } = statusModel.upgradeable;
  const keep = new Set(subConditions.map((c) => c.type));
  conditions = removeConditions(conditions, ...UPGRADEABLE_SUB_CONDITIONS.filter((t) => !keep.has(t)));
  conditions = upgradeable ? setCondition(conditions, upgradeable, now) : removeConditions(conditions, 'Upgradeable');
  for (const c of subConditions) conditions = setCondition(conditions, c, now);
  const status: ClusterVersionStatus = {
    desired: statusModel.desired ?? cv.status!.desired,
    history: statusModel.history,
    observedGeneration: statusModel.observedGeneration,
    versionHash: statusModel.versionHash,
    conditions,
    availableUpdates: statusModel.retrieved
      ? statusModel.retrieved.availableUpdates
      : (cv.status?.availableUpdates ?? null),
  };
  if (statusModel.capabilities) status.capabilities = statusModel.capabilities;
  const conditional = statusModel.retrieved
    ? statusModel.retrieved.conditionalUpdates
    : (cv.status?.conditionalUpdates ?? []);
  if (conditional.length > 0) status.conditionalUpdates = conditional;
  return status;
}
