/**
 * The simulated machine-config operator and render controller
 * (docs/design/cluster-model.md#the-machine-config-operator,
 * docs/simulation.md#simulated-controllers): reacts to Deployment
 * `openshift-machine-config-operator/machine-config-operator`; when its RELEASE_VERSION changes,
 * reports Progressing `Working towards <v>`, rolls out its own operands for a drawn time, then
 * renders `rendered-<pool>-<hash>` for every pool and sets the pools' `spec.configuration`; runs
 * the RequiredPools check continuously (Degraded `RequiredPoolsFailed` after 10 min × required
 * machines) and bumps `status.versions` only once the master pool is Updated at the new config.
 * Upgradeable follows the pools (`DegradedPool`, `PoolUpdating` < 4.16).
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { DeploymentResource } from '../../api/builtin.js';
import {
  ClusterOperatorResource,
  OPERATOR_VERSION_NAME,
  type ClusterOperator,
  type OperandVersion,
} from '../../api/openshift/config-v1/cluster-operator.js';
import { MachineConfigResource } from '../../api/openshift/machineconfiguration-v1/machine-config.js';
import {
  MachineConfigPoolConditionType as PoolCond,
  MachineConfigPoolResource,
  type MachineConfigPool,
  type MachineConfigPoolCondition,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Controller } from '../../kube/controller.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { isAlreadyExists } from '../../kube/status-error.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { SeededRandom } from '../../lib/random.js';
import { type SimContext, simController } from '../context.js';
import { MCO_NAMESPACE } from './node-controller.js';
import {
  AS_EXPECTED,
  checkRequiredPools,
  formatVersions,
  setCoCondition,
  upgradeableCondition,
  type CoCondition,
} from './operator-status.js';
import { setPoolCondition } from './pool-status.js';
import { poolConfiguration, renderedConfigName, renderedMachineConfig } from './rendered-config.js';

/** The ClusterOperator and Deployment the MCO owns. */
export const MACHINE_CONFIG_CO = 'machine-config';
export const MCO_DEPLOYMENT = 'machine-config-operator';
const KEY = MACHINE_CONFIG_CO;
const MINUTE = 60_000;

/** (min, mode, max) in virtual minutes. */
export type Triangle = readonly [number, number, number];

export interface MachineConfigOperatorDurations {
  /**
   * New MCO pod, daemon/controller/server rollouts, up to the render
   * (docs/design/cluster-model.md#durations, "MCO self-rollout").
   */
  selfRollout: Triangle;
  /** RequiredPools timeout per machine in required pools, minutes (a constant: 10). */
  requiredPoolsTimeoutPerMachine: number;
}

/** HA-cloud defaults (docs/design/cluster-model.md#durations). */
export const DEFAULT_MCO_DURATIONS: MachineConfigOperatorDurations = {
  selfRollout: [3, 6, 10],
  requiredPoolsTimeoutPerMachine: 10,
};

/** A render failure injected on a pool. */
export interface RenderFailure {
  until?: number;
  message: string;
}

export interface OperatorOptions {
  durations: MachineConfigOperatorDurations;
  timeScale: number;
  random: SeededRandom;
  renderFailures: Map<string, RenderFailure>;
}

interface State {
  /** The version the running MCO was built for (the Deployment's once it rolled out). */
  running: string | undefined;
  runningImage: string;
  /** When the operands of `running` are rolled out and the render happens. */
  renderAt: number;
  /** Start of the current RequiredPools wait, while it fails. */
  requiredSince: number | undefined;
}

