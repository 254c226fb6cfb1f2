/**
 * The UpgradeSuspensionWindow status controller of the scheduled flow (APPUiO's
 * `UpgradeSuspensionWindowReconciler`, docs/design/scheduled-flow.md#upgradesuspensionwindow): it
 * keeps `status.matchingConfigs` and `status.matchingJobs` (`suspension-window-matching.ts`).
 *
 * Differences from APPUiO (its bug
 * docs/design/scheduled-flow.md#14-suspension-window-status-across-namespaces, fixed): only configs
 * and jobs of the window's own namespace are listed, and the status follows them — a config or job
 * created, deleted or relabelled, or a job whose `startAfter` changed, wakes every window of its
 * namespace; APPUiO refreshed only when the window itself changed. The status is written only when
 * it changed (APPUiO wrote it on every pass). A selector Kubernetes would refuse selects nothing
 * and is reported with a Warning Event and a log line (APPUiO failed the reconcile and retried).
 */
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { Controller } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { objectKey, splitKey } from '../../kube/indexer.js';
import { isNotFound } from '../../kube/status-error.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { suspensionWindowMatches, suspensionWindowStatusEqual } from '../schedule/suspension-window-matching.js';
import { runtimeOf, type ControllerDeps } from '../../engine/controller-deps.js';

/** The controller's name (log field `controller`, work-queue name). */
export const UPGRADE_SUSPENSION_WINDOW_CONTROLLER = 'upgradesuspensionwindow';

/** Event reason of a window whose spec is partly unusable (an invalid selector, a start/end that is not a time). */
export const SUSPENSION_WINDOW_INVALID_REASON = 'InvalidUpgradeSuspensionWindow';

/** What the controller needs. */
export interface UpgradeSuspensionWindowControllerOptions extends ControllerDeps {
  /** Where problems of a window's spec are reported; absent: the log only. */
  events?: EventRecorder;
  /** Namespace of the windows, configs and jobs (APPUiO `--namespace`); undefined or `""`: all namespaces. */
  namespace?: string;
}

/** The controller and what the wiring (metrics) reads of it. */
export interface UpgradeSuspensionWindowController {
  controller: Controller;
  /** The UpgradeSuspensionWindows in the cache. */
  windows(): UpgradeSuspensionWindow[];
}

function json(value: unknown): JsonValue {
  return (value ?? null) as JsonValue;
}

/** Builds the controller (start it with `controller.start(signal)` or through a Manager). */
export function createUpgradeSuspensionWindowController(
  options: UpgradeSuspensionWindowControllerOptions,
): UpgradeSuspensionWindowController {
  const scope = { namespace: options.namespace === '' ? undefined : options.namespace };
  const log = options.logger.child({ controller: UPGRADE_SUSPENSION_WINDOW_CONTROLLER });
  const windows = options.informers.informerFor(UpgradeSuspensionWindowResource, scope);
  const configs = options.informers.informerFor(ScheduledUpgradeConfigResource, scope);
  const jobs = options.informers.informerFor(UpgradeJobResource, scope);
  /** The problems last reported per window (reported again only when they change). */
  const reported = new Map<string, string>();

  const report = (key: string, window: UpgradeSuspensionWindow, problems: string[]): void => {
    const text = problems.join('; ');
    if (text === '') {
      reported.delete(key);
      return;
    }
    if (reported.get(key) === text) return;
    reported.set(key, text);
    log.warn({ upgradesuspensionwindow: key }, text);
    options.events?.event(
      { apiVersion: 'managedupgrade.appuio.io/v1beta1', kind: 'UpgradeSuspensionWindow', ...window },
      'Warning',
      SUSPENSION_WINDOW_INVALID_REASON,
      text,
    );
  };

  const controller = new Controller({
    name: UPGRADE_SUSPENSION_WINDOW_CONTROLLER,
    ...runtimeOf(options),
    reconcile: async (key, signal) => {
      const { namespace, name } = splitKey(key);
      const window = windows.get(namespace, name);
      if (!window || window.metadata?.deletionTimestamp) {
        reported.delete(key);
        return;
      }
      const matches = suspensionWindowMatches(window, configs.list(namespace), jobs.list(namespace));
      report(key, window, matches.problems);
      if (suspensionWindowStatusEqual(window.status, matches.status)) return;
      try {
        const written = await updateStatusWithRetry(
          options.client,
          UpgradeSuspensionWindowResource,
          key,
          (upgradeSuspensionWindow: UpgradeSuspensionWindow) => {
            const m = suspensionWindowMatches(upgradeSuspensionWindow, configs.list(namespace), jobs.list(namespace));
            return suspensionWindowStatusEqual(upgradeSuspensionWindow.status, m.status)
              ? undefined
              : { ...upgradeSuspensionWindow, status: { ...upgradeSuspensionWindow.status, ...m.status } };
          },
          { clock: options.clock, signal },
        );
        log.debug({ upgradesuspensionwindow: key, ...written.status }, 'status updated');
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
  });
  const windowsOf = (obj: ScheduledUpgradeConfig | UpgradeJob): string[] =>
    windows.list(obj.metadata?.namespace ?? '').map((w) => objectKey(w));
  // Our own status writes are not worth a pass: only spec changes of the window.
  controller.for(UpgradeSuspensionWindowResource, {
    ...scope,
    predicates: [{ update: (a, b) => !jsonEqual(json(a.spec), json(b.spec)) }],
  });
  // What a window lists changes only with labels (configs), and labels or startAfter (jobs).
  controller.watches(ScheduledUpgradeConfigResource, windowsOf, {
    ...scope,
    predicates: [{ update: (a, b) => !jsonEqual(json(a.metadata?.labels), json(b.metadata?.labels)) }],
  });
  controller.watches(UpgradeJobResource, windowsOf, {
    ...scope,
    predicates: [
      {
        update: (a, b) =>
          !jsonEqual(json(a.metadata?.labels), json(b.metadata?.labels)) || a.spec?.startAfter !== b.spec?.startAfter,
      },
    ],
  });
  return { controller, windows: () => windows.list() };
}
