/**
 * The UpgradeConfig controller of the managed flow (docs/design/managed-flow.md#phases): history initialisation from the
 * cluster state, phases New → Pending → Upgrading → Upgraded / Failed, the early pre-health
 * check, validation, the schedule and the kill-switch refresh, the upgrader's steps, and the
 * upgrade-result metric. It wakes exactly when the stopping step said (a time, or a change of
 * a watched kind), never on a fixed poll; every wait or refusal is explained in the
 * `Waiting` condition, an Event and a log line.
 */
import { ConfigMapResource, NodeResource, PodDisruptionBudgetResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineResource } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeObjectLike, ResourceDescriptor } from '../../api/resource.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  ManagedUpgradeConfigResource,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { parseManagedOperatorConfig, type ParsedManagedOperatorConfig } from '../config/managed-operator-config.js';
import { formatConfigProblems } from '../config/config-problem.js';
import { acceptsUpgradeConfigName, type OperatorSettings } from '../config/operator-settings.js';
import { Controller } from '../../kube/controller.js';
import { splitKey } from '../../kube/indexer.js';
import type { InformerFactory } from '../../kube/informer-factory.js';
import type { Informer } from '../../kube/informer.js';
import { WakeRegistry } from '../../engine/wake-registry.js';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Logger } from '../../lib/log.js';
import { WatchedKind, type ClusterReads } from '../steps/step-context.js';
import { upgradeConfigPass, sendNotificationOnce, type UpgradeConfigPassDeps } from './upgrade-config-pass.js';
import { PDB_FORCE_DRAIN_DELAY_DESCRIPTION } from '../notifiers/notifier.js';
import { historyFor } from '../history/upgrade-history.js';
import { runtimeOf } from '../../engine/controller-deps.js';

/** The kinds the controller watches to wake waiting upgrades, by the name steps use. */
const WATCHED: ReadonlyArray<[string, ResourceDescriptor<KubeObjectLike>]> = [
  [WatchedKind.ClusterVersion, ClusterVersionResource],
  [WatchedKind.ClusterOperator, ClusterOperatorResource],
  [WatchedKind.MachineConfigPool, MachineConfigPoolResource],
  [WatchedKind.Node, NodeResource],
  [WatchedKind.MachineSet, MachineSetResource],
  [WatchedKind.Machine, MachineResource],
  [WatchedKind.PodDisruptionBudget, PodDisruptionBudgetResource],
];

/** What the controller needs: what a pass needs, less what the controller derives from its caches. */
export interface ManagedUpgradeConfigControllerOptions extends Omit<
  UpgradeConfigPassDeps,
  'cluster' | 'config' | 'log'
> {
  informers: InformerFactory;
  logger: Logger;
  activity?: ActivityTracker;
  settings: OperatorSettings;
}

/** The controller and what the wiring needs of it. */
export interface ManagedUpgradeConfigController {
  controller: Controller;
  /** The current operator configuration (for the NodeKeeper and the metrics collector). */
  config(): ParsedManagedOperatorConfig;
  /** The acted-on UpgradeConfigs in the cache. */
  upgradeConfigs(): ManagedUpgradeConfig[];
  /** Resolves true once the operator ConfigMap and the UpgradeConfigs are cached (false: the signal aborted first). */
  configSynced(signal: AbortSignal): Promise<boolean>;
  cluster: ClusterReads;
  /** Sends the "delayed" notification of a PDB-DELETE drain for each upgrade in progress (once per version). */
  notifyPdbForceDrain(signal: AbortSignal): Promise<void>;
}

/** The message of the `Ignored` Warning Event on an UpgradeConfig whose name is not acted on. */
export function ignoredUpgradeConfigMessage(names: readonly string[], namespace: string, name: string): string {
  return `this operator acts only on UpgradeConfigs named ${names.join(', ')} in ${namespace}; set UPGRADE_CONFIG_NAMES to act on ${name}`;
}

