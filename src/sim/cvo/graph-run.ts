/**
 * One sync attempt over the payload's task graph (`pkg/payload/task_graph.go: RunGraph`,
 * docs/design/cluster-model.md#the-task-graph). Update mode: stages in order (a Job is a barrier),
 * the component chains of a runlevel in parallel (at most 16 at once), each chain's manifests in
 * order; a chain stops at its first error and an erroring stage lets no later stage start, while
 * the other chains of the stage finish. Reconcile mode: every chain, flattened and shuffled, two at
 * a time. `done` counts the tasks finished in this attempt. The side effects (applying, gates,
 * time) are hooks, so the walk itself is tested without a cluster.
 */
import type { ComponentChain, PayloadManifest, TaskStage } from '../releases/payload.js';
import { componentDeployment } from '../releases/operator-deployment.js';
import type { SyncError } from './errors.js';

export interface GraphHooks {
  /** Applies a chain's operator Deployment (the hook may skip one already applied). */
  applyDeployment(chain: ComponentChain, signal: AbortSignal): Promise<void>;
  /** Creates the ClusterOperators of a chain that do not exist yet. */
  ensureOperators(names: readonly string[], signal: AbortSignal): Promise<void>;
  /** The ClusterOperator gate of a CO manifest (undefined: passes). */
  gate(manifest: PayloadManifest): SyncError | undefined;
  /** Runs a Job barrier to its end (undefined: succeeded). */
  runJob(manifest: PayloadManifest, signal: AbortSignal): Promise<SyncError | undefined>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Called whenever `done` grew. */
  progress(done: number): void;
}

export interface GraphRunOptions {
  stages: readonly TaskStage[];
  mode: 'update' | 'reconcile';
  /** Virtual time to apply one manifest in a stage not completed before. */
  taskMs: (runlevel: number) => number;
  /** Time to re-walk a stage completed in an earlier attempt (one sleep for the stage). */
  reapplyStageMs: number;
  /** Stages (by index) completed in earlier attempts of this payload. */
  completedStages: ReadonlySet<number>;
  /** Reconcile mode: the order of the flattened chains. */
  shuffle?: <T>(items: T[]) => T[];
  signal: AbortSignal;
}

export interface GraphRunResult {
  done: number;
  errors: SyncError[];
  /** Stages (by index) completed in this attempt. */
  completedStages: Set<number>;
}

/** Max parallel workers in update mode (`Start(runContext, 16)`) and reconcile mode. */
export const UPDATE_WORKERS = 16;
export const RECONCILE_WORKERS = 2;

async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Runs one attempt; throws only when the signal aborts. */
export async function runGraph(options: GraphRunOptions, hooks: GraphHooks): Promise<GraphRunResult> {
  const { signal } = options;
  let done = 0;
  const errors: SyncError[] = [];
  const completedStages = new Set<number>();
  const add = (count: number): void => {
    if (count <= 0) return;
    done += count;
    hooks.progress(done);
  };

  const runChain = async (chain: ComponentChain, taskMs: number): Promise<SyncError | undefined> => {
    const dep = componentDeployment(chain);
    const cos = chain.tasks.filter((t) => t.kind === 'ClusterOperator');
    if (cos.length > 0)
      await hooks.ensureOperators(
        cos.map((c) => c.name),
        signal,
      );
    let pending = 0;
    let applied = false;
    const flush = async (): Promise<void> => {
      if (pending === 0) return;
      if (taskMs > 0) await hooks.sleep(pending * taskMs, signal);
      add(pending);
      pending = 0;
    };
    for (const task of chain.tasks) {
      signal.throwIfAborted();
      const isOwnDeployment =
        dep !== undefined &&
        !dep.synthesized &&
        task.kind === 'Deployment' &&
        task.name === dep.name &&
        task.namespace === dep.namespace;
      if (isOwnDeployment || (task.kind === 'ClusterOperator' && dep?.synthesized && !applied)) {
        await flush();
        await hooks.applyDeployment(chain, signal);
        applied = true;
      }
      if (task.kind === 'ClusterOperator') {
        await flush();
        const err = hooks.gate(task);
        if (err) return err;
      }
      pending++;
    }
    await flush();
    return undefined;
  };

  if (options.mode === 'reconcile') {
    const chains = options.stages.flatMap((s) => (s.kind === 'runlevel' ? s.components : []));
    const order = options.shuffle ? options.shuffle([...chains]) : chains;
    await pool(order, RECONCILE_WORKERS, async (chain) => {
      const err = await runChain(chain, 0);
      if (err) errors.push(err);
    });
    return { done, errors, completedStages };
  }

  for (const [i, stage] of options.stages.entries()) {
    signal.throwIfAborted();
    if (stage.kind === 'job') {
      const err = await hooks.runJob(stage.task, signal);
      if (err) {
        errors.push(err);
        break;
      }
      add(1);
      completedStages.add(i);
      continue;
    }
    const again = options.completedStages.has(i);
    if (again && options.reapplyStageMs > 0) await hooks.sleep(options.reapplyStageMs, signal);
    const taskMs = again ? 0 : options.taskMs(stage.runlevel);
    const stageErrors: SyncError[] = [];
    await pool(stage.components, UPDATE_WORKERS, async (chain) => {
      const err = await runChain(chain, taskMs);
      if (err) stageErrors.push(err);
    });
    if (stageErrors.length > 0) {
      errors.push(...stageErrors);
      break;
    }
    completedStages.add(i);
  }
  return { done, errors, completedStages };
}
