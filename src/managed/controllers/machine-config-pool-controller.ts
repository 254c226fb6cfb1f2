/**
 * The MachineConfigPool controller of the managed flow
 * (docs/design/managed-flow.md#worker-start-and-complete-times): on every change of the `worker`
 * pool it stamps the acted-on UpgradeConfigs' current history entry with `workerStartTime` and
 * `workerCompleteTime` ({@link workerTimesUpdate}). Its status writes are conflict-safe (the
 * UpgradeConfig controller writes the same status); nothing is requeued.
 */
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { ManagedUpgradeConfigResource } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { acceptsUpgradeConfigName } from '../config/operator-settings.js';
import type { ManagedUpgradeConfigControllerOptions } from './upgrade-config-controller.js';
import { Controller } from '../../kube/controller.js';
import { splitKey } from '../../kube/indexer.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { isNotFound } from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import { historyFor, setHistory } from '../history/upgrade-history.js';
import { workerTimesUpdate } from '../history/worker-times.js';
import { WORKER_MACHINE_CONFIG_POOL } from '../cluster-version/worker-pools.js';
import { runtimeOf } from '../../engine/controller-deps.js';

export type MachineConfigPoolControllerOptions = Pick<
  ManagedUpgradeConfigControllerOptions,
  'client' | 'informers' | 'clock' | 'logger' | 'activity' | 'settings'
>;

/** Builds the controller; its keys are UpgradeConfigs, woken by the worker pool. */
export function createMachineConfigPoolController(options: MachineConfigPoolControllerOptions): Controller {
  const ns = options.settings.watchNamespace;
  const log = options.logger.child({ controller: 'machineconfigpool' });
  const configs = options.informers.informerFor(ManagedUpgradeConfigResource, { namespace: ns });
  const pools = options.informers.informerFor(MachineConfigPoolResource);
  const controller = new Controller({
    name: 'machineconfigpool',
    ...runtimeOf(options),
    reconcile: async (key, signal) => {
      const pool = pools.get(undefined, WORKER_MACHINE_CONFIG_POOL);
      if (!pool) return;
      const counts = {
        machineCount: pool.status?.machineCount ?? 0,
        updatedMachineCount: pool.status?.updatedMachineCount ?? 0,
      };
      const now = formatTime(options.clock.now());
      const stamp = (cr: ManagedUpgradeConfig | undefined): ReturnType<typeof workerTimesUpdate> =>
        workerTimesUpdate(historyFor(cr?.status?.history, cr?.spec?.desired.version), counts, now);
      const { namespace, name } = splitKey(key);
      // The cache answers "nothing to do" without a request; the write re-reads the object.
      if (!stamp(configs.get(namespace, name))) return;
      let stamped: string | undefined;
      try {
        await updateStatusWithRetry(
          options.client,
          ManagedUpgradeConfigResource,
          key,
          (cr: ManagedUpgradeConfig) => {
            const entry = historyFor(cr.status?.history, cr.spec?.desired.version);
            const update = stamp(cr);
            if (!entry || !update) return undefined;
            stamped = Object.keys(update).join(', ');
            return {
              ...cr,
              status: { ...cr.status, history: setHistory(cr.status?.history, { ...entry, ...update }) },
            };
          },
          { clock: options.clock, signal },
        );
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      if (stamped) log.info({ upgradeConfig: key, ...counts }, `worker pool: ${stamped} recorded`);
    },
  });
  const acted = (): string[] =>
    configs
      .list()
      .filter((c) => acceptsUpgradeConfigName(options.settings, c.metadata?.name ?? ''))
      .map((c) => `${c.metadata?.namespace ?? ''}/${c.metadata?.name ?? ''}`);
  controller.watches(MachineConfigPoolResource, (p) =>
    p.metadata?.name === WORKER_MACHINE_CONFIG_POOL ? acted() : [],
  );
  // A history entry turning Upgrading while the pool already rolls is stamped too.
  controller.watches(
    ManagedUpgradeConfigResource,
    (c) =>
      acceptsUpgradeConfigName(options.settings, c.metadata?.name ?? '')
        ? [`${c.metadata?.namespace ?? ''}/${c.metadata?.name ?? ''}`]
        : [],
    { namespace: ns },
  );
  return controller;
}
