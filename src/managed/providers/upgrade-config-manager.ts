/**
 * The UpgradeConfigManager (docs/design/managed-flow.md#the-sync-loop): keeps the UpgradeConfig in
 * step with the upgrade policy of the configured provider. A sync asks the provider, then creates
 * the UpgradeConfig, updates it in place (status and history kept), removes it when no policy asks
 * for an upgrade, or leaves it (see `upgrade-config-sync.ts` for the rules and the differences from
 * MUO); every success sets `upgradeoperator_upgradeconfig_sync_timestamp`, every write is an Event
 * on the UpgradeConfig, a failure is a Warning Event on it when it exists.
 *
 * The loop (`start`) runs the first sync 1 min (±10 %) after it starts, then every
 * `configManager.watchInterval` (±10 %); after a failure it backs off from 1 min, doubling, up
 * to 1 h (±10 %), and a success resets the backoff. Waits are on the injected clock and the
 * jitter comes from a seeded Random. It is a runnable for the Manager: it runs only while the
 * operator leads (MUO ran it outside leader election and never stopped it).
 */
import {
  ManagedUpgradeConfigResource,
  MANAGED_UPGRADE_CONFIG_NAME,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { apiVersion } from '../../api/resource.js';
import type { ManagedOperatorConfig } from '../config/managed-operator-config.js';
import type { KubeClient } from '../../kube/client.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import type { Clock } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import type { Logger } from '../../lib/log.js';
import type { Random } from '../../lib/random.js';
import { PolicyProviderError } from './ocm-provider.js';
import type { PolicyProvider } from './policy-provider.js';
import { decideSync, nextSyncDelayMs, type SyncLoopState } from './upgrade-config-sync.js';

/** Options of {@link UpgradeConfigManager}. */
export interface UpgradeConfigManagerOptions {
  client: KubeClient;
  clock: Clock;
  random: Random;
  logger: Logger;
  events: EventRecorder;
  metrics: { setSyncTimestamp(name: string, unixSeconds: number): void };
  /** Namespace of the UpgradeConfig (the operator's watch namespace). */
  namespace: string;
  /** Its name (default `managed-upgrade-config`). */
  name?: string;
  /** The operator configuration now. */
  config: () => ManagedOperatorConfig;
  /** The provider of a configuration (undefined: none configured). */
  provider: (config: ManagedOperatorConfig) => PolicyProvider | undefined;
  /**
   * The UpgradeConfig from an informer cache, so that a sync with nothing to change (always, for
   * LOCAL) makes no API request; a write from a stale copy fails with a conflict and the next
   * sync retries. Without it, each sync reads the object from the API server.
   */
  cached?: (namespace: string, name: string) => ManagedUpgradeConfig | undefined;
  /**
   * Resolves true once the caches the sync reads (the operator ConfigMap, the UpgradeConfig)
   * have synced, false when the signal aborts first. The first sync waits for it: before, an
   * absent ConfigMap means nothing yet, and acting on defaults could pick the wrong source.
   */
  synced?: (signal: AbortSignal) => Promise<boolean>;
}

/** What one sync did. */
export interface SyncResult {
  outcome: 'notConfigured' | 'unchanged' | 'created' | 'updated' | 'deleted' | 'kept';
  message: string;
}

/** The sync loop; add it to the Manager so that it runs only while leading. */
export class UpgradeConfigManager {
  readonly name = 'upgrade-config-manager';
  readonly #o: UpgradeConfigManagerOptions;
  readonly #log: Logger;
  readonly #crName: string;

  constructor(options: UpgradeConfigManagerOptions) {
    this.#o = options;
    this.#crName = options.name ?? MANAGED_UPGRADE_CONFIG_NAME;
    this.#log = options.logger.child({ component: this.name });
  }

  /** Runs the loop until the signal aborts (then resolves). */
  async start(signal: AbortSignal): Promise<void> {
    let state: SyncLoopState = { kind: 'first' };
    if (this.#o.synced && !(await this.#o.synced(signal))) return;
    this.#log.info('upgrade policy sync started');
    for (;;) {
      const delay = nextSyncDelayMs(state, this.#o.random);
      try {
        await this.#o.clock.sleep(delay, signal);
      } catch {
        break;
      }
      if (signal.aborted) break;
      try {
        const result = await this.sync(signal);
        state =
          result.outcome === 'notConfigured'
            ? { kind: 'notConfigured' }
            : { kind: 'succeeded', watchIntervalMs: this.#o.config().configManager.watchIntervalMs };
      } catch (err) {
        if (signal.aborted) break;
        const failures: number = state.kind === 'failed' ? state.failures + 1 : 1;
        state = { kind: 'failed', failures };
        this.#log.warn({ err: errorMessage(err), failures }, 'upgrade policy sync failed; backing off');
      }
    }
    this.#log.info('upgrade policy sync stopped');
  }

  /** One sync (also usable on demand). Rejects when the provider or the API fails. */
  async sync(signal: AbortSignal): Promise<SyncResult> {
    const config = this.#o.config();
    const provider = this.#o.provider(config);
    if (!provider)
      return { outcome: 'notConfigured', message: 'no upgrade policy provider is configured (configManager.source)' };
    const { client } = this.#o;
    const ns = this.#o.namespace;
    const name = this.#crName;
    const current = this.#o.cached
      ? this.#o.cached(ns, name)
      : await client.getIfExists(ManagedUpgradeConfigResource, ns, name, { signal });
    let specs;
    try {
      specs = await provider.specs(current, signal);
    } catch (err) {
      if (current && !signal.aborted)
        this.#o.events.event(
          current,
          'Warning',
          'PolicySyncFailed',
          `could not ${isInvalidPolicy(err) ? 'apply' : 'read'} the ${provider.source} upgrade policy: ${errorMessage(err)}`,
        );
      throw err;
    }
    const action = decideSync(provider.source, current, specs);
    let result: SyncResult;
    switch (action.kind) {
      case 'none':
        result = { outcome: 'unchanged', message: action.why };
        break;
      case 'keep':
        if (current) this.#o.events.event(current, 'Normal', 'PolicyNotApplied', action.why);
        result = { outcome: 'kept', message: action.why };
        break;
      case 'create': {
        const created = await client.create(
          ManagedUpgradeConfigResource,
          {
            apiVersion: apiVersion(ManagedUpgradeConfigResource),
            kind: ManagedUpgradeConfigResource.kind,
            metadata: { name, namespace: ns },
            spec: action.spec,
          },
          { signal },
        );
        const message = `created from the ${provider.source} upgrade policy: version ${action.spec.desired.version ?? ''} at ${action.spec.upgradeAt}`;
        this.#o.events.event(created, 'Normal', 'PolicyApplied', message);
        result = { outcome: 'created', message };
        break;
      }
      case 'update': {
        const base = current as ManagedUpgradeConfig;
        const updated = await client.update(ManagedUpgradeConfigResource, { ...base, spec: action.spec }, { signal });
        const message = `updated from the ${provider.source} upgrade policy: ${describeChange(base, action.spec)}`;
        this.#o.events.event(updated, 'Normal', 'PolicyUpdated', message);
        result = { outcome: 'updated', message };
        break;
      }
      case 'delete': {
        const base = current as ManagedUpgradeConfig;
        await client.delete(ManagedUpgradeConfigResource, ns, name, {
          signal,
          ...(base.metadata?.uid ? { preconditions: { uid: base.metadata.uid } } : {}),
        });
        const message = `removed: the ${provider.source} upgrade policy asks for no upgrade`;
        this.#o.events.event(base, 'Normal', 'PolicyRemoved', message);
        result = { outcome: 'deleted', message };
        break;
      }
    }
    this.#o.metrics.setSyncTimestamp(name, this.#o.clock.now() / 1000);
    if (result.outcome !== 'unchanged')
      this.#log.info({ namespace: ns, name, outcome: result.outcome }, result.message);
    return result;
  }
}

/** A policy that was read but cannot become an UpgradeConfig (not a provider outage). */
function isInvalidPolicy(err: unknown): boolean {
  return err instanceof PolicyProviderError && err.reason === 'InvalidPolicy';
}

function describeChange(cr: ManagedUpgradeConfig, spec: NonNullable<ManagedUpgradeConfig['spec']>): string {
  const old = cr.spec;
  const parts: string[] = [];
  if (old?.desired.version !== spec.desired.version)
    parts.push(`version ${old?.desired.version ?? '(none)'} → ${spec.desired.version ?? '(none)'}`);
  if (old?.desired.channel !== spec.desired.channel)
    parts.push(`channel ${old?.desired.channel ?? '(none)'} → ${spec.desired.channel ?? '(none)'}`);
  if (old?.upgradeAt !== spec.upgradeAt) parts.push(`upgradeAt ${old?.upgradeAt ?? '(none)'} → ${spec.upgradeAt}`);
  if (old?.PDBForceDrainTimeout !== spec.PDBForceDrainTimeout)
    parts.push(`PDBForceDrainTimeout ${old?.PDBForceDrainTimeout ?? 0} → ${spec.PDBForceDrainTimeout}`);
  if (old?.capacityReservation !== spec.capacityReservation)
    parts.push(
      `capacityReservation ${String(old?.capacityReservation ?? false)} → ${String(spec.capacityReservation ?? false)}`,
    );
  if (old?.type !== spec.type) parts.push(`type ${old?.type ?? '(none)'} → ${spec.type}`);
  return parts.length > 0 ? parts.join(', ') : 'spec changed';
}
