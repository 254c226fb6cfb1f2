/**
 * Pure decisions of the UpgradeConfigManager (docs/design/managed-flow.md#the-sync-loop): what one
 * sync does to the UpgradeConfig given the provider's answer, and how long to wait before the next
 * sync.
 *
 * Differences from MUO, on purpose (docs/design/managed-flow.md#ocm-provider-gaps,
 * docs/design/managed-flow.md#policy-changes-delete-the-upgradeconfig,
 * docs/design/managed-flow.md#loose-ends):
 * - a changed policy **updates** the UpgradeConfig in place, keeping its status and history
 *   (MUO deleted it and created a new one);
 * - an UpgradeConfig whose current upgrade is Upgrading or Upgraded is never removed or
 *   redirected by a sync: an upgrade that has started cannot be called back, and a finished one
 *   keeps its record (MUO deleted the CR as soon as the policy left the actionable states, so
 *   an Upgraded CR vanished on the next sync); the next policy updates it in place;
 * - LOCAL never writes (the UpgradeConfig itself is the policy).
 */
import type {
  ManagedUpgradeConfig,
  ManagedUpgradeConfigSpec,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { jsonEqual } from '../../lib/json.js';
import type { Random } from '../../lib/random.js';

/** What a sync does. */
export type SyncAction =
  | { kind: 'none'; why: string }
  | { kind: 'create'; spec: ManagedUpgradeConfigSpec }
  | { kind: 'update'; spec: ManagedUpgradeConfigSpec }
  | { kind: 'delete' }
  /** The provider asks for a change that is not made now (`why` says which and why not). */
  | { kind: 'keep'; why: string };

/** The phase of the UpgradeConfig's current upgrade (the history entry of its desired version). */
export function currentPhase(cr: ManagedUpgradeConfig): string | undefined {
  const version = cr.spec?.desired.version;
  return cr.status?.history?.find((h) => h.version === version)?.phase;
}

/** Decides one sync from the provider's specs (the first one applies). */
export function decideSync(
  source: string,
  current: ManagedUpgradeConfig | undefined,
  specs: readonly ManagedUpgradeConfigSpec[],
): SyncAction {
  if (source === 'LOCAL') return { kind: 'none', why: 'the LOCAL UpgradeConfig is its own policy' };
  const spec = specs[0];
  const phase = current ? currentPhase(current) : undefined;
  const busy = phase === 'Upgrading' || phase === 'Upgraded';
  if (!spec) {
    if (!current) return { kind: 'none', why: `the ${source} policy asks for no upgrade` };
    if (busy)
      return {
        kind: 'keep',
        why: `the ${source} policy asks for no upgrade, but the upgrade to ${current.spec?.desired.version ?? ''} is ${phase}: the UpgradeConfig is kept`,
      };
    return { kind: 'delete' };
  }
  if (!current) return { kind: 'create', spec };
  if (jsonEqual(current.spec, spec)) return { kind: 'none', why: 'the UpgradeConfig matches the policy' };
  if (phase === 'Upgrading') {
    return {
      kind: 'keep',
      why: `the ${source} policy changed (version ${spec.desired.version ?? ''} at ${spec.upgradeAt}), but the upgrade to ${current.spec?.desired.version ?? ''} is in progress: applied once it ends`,
    };
  }
  return { kind: 'update', spec };
}

/** The state of the sync loop that sets the next delay. */
export type SyncLoopState =
  | { kind: 'first' }
  | { kind: 'succeeded'; watchIntervalMs: number }
  /** `failures` consecutive failed syncs (≥ 1). */
  | { kind: 'failed'; failures: number }
  | { kind: 'notConfigured' };

/** First sync, retry of a missing configuration, and the first error backoff. */
export const SYNC_FIRST_DELAY_MS = 60_000;
/** The longest error backoff. */
export const SYNC_MAX_BACKOFF_MS = 3_600_000;
/** Every delay is drawn from ±10 % of its nominal value. */
export const SYNC_JITTER = 0.1;

/** The nominal delay before the next sync (before jitter). */
export function nominalSyncDelayMs(state: SyncLoopState): number {
  switch (state.kind) {
    case 'first':
    case 'notConfigured':
      return SYNC_FIRST_DELAY_MS;
    case 'succeeded':
      return state.watchIntervalMs > 0 ? state.watchIntervalMs : SYNC_FIRST_DELAY_MS;
    case 'failed':
      return Math.min(SYNC_MAX_BACKOFF_MS, SYNC_FIRST_DELAY_MS * 2 ** Math.min(30, Math.max(0, state.failures - 1)));
  }
}

/** The delay before the next sync: nominal ±10 %, drawn from `random`. */
export function nextSyncDelayMs(state: SyncLoopState, random: Random): number {
  const nominal = nominalSyncDelayMs(state);
  return Math.round(nominal * (1 - SYNC_JITTER + 2 * SYNC_JITTER * random.next()));
}