/** The operator + render controller, keyed by the single key `machine-config`. */
export function createOperatorController(ctx: SimContext, options: OperatorOptions): Controller {
  const deployments = ctx.informers.informerFor(DeploymentResource, { namespace: MCO_NAMESPACE });
  const cos = ctx.informers.informerFor(ClusterOperatorResource);
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  const configs = ctx.informers.informerFor(MachineConfigResource);
  const recorder = new EventRecorder({
    client: ctx.client,
    clock: ctx.clock,
    logger: ctx.logger,
    component: 'machine-config-operator',
    ...(ctx.activity ? { activity: ctx.activity } : {}),
  });
  const state: State = { running: undefined, runningImage: '', renderAt: 0, requiredSince: undefined };
  // Whole milliseconds: virtual time stays integral (timestamps, event names).
  const scale = (minutes: number): number => Math.max(1, Math.round((minutes * MINUTE) / options.timeScale));

  const reconcile = async (): Promise<{ requeueAfter?: number } | void> => {
    const now = ctx.clock.now();
    const dep = deployments.get(MCO_NAMESPACE, MCO_DEPLOYMENT);
    const container = dep?.spec?.template?.spec?.containers?.[0];
    const wanted = container?.env?.find((e) => e.name === 'RELEASE_VERSION')?.value;
    let co = cos.get(undefined, MACHINE_CONFIG_CO);
    if (!co) {
      if (!wanted) return;
      co = await createClusterOperator(ctx);
    }
    const reported = co.status?.versions?.find((v) => v.name === OPERATOR_VERSION_NAME)?.version;
    state.running ??= reported ?? wanted;
    if (!state.runningImage)
      state.runningImage =
        co.status?.versions?.find((v) => v.name === 'operator-image')?.version ?? container?.image ?? '';
    if (wanted && wanted !== state.running) {
      state.running = wanted;
      state.runningImage = container?.image ?? '';
      state.renderAt = now + scale(options.random.triangular(...options.durations.selfRollout));
      state.requiredSince = undefined;
    }
    const running = state.running;
    if (!running) return;
    const wake: number[] = [];
    const allPools = pools.list();
    if (now >= state.renderAt) {
      for (const pool of allPools) {
        const failure = activeFailure(options.renderFailures.get(pool.metadata?.name ?? ''), now);
        if (failure?.until !== undefined) wake.push(failure.until);
        await renderPool(
          ctx,
          pool,
          running,
          failure,
          configs.get(undefined, renderedConfigName(pool.metadata?.name ?? '', running)) !== undefined,
        );
      }
    } else {
      wake.push(state.renderAt);
    }
    const vStore: OperandVersion[] = [
      { name: OPERATOR_VERSION_NAME, version: running },
      { name: 'operator-image', version: state.runningImage },
    ];
    let syncError: string | undefined;
    if (now < state.renderAt) {
      // The new operands are still rolling out; RequiredPools runs after them.
    } else {
      const result = checkRequiredPools(allPools, running, (p) => renderedConfigName(p.metadata?.name ?? '', running));
      if (result.kind === 'ok') state.requiredSince = undefined;
      else if (result.kind === 'failed') {
        syncError = result.error;
        state.requiredSince = undefined;
      } else {
        state.requiredSince ??= now;
        const requiredMachines = allPools.filter(isRequired).reduce((n, p) => n + (p.status?.machineCount ?? 0), 0);
        const deadline =
          state.requiredSince + scale(options.durations.requiredPoolsTimeoutPerMachine * Math.max(1, requiredMachines));
        if (now >= deadline) {
          syncError = `error during syncRequiredMachineConfigPools: [context deadline exceeded, ${result.error}]`;
          state.requiredSince = now;
          wake.push(now + scale(options.durations.requiredPoolsTimeoutPerMachine * Math.max(1, requiredMachines)));
        } else {
          wake.push(deadline);
        }
      }
    }
    const synced = now >= state.renderAt && syncError === undefined && state.requiredSince === undefined;
    const statusOf = (clusterOperator: ClusterOperator): NonNullable<ClusterOperator['status']> | undefined => {
      const atVersion = jsonEqual(
        (clusterOperator.status?.versions ?? []) as unknown as JsonValue,
        vStore as unknown as JsonValue,
      );
      const next = nextStatus(clusterOperator, { running, vStore, atVersion, synced, syncError, pools: allPools, now });
      return jsonEqual(next as unknown as JsonValue, (clusterOperator.status ?? null) as unknown as JsonValue)
        ? undefined
        : next;
    };
    if (statusOf(co)) {
      // Recomputed on the fresh object: the cache may lag our own last write.
      let before: ClusterOperator | undefined;
      let after: NonNullable<ClusterOperator['status']> | undefined;
      await updateStatusWithRetry(
        ctx.client,
        ClusterOperatorResource,
        MACHINE_CONFIG_CO,
        (fresh) => {
          before = structuredClone(fresh);
          after = statusOf(fresh);
          if (!after) return undefined;
          fresh.status = after;
          return fresh;
        },
        { clock: ctx.clock, backoffMs: 0 },
      );
      if (before && after) emitEvents(recorder, before, after, vStore);
    }
    const soonest = Math.min(...wake.filter((t) => t > now));
    return Number.isFinite(soonest) ? { requeueAfter: soonest - now } : undefined;
  };

  return simController(ctx, { name: 'machine-config-operator', reconcile })
    .watches(DeploymentResource, (d: Deployment) => (d.metadata?.name === MCO_DEPLOYMENT ? [KEY] : []), {
      namespace: MCO_NAMESPACE,
    })
    .watches(ClusterOperatorResource, (c: ClusterOperator) => (c.metadata?.name === MACHINE_CONFIG_CO ? [KEY] : []))
    .watches(MachineConfigPoolResource, () => [KEY])
    .watches(MachineConfigResource, () => [KEY]);
}

