/**
 * The capacity-reservation health check (docs/design/managed-flow.md#health-checks,
 * docs/design/managed-flow.md#capacity-reservation): when the UpgradeConfig asks for
 * `capacityReservation`, a MachineSet of the `worker` machine pool must exist to clone (MUO's
 * `CanScale`). Only run when capacity reservation is requested.
 */
import { MACHINE_API_NAMESPACE } from '../../api/openshift/machine-v1beta1/machine.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import {
  LABEL_HIVE_MACHINE_POOL,
  WORKER_MACHINE_POOL,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { errorMessage, failed, HealthcheckReason, passed } from '../../engine/health-check.js';
import type { CheckResult } from '../../engine/health-check.js';

/** MUO's failure-list item of this check. */
export const CAPACITY_MUO_TEXT = 'CapacityReservationHealthcheckFailed';

/** Pure: true for a MachineSet in `openshift-machine-api` labelled `hive.openshift.io/machine-pool=worker`. */
export function isWorkerPoolMachineSet(ms: MachineSet): boolean {
  return (
    ms.metadata?.namespace === MACHINE_API_NAMESPACE &&
    ms.metadata.labels?.[LABEL_HIVE_MACHINE_POOL] === WORKER_MACHINE_POOL
  );
}

/** Pure: the check over the MachineSets (any list; only worker-pool ones in the Machine API namespace count). */
export function checkCapacityReservation(machineSets: readonly MachineSet[]): CheckResult {
  if (machineSets.some(isWorkerPoolMachineSet)) return passed('capacity-reservation');
  return failed(
    'capacity-reservation',
    HealthcheckReason.DefaultWorkerMachinepoolNotFound,
    CAPACITY_MUO_TEXT,
    `capacity reservation is requested but no MachineSet in ${MACHINE_API_NAMESPACE} is labelled ${LABEL_HIVE_MACHINE_POOL}=${WORKER_MACHINE_POOL}, so no extra worker can be added`,
  );
}

/** The check's verdict when the MachineSets could not be listed (fail closed; MUO uses the same reason). */
export function capacityReservationUnknown(err: unknown): CheckResult {
  return failed(
    'capacity-reservation',
    HealthcheckReason.DefaultWorkerMachinepoolNotFound,
    CAPACITY_MUO_TEXT,
    `unable to list MachineSets: ${errorMessage(err)}`,
  );
}
