/**
 * The UpgradeConfig controller of the scheduled flow (APPUiO's `UpgradeConfigReconciler`,
 * docs/design/scheduled-flow.md#creating-the-next-job, docs/design/scheduled-flow.md#noop-jobs): it
 * creates one UpgradeJob per maintenance window, consumes suspended windows, keeps
 * `status.lastScheduledUpgrade` and `status.nextPossibleSchedules`, and deletes succeeded jobs
 * beyond the history limit. The pass is in `scheduled-upgrade-config-pass.ts`.
 *
 * Wakes: exactly at the next job's creation time or the next window (requeueAfter); on a spec
 * or label change of the config; on any change of an UpgradeJob it controls; on any
 * UpgradeSuspensionWindow change in its namespace; on ClusterVersion changes while a due job
 * waits for a ClusterVersion. APPUiO watches neither windows nor ClusterVersion and falls back
 * to a one-minute poll; we never poll.
 */
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import { Controller } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { objectKey, splitKey } from '../../kube/indexer.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { upgradeConfigPass, type UpgradeConfigPassDeps } from './upgrade-config-pass.js';
import { runtimeOf, type ControllerDeps } from '../../engine/controller-deps.js';

/** The controller's name (log field `controller`, work-queue name). */
export const SCHEDULED_UPGRADE_CONFIG_CONTROLLER = 'scheduled-upgradeconfig';

/** What the controller needs. */
export interface ScheduledUpgradeConfigControllerOptions extends ControllerDeps {
  events: EventRecorder;
  /**
   * The zone `spec.schedule.location: Local` (and an empty location) stands for: the
   * process zone in production (`processZoneId` from `time/zone.ts`), a fixed zone in tests.
   * Asked only when a schedule is compiled, so an operator without UpgradeConfigs never loads
   * the time-zone data.
   */
  localZoneId: () => string;
  /** Namespace of the UpgradeConfigs, UpgradeJobs and windows (APPUiO `--namespace`); undefined: all namespaces. */
  namespace?: string | undefined;
  /** The upstream ClusterVersion (APPUiO `--managed-upstream-cluster-version-name`, default `version`). */
  clusterVersionName?: string;
}

/** The controller and what the wiring needs of it. */
export interface ScheduledUpgradeConfigController {
  controller: Controller;
  /** The UpgradeConfigs in the cache (the metrics collector's source). */
  upgradeConfigs(): ScheduledUpgradeConfig[];
}

/** Builds the controller (start it with `controller.start(signal)` or through a Manager). */
export function createScheduledUpgradeConfigController(
  options: ScheduledUpgradeConfigControllerOptions,
): ScheduledUpgradeConfigController {
  const scope = { namespace: options.namespace };
  const configs = options.informers.informerFor(ScheduledUpgradeConfigResource, scope);
  const jobs = options.informers.informerFor(UpgradeJobResource, scope);
  const windows = options.informers.informerFor(UpgradeSuspensionWindowResource, scope);
  const clusterVersions = options.informers.informerFor(ClusterVersionResource);
  const cvName = options.clusterVersionName ?? CLUSTER_VERSION_NAME;
  /** Configs whose due job waits for the ClusterVersion to appear. */
  const waitingForClusterVersion = new Set<string>();
  const deps: UpgradeConfigPassDeps = {
    client: options.client,
    clock: options.clock,
    log: options.logger.child({ controller: SCHEDULED_UPGRADE_CONFIG_CONTROLLER }),
    events: options.events,
    localZoneId: options.localZoneId,
    upgradeJobs: (ns) => jobs.list(ns),
    suspensionWindows: (ns) => windows.list(ns),
    clusterVersion: () => clusterVersions.get(undefined, cvName),
  };

  const controller = new Controller({
    name: SCHEDULED_UPGRADE_CONFIG_CONTROLLER,
    ...runtimeOf(options),
    reconcile: async (key, signal) => {
      const { namespace, name } = splitKey(key);
      // Read fresh: status.lastScheduledUpgrade must never be older than what we wrote.
      const config = await options.client.getIfExists(ScheduledUpgradeConfigResource, namespace, name, { signal });
      if (!config) {
        waitingForClusterVersion.delete(key);
        return;
      }
      if (config.metadata?.deletionTimestamp) {
        waitingForClusterVersion.delete(key);
        return;
      }
      const result = await upgradeConfigPass(deps, config, signal);
      if (result.waitsForClusterVersion) waitingForClusterVersion.add(key);
      else waitingForClusterVersion.delete(key);
      return result.requeueAfterMs === undefined ? undefined : { requeueAfter: result.requeueAfterMs };
    },
  });
  // Our own status writes do not wake the config: only spec (generation) and label changes do.
  controller.for(ScheduledUpgradeConfigResource, {
    ...scope,
    predicates: [
      {
        update: (a, b) =>
          a.metadata?.generation !== b.metadata?.generation ||
          !jsonEqual((a.metadata?.labels ?? {}) as JsonValue, (b.metadata?.labels ?? {}) as JsonValue),
      },
    ],
  });
  controller.owns(UpgradeJobResource, scope);
  // A window may start, end or change selector: every config of its namespace looks again.
  controller.watches(
    UpgradeSuspensionWindowResource,
    (w) => configs.list(w.metadata?.namespace).map((c) => objectKey(c)),
    scope,
  );
  controller.watches(ClusterVersionResource, (cv) =>
    cv.metadata?.name === cvName ? [...waitingForClusterVersion] : [],
  );
  return { controller, upgradeConfigs: () => configs.list() };
}
