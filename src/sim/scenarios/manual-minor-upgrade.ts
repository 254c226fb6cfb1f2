/**
 * Scenario `manual-minor-upgrade`: an ha-cloud cluster at 4.14 is moved to the stable-4.15
 * channel and upgraded to the newest offered 4.15 release by setting
 * ClusterVersion.spec.desiredUpdate, exactly as `oc adm upgrade --to-latest` does, with no
 * upgrade operator. It ends when the control plane has Completed the target and every pool is
 * Updated. Progress is reported as the objects change, read through informers like any client.
 */
import { NodeResource } from '../../api/builtin.js';
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
} from '../../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { SimContext } from '../context.js';
import { createSimulatedCluster } from '../cluster.js';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import type { VirtualClock } from '../virtual-clock.js';

export interface ProgressSnapshot {
  /** Virtual milliseconds since the scenario started. */
  elapsedMs: number;
  version: string;
  /** The ClusterVersion Progressing message. */
  progressing: string;
  /** Pool name → [updated, total]. */
  pools: Record<string, [number, number]>;
}

export interface ManualMinorUpgradeOptions {
  from?: string;
  channel?: string;
  /** Called whenever what a user would watch changes. */
  onProgress?: (progressSnapshot: ProgressSnapshot) => void;
  signal: AbortSignal;
}

export interface ScenarioResult {
  from: string;
  to: string;
  completed: boolean;
  /** Virtual minutes from the desiredUpdate write to the end. */
  upgradeMinutes: number;
}

const MINUTE = 60_000;

/** Runs the scenario on a cluster assembled in `ctx`, driving `clock` (event-driven). */
export async function runManualMinorUpgrade(
  ctx: SimContext,
  clock: VirtualClock,
  options: ManualMinorUpgradeOptions,
): Promise<ScenarioResult> {
  const from = options.from ?? '4.14.30';
  const catalogue = buildCatalogue();
  const sim = createSimulatedCluster(ctx, { profile: 'ha-cloud', version: from, channel: 'stable-4.14', catalogue });
  const cvs = ctx.informers.informerFor(ClusterVersionResource);
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  ctx.informers.informerFor(NodeResource);
  try {
    await sim.start(options.signal);
    ctx.informers.start(options.signal);
    await ctx.informers.waitForSync(options.signal);
    const started = clock.now();
    let last = '';
    const report = (): void => {
      const cv = cvs.get(undefined, CLUSTER_VERSION_NAME);
      const snapshot: ProgressSnapshot = {
        elapsedMs: clock.now() - started,
        version: cv?.status?.desired?.version ?? '',
        progressing: cv?.status?.conditions?.find((c) => c.type === 'Progressing')?.message ?? '',
        pools: Object.fromEntries(
          pools
            .list()
            .map((p) => [p.metadata?.name ?? '', [p.status?.updatedMachineCount ?? 0, p.status?.machineCount ?? 0]]),
        ),
      };
      const key = JSON.stringify({ ...snapshot, elapsedMs: 0 });
      if (key !== last) {
        last = key;
        options.onProgress?.(snapshot);
      }
    };
    cvs.addHandlers({ onAdd: report, onUpdate: report });
    pools.addHandlers({ onAdd: report, onUpdate: report });
    await clock.run({
      until: () => pools.list().length > 0 && pools.list().every(poolUpdated),
      signal: options.signal,
    });

    await ctx.client.patch(
      ClusterVersionResource,
      undefined,
      CLUSTER_VERSION_NAME,
      { spec: { channel: options.channel ?? 'stable-4.15' } },
      { type: 'merge' },
    );
    const offered = (): string[] => minorUpdates(cvs.get(undefined, CLUSTER_VERSION_NAME), '4.15.');
    await clock.run({
      until: () => offered().length > 0 || clock.now() > started + 30 * MINUTE,
      signal: options.signal,
    });
    const target = offered()[0];
    if (target === undefined) throw new Error('the update service offered no 4.15 release on the channel');
    const release = findRelease(catalogue, target)!;
    await ctx.client.patch(
      ClusterVersionResource,
      undefined,
      CLUSTER_VERSION_NAME,
      { spec: { desiredUpdate: { version: target, image: release.pullSpec } } },
      { type: 'merge' },
    );
    const upgradeStarted = clock.now();
    const done = (): boolean => {
      const h = cvs.get(undefined, CLUSTER_VERSION_NAME)?.status?.history?.[0];
      return h?.state === 'Completed' && h.version === target && pools.list().every(poolUpdated);
    };
    await clock.run({ until: () => done() || clock.now() > upgradeStarted + 300 * MINUTE, signal: options.signal });
    report();
    return { from, to: target, completed: done(), upgradeMinutes: (clock.now() - upgradeStarted) / MINUTE };
  } finally {
    await sim.close();
  }
}

/** Offered updates of one minor, newest first. */
function minorUpdates(cv: ClusterVersion | undefined, prefix: string): string[] {
  const versions = (cv?.status?.availableUpdates ?? []).map((r) => r.version ?? '').filter((v) => v.startsWith(prefix));
  return versions.sort((a, b) => Number(b.split('.')[2]) - Number(a.split('.')[2]));
}

/** Every machine of the pool runs the pool's target config and the pool says Updated. */
export function poolUpdated(machineConfigPool: MachineConfigPool): boolean {
  const s = machineConfigPool.status;
  return (
    s !== undefined &&
    s.machineCount > 0 &&
    s.updatedMachineCount === s.machineCount &&
    s.configuration?.name === machineConfigPool.spec.configuration?.name &&
    (s.conditions ?? []).some((c) => c.type === 'Updated' && c.status === 'True')
  );
}