function isRequired(pool: MachineConfigPool): boolean {
  return pool.metadata?.labels?.['operator.machineconfiguration.openshift.io/required-for-upgrade'] !== undefined;
}

function activeFailure(renderFailure: RenderFailure | undefined, now: number): RenderFailure | undefined {
  return renderFailure && (renderFailure.until === undefined || now < renderFailure.until) ? renderFailure : undefined;
}

/** Renders one pool for a release (or records RenderDegraded while a render failure is injected). */
async function renderPool(
  ctx: SimContext,
  pool: MachineConfigPool,
  version: string,
  failure: RenderFailure | undefined,
  exists: boolean,
): Promise<void> {
  const name = pool.metadata?.name ?? '';
  const now = ctx.clock.now();
  const conditions = pool.status?.conditions ?? [];
  if (failure) {
    const next = setPoolCondition(
      conditions,
      {
        type: PoolCond.RenderDegraded,
        status: 'True',
        reason: '',
        message: `Failed to render configuration for pool ${name}: ${failure.message}`,
      },
      now,
    );
    if (next !== conditions)
      await setRenderDegraded(
        ctx,
        name,
        next.find((c) => c.type === PoolCond.RenderDegraded)!,
      );
    return;
  }
  if (!exists) {
    try {
      await ctx.client.create(MachineConfigResource, renderedMachineConfig(pool, version));
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
  const target = poolConfiguration(name, version);
  if (!jsonEqual((pool.spec.configuration ?? null) as unknown as JsonValue, target as unknown as JsonValue)) {
    // The render controller owns spec.configuration: no precondition, like its Update after a fresh read.
    await ctx.client.patch(
      MachineConfigPoolResource,
      undefined,
      name,
      { spec: { configuration: target } } as unknown as JsonValue,
      { type: 'merge' },
    );
    return;
  }
  const next = setPoolCondition(
    conditions,
    { type: PoolCond.RenderDegraded, status: 'False', reason: '', message: '' },
    now,
  );
  if (next !== conditions)
    await setRenderDegraded(
      ctx,
      name,
      next.find((c) => c.type === PoolCond.RenderDegraded)!,
    );
}

/** Writes the RenderDegraded condition on the fresh pool (the node controller writes the rest of the status). */
async function setRenderDegraded(
  ctx: SimContext,
  pool: string,
  poolCondition: MachineConfigPoolCondition,
): Promise<void> {
  await updateStatusWithRetry(
    ctx.client,
    MachineConfigPoolResource,
    pool,
    (fresh) => {
      const conditions = fresh.status?.conditions ?? [];
      const next = setPoolCondition(conditions, poolCondition, ctx.clock.now());
      if (next === conditions) return undefined;
      fresh.status = { ...emptyPoolStatus(), ...fresh.status, conditions: next };
      return fresh;
    },
    { clock: ctx.clock, backoffMs: 0 },
  );
}

function emptyPoolStatus(): NonNullable<MachineConfigPool['status']> {
  return {
    configuration: { name: '' },
    machineCount: 0,
    updatedMachineCount: 0,
    readyMachineCount: 0,
    unavailableMachineCount: 0,
    degradedMachineCount: 0,
  };
}

interface StatusInput {
  running: string;
  vStore: OperandVersion[];
  atVersion: boolean;
  /** Every sync task succeeded. */
  synced: boolean;
  syncError: string | undefined;
  pools: readonly MachineConfigPool[];
  now: number;
}

/** The CO status after one sync, as `pkg/operator/status.go` derives it. */
function nextStatus(co: ClusterOperator, statusInput: StatusInput): NonNullable<ClusterOperator['status']> {
  const status = structuredClone(co.status ?? {});
  let conditions = status.conditions ?? [];
  const set = (coCondition: CoCondition): void => {
    conditions = setCoCondition(conditions, coCondition, statusInput.now);
  };
  const progressing = conditions.some((c) => c.type === 'Progressing' && c.status === 'True');
  if (statusInput.syncError !== undefined) {
    const message = statusInput.atVersion
      ? `Failed to resync ${statusInput.running} because: ${statusInput.syncError}`
      : `Unable to apply ${statusInput.running}: ${statusInput.syncError}`;
    set({ type: 'Degraded', status: 'True', reason: 'RequiredPoolsFailed', message });
    set(
      progressing
        ? { type: 'Progressing', status: 'True', message: `Unable to apply ${statusInput.running}` }
        : { type: 'Progressing', status: 'False', message: `Error while reconciling ${statusInput.running}` },
    );
  } else {
    if (statusInput.synced) set({ type: 'Degraded', status: 'False' });
    const degraded = conditions.some((c) => c.type === 'Degraded' && c.status === 'True');
    let versions = status.versions ?? [];
    if (statusInput.synced && !(progressing && degraded)) versions = statusInput.vStore;
    status.versions = versions;
    const at = jsonEqual(versions as unknown as JsonValue, statusInput.vStore as unknown as JsonValue);
    if (!degraded)
      set(
        at
          ? { type: 'Progressing', status: 'False', message: `Cluster version is ${statusInput.running}` }
          : { type: 'Progressing', status: 'True', message: `Working towards ${statusInput.running}` },
      );
  }
  set({
    type: 'Available',
    status: 'True',
    reason: AS_EXPECTED,
    message: `Cluster has deployed ${formatVersions(status.versions)}`,
  });
  set(upgradeableCondition(statusInput.pools, statusInput.running));
  status.conditions = conditions;
  return status;
}

function emitEvents(
  recorder: EventRecorder,
  co: ClusterOperator,
  after: NonNullable<ClusterOperator['status']>,
  vStore: OperandVersion[],
): void {
  const before = co.status?.versions;
  const wasProgressing = co.status?.conditions?.some((c) => c.type === 'Progressing' && c.status === 'True') ?? false;
  const isProgressing =
    after.conditions?.some(
      (c) => c.type === 'Progressing' && c.status === 'True' && c.message?.startsWith('Working towards'),
    ) ?? false;
  if (!wasProgressing && isProgressing)
    recorder.event(
      co,
      'Normal',
      'OperatorVersionChanged',
      `clusteroperator/machine-config-operator started a version change from ${formatVersions(before)} to ${formatVersions(vStore)}`,
    );
  if (
    !jsonEqual((before ?? []) as unknown as JsonValue, (after.versions ?? []) as unknown as JsonValue) &&
    (before?.length ?? 0) > 0
  ) {
    recorder.event(
      co,
      'Normal',
      'OperatorVersionChanged',
      `clusteroperator/machine-config-operator version changed from ${formatVersions(before)} to ${formatVersions(after.versions)}`,
    );
  }
  const wasDegraded = co.status?.conditions?.find((c) => c.type === 'Degraded' && c.status === 'True');
  const degraded = after.conditions?.find((c) => c.type === 'Degraded' && c.status === 'True');
  if (degraded && degraded.message !== wasDegraded?.message)
    recorder.event(co, 'Warning', `OperatorDegraded: ${degraded.reason ?? ''}`, degraded.message ?? '');
}

async function createClusterOperator(ctx: SimContext): Promise<ClusterOperator> {
  try {
    return await ctx.client.create(ClusterOperatorResource, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: MACHINE_CONFIG_CO },
      spec: {},
    });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    return ctx.client.get(ClusterOperatorResource, undefined, MACHINE_CONFIG_CO);
  }
}