/** Builds the controller (start it with `controller.start(signal)` or through a Manager). */
export function createManagedUpgradeConfigController(
  options: ManagedUpgradeConfigControllerOptions,
): ManagedUpgradeConfigController {
  const ns = options.settings.watchNamespace;
  const log = options.logger.child({ controller: 'upgradeconfig' });
  const wake = new WakeRegistry();
  const configs = options.informers.informerFor(ManagedUpgradeConfigResource, { namespace: ns });
  const configMaps = options.informers.informerFor(ConfigMapResource, {
    namespace: options.settings.namespace,
    fieldSelector: `metadata.name=${MANAGED_UPGRADE_CONFIGMAP_NAME}`,
  });
  const inf = <T extends KubeObjectLike>(d: ResourceDescriptor<T>): Informer<T> => options.informers.informerFor(d);
  const cvs = inf(ClusterVersionResource);
  const cos = inf(ClusterOperatorResource);
  const pools = inf(MachineConfigPoolResource);
  const nodes = inf(NodeResource);
  const machineSets = inf(MachineSetResource);
  const machines = inf(MachineResource);
  const pdbs = inf(PodDisruptionBudgetResource);
  const cluster: ClusterReads = {
    clusterVersion: () => cvs.get(undefined, CLUSTER_VERSION_NAME),
    pools: () => pools.list(),
    nodes: () => nodes.list(),
    machineSets: () => machineSets.list(),
    machines: () => machines.list(),
    clusterOperators: () => cos.list(),
    podDisruptionBudgets: () => pdbs.list(),
  };
  let parsed: { text: string | undefined; result: ParsedManagedOperatorConfig } | undefined;
  // Before the ConfigMap cache has synced its absence means nothing: defaults, and no problem to report.
  const beforeSync: ParsedManagedOperatorConfig = { ...parseManagedOperatorConfig(undefined), problems: [] };
  const config = (): ParsedManagedOperatorConfig => {
    if (!configMaps.hasSynced()) return beforeSync;
    const text = configMaps.get(options.settings.namespace, MANAGED_UPGRADE_CONFIGMAP_NAME)?.data?.[
      MANAGED_UPGRADE_CONFIGMAP_KEY
    ];
    if (!parsed || parsed.text !== text) {
      parsed = { text, result: parseManagedOperatorConfig(text) };
      if (parsed.result.problems.length > 0)
        log.warn(
          { problems: formatConfigProblems(parsed.result.problems) },
          'the operator ConfigMap has problems; defaults are used for those values',
        );
    }
    return parsed.result;
  };

  const deps: UpgradeConfigPassDeps = { ...options, cluster, config, log };

  const controller = new Controller({
    name: 'upgradeconfig',
    ...runtimeOf(options),
    reconcile: async (key, signal) => {
      const { namespace, name } = splitKey(key);
      const cr = await options.client.getIfExists(ManagedUpgradeConfigResource, namespace, name, { signal });
      if (!cr) {
        wake.clear(key);
        if (upgradeConfigs().length === 0) options.metrics.resetEphemeral();
        return;
      }
      if (!acceptsUpgradeConfigName(options.settings, name)) {
        options.events.event(
          cr,
          'Warning',
          'Ignored',
          ignoredUpgradeConfigMessage(options.settings.upgradeConfigNames, ns, name),
        );
        log.info({ name }, 'UpgradeConfig ignored: name not acted on');
        return;
      }
      const since = wake.snapshot();
      const result = await upgradeConfigPass(deps, cr, signal);
      if (wake.set(key, result.waitFor, since)) return { requeueAfter: 1 };
      const after = wake.requeueAfter(key, options.clock.now());
      return { ...(result.requeue ? { requeue: true } : {}), ...(after !== undefined ? { requeueAfter: after } : {}) };
    },
  });
  // MUO passes updates only when the status is unchanged: our own status writes do not retrigger.
  controller.for(ManagedUpgradeConfigResource, {
    namespace: ns,
    predicates: [{ update: (a, b) => JSON.stringify(a.status ?? null) === JSON.stringify(b.status ?? null) }],
  });
  const allKeys = (): string[] => configs.list().map((c) => `${c.metadata?.namespace ?? ''}/${c.metadata?.name ?? ''}`);
  controller.watches(ConfigMapResource, () => allKeys(), {
    namespace: options.settings.namespace,
    fieldSelector: `metadata.name=${MANAGED_UPGRADE_CONFIGMAP_NAME}`,
  });
  for (const [kind, d] of WATCHED) controller.watches(d, () => wake.changed(kind));
  const upgradeConfigs = (): ManagedUpgradeConfig[] =>
    configs.list().filter((c) => acceptsUpgradeConfigName(options.settings, c.metadata?.name ?? ''));
  const notifyPdbForceDrain = async (signal: AbortSignal): Promise<void> => {
    for (const cached of upgradeConfigs()) {
      const cr = await options.client.get(
        ManagedUpgradeConfigResource,
        cached.metadata?.namespace,
        cached.metadata?.name ?? '',
        { signal },
      );
      if (historyFor(cr.status?.history, cr.spec?.desired.version)?.phase !== 'Upgrading') continue;
      await sendNotificationOnce(options, cr, 'StateDelayed', PDB_FORCE_DRAIN_DELAY_DESCRIPTION, signal);
    }
  };
  const configSynced = async (signal: AbortSignal): Promise<boolean> =>
    (await Promise.all([configMaps.waitForSync(signal), configs.waitForSync(signal)])).every(Boolean);
  return { controller, config, upgradeConfigs, cluster, notifyPdbForceDrain, configSynced };
}
