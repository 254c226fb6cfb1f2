/**
 * The Deployment controller for operator Deployments only (those carrying
 * `release.openshift.io/version`; wave-2 contract item 2): when a new generation appears, the
 * new operator pod starts (a drawn `operatorPodStart`), then the status shows every replica
 * updated and available. Workload Deployments are left to the workloads controller.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { DeploymentResource } from '../../api/builtin.js';
import type { Controller } from '../../kube/controller.js';
import { type ReconcileResult } from '../../kube/controller.js';
import { isNotFound } from '../../kube/status-error.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { SeededRandom } from '../../lib/random.js';
import { type SimContext, simController } from '../context.js';
import { writeStatusFromCache } from './cached-status-write.js';
import {
  deploymentRolledOut,
  deploymentStatus,
  isOperatorDeployment,
  type DeploymentPhase,
} from './component-deployment.js';
import { drawMs } from '../durations.js';
import type { OperatorDurations } from './durations.js';

/** Options of {@link createOperatorDeploymentController}. */
export interface OperatorDeploymentControllerOptions {
  durations: OperatorDurations;
  timeScale: number;
  random: SeededRandom;
}

interface Rollout {
  generation: number;
  readyAt: number;
}

/** A controller that rolls out operator Deployments. */
export function createOperatorDeploymentController(
  ctx: SimContext,
  options: OperatorDeploymentControllerOptions,
): Controller {
  const rollouts = new Map<string, Rollout>();
  const streams = new Map<string, SeededRandom>();
  const informer = ctx.informers.informerFor(DeploymentResource);
  const stream = (key: string): SeededRandom => {
    let s = streams.get(key);
    if (!s) streams.set(key, (s = options.random.fork(key)));
    return s;
  };

  const reconcile = async (key: string, signal: AbortSignal): Promise<ReconcileResult | void> => {
    const dep = informer.getByKey(key);
    if (!dep || !isOperatorDeployment(dep)) {
      rollouts.delete(key);
      return;
    }
    if (deploymentRolledOut(dep)) {
      rollouts.delete(key);
      return;
    }
    const now = ctx.clock.now();
    const generation = dep.metadata?.generation ?? 1;
    let r = rollouts.get(key);
    if (!r || r.generation !== generation) {
      r = { generation, readyAt: now + drawMs(stream(key), options.durations.operatorPodStart, options.timeScale) };
      rollouts.set(key, r);
    }
    const phase: DeploymentPhase = now >= r.readyAt ? 'complete' : 'rolling';
    try {
      await writeStatus(ctx, key, dep, generation, phase, signal);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (phase === 'rolling') return { requeueAfter: r.readyAt - now };
  };

  return simController(ctx, { name: 'sim-operator-deployments', reconcile }).for(DeploymentResource, {
    predicates: [
      { create: isOperatorDeployment, update: (_o, n) => isOperatorDeployment(n), delete: isOperatorDeployment },
    ],
  });
}

async function writeStatus(
  ctx: SimContext,
  key: string,
  cached: Deployment,
  generation: number,
  phase: DeploymentPhase,
  signal: AbortSignal,
): Promise<void> {
  await writeStatusFromCache<Deployment>(
    ctx.client,
    DeploymentResource,
    key,
    cached,
    (fresh) => {
      if (
        !isOperatorDeployment(fresh) ||
        deploymentRolledOut(fresh) ||
        (fresh.metadata?.generation ?? 1) !== generation
      )
        return undefined;
      const status = deploymentStatus(fresh, phase, ctx.clock.now());
      if (jsonEqual((fresh.status ?? {}) as JsonValue, status as JsonValue)) return undefined;
      return { ...fresh, status };
    },
    { clock: ctx.clock, signal },
  );
}
