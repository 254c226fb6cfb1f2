/**
 * The simulated cluster-version operator: an ordinary API client that owns `ClusterVersion.status`
 * (docs/design/cluster-model.md#clusterversion, docs/design/cluster-model.md#the-release-payload).
 * Its sync worker loads the payload that `spec.desiredUpdate` names (ReleaseAccepted steps and
 * preconditions), walks the payload's task graph in attempts (applying each component's operator
 * Deployment and waiting on the ClusterOperator gates), retries with backoff or at once when a
 * ClusterOperator changes, and reports Progressing/Failing/Available and history; the update
 * retriever keeps the available and conditional updates. Status writes go through the CVO's 15 s
 * token bucket.
 */
import { setMaxListeners } from 'node:events';
import { DeploymentResource } from '../../api/builtin.js';
import {
  ClusterOperatorResource,
  OPERATOR_VERSION_NAME,
  type ClusterOperator,
} from '../../api/openshift/config-v1/cluster-operator.js';
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
  type ClusterVersionStatus,
} from '../../api/openshift/config-v1/cluster-version.js';
import type { SimComponent, SimContext } from '../context.js';
import {
  findRelease,
  findReleaseByDigest,
  type Catalogue,
  type Release as CatalogueRelease,
} from '../releases/catalogue.js';
import {
  payloadFor,
  taskGraph,
  type ComponentChain,
  type PayloadManifest,
  type ReleasePayload,
  type TaskStage,
} from '../releases/payload.js';
import type { RiskTable } from './available-updates.js';
import {
  componentDeployment,
  componentImage,
  CVO_FIELD_MANAGER,
  deploymentManifest,
} from '../releases/operator-deployment.js';
import { findCondition, type ConditionInput } from './conditions.js';
import { imageDigest, resolveDesired, type Target } from './desired.js';
import { drawMs } from '../durations.js';
import {
  attemptBackoffMs,
  DEFAULT_CVO_DURATIONS,
  STATUS_BURST,
  STATUS_INTERVAL_MS,
  UPGRADEABLE_INTERVAL_MS,
  UPGRADEABLE_RETRY_MS,
  type CvoDurations,
} from './durations.js';
import { checkOperatorGate, summarizeErrors, type SyncError } from './errors.js';
import { runGraph } from './graph-run.js';
import { completeHistoryHead, startHistoryEntry } from './history.js';
import { checkPreconditions, judgePreconditions } from './preconditions.js';
import type { WorkerReport } from './progress.js';
import { buildClusterVersionStatus } from './status.js';
import {
  loadFailure,
  payloadLoadedCondition,
  preconditionsFailedCondition,
  retrievingCondition,
} from './release-accepted.js';
import { ensureNamespace, ensureOperators, runJobBarrier, writeClusterVersionStatus } from './cluster-writes.js';
import { capabilitiesFor, releaseStatus, versionHash } from './release-info.js';
import { ThrottledWriter } from './throttle.js';
import { UpdateRetriever, type RetrievedState } from './update-retriever.js';
import { evaluateUpgradeable, type UpgradeableResult } from './upgradeable.js';
import { Wakeup } from './wakeup.js';

export interface ClusterVersionOperatorOptions {
  catalogue: Catalogue;
  /** The graph URL used when `spec.upstream` is empty (the simulated update service). */
  updateServiceUrl?: string;
  durations?: Partial<CvoDurations>;
  /** Divides every duration (default 1). */
  timeScale?: number;
  /** Risk name → applies (true/false/'error'), fixed or by virtual time. */
  riskTable?: RiskTable;
  /** Real ms after which an unanswered update-service request stops holding a virtual clock (default 2000). */
  hungRequestWallMs?: number;
}

/** The component, with the knobs a scenario uses. */
export interface ClusterVersionOperator extends SimComponent {
  /** Replaces the risk table (cached evaluations stay valid for their hour). */
  setRiskTable(table: RiskTable): void;
  /** Fetches the update graph now. */
  refreshUpdates(): void;
  /**
   * The CVO pod restarts (e.g. rescheduled off a draining master): the attempt is cancelled, no
   * status is written for the restart gap, and the new pod counts from zero again, so `done` goes
   * backwards for a while (docs/design/cluster-model.md#progress-counting,
   * docs/simulation.md#scenario-files).
   */
  restart(): void;
  /** Virtual times of the status writes so far. */
  readonly statusWrites: readonly number[];
}

/** The payload the worker applies. */
interface Loaded {
  version: string;
  image: string;
  release: CatalogueRelease;
  payload: ReleasePayload;
  stages: TaskStage[];
  /** Applied completely once: reconciling from now on. */
  completed: boolean;
  completedStages: Set<number>;
  /** `done` of the last failed attempt (smaller reports are not published). */
  lastFailedDone: number | undefined;
  runlevel90TaskMs: number;
}

class CvoRestart extends Error {}

/** Creates the simulated CVO. ClusterVersion `version` must exist (see installState). */
export function createClusterVersionOperator(
  ctx: SimContext,
  options: ClusterVersionOperatorOptions,
): ClusterVersionOperator {
  const cvo = new SimulatedCvo(ctx, options);
  return {
    name: 'cluster-version-operator',
    start: (signal) => cvo.start(signal),
    setRiskTable: (table) => cvo.setRiskTable(table),
    refreshUpdates: () => cvo.refreshUpdates(),
    restart: () => cvo.restart(),
    get statusWrites() {
      return cvo.statusWrites;
    },
  };
}

class SimulatedCvo {
  readonly #ctx: SimContext;
  readonly #o: ClusterVersionOperatorOptions;
  readonly #durations: CvoDurations;
  readonly #scale: number;
  readonly #random;
  readonly #log;
  readonly #intervalMs: number;
  readonly #cvInformer;
  readonly #coInformer;
  readonly #wakeup: Wakeup;
  readonly #throttle: ThrottledWriter;
  #retriever: UpdateRetriever | undefined;
  #riskTable: RiskTable;
  #signal: AbortSignal | undefined;
  #work: AbortController | undefined;

  // What the CVO holds and publishes.
  #loaded: Loaded | undefined;
  #runningVersion = '';
  #desired: ClusterVersionStatus['desired'] | undefined;
  #history: NonNullable<ClusterVersionStatus['history']> = [];
  #observedGeneration = 0;
  #versionHash = '';
  #capabilities: ClusterVersionStatus['capabilities'];
  #report: WorkerReport | undefined;
  #invalid: string | undefined;
  #releaseAccepted: ConditionInput | undefined;
  #retrieved: RetrievedState | undefined;
  #upgradeable: UpgradeableResult = { upgradeable: undefined, subConditions: [] };
  #upgradeableTimer: { cancel(): void } | undefined;
  readonly #operatorStart = new Map<string, number>();
  readonly #retrievedImages = new Set<string>();
  readonly #loadFailures = new Map<string, ConditionInput>();
  readonly #applied = new Map<string, string>();
  readonly #knownNamespaces = new Set<string>();
  #consecutiveErrors = 0;
  #restartPending = false;

  constructor(ctx: SimContext, options: ClusterVersionOperatorOptions) {
    this.#ctx = ctx;
    this.#o = options;
    this.#durations = { ...DEFAULT_CVO_DURATIONS, ...options.durations };
    this.#scale = options.timeScale ?? 1;
    this.#random = ctx.random.fork('cluster-version-operator');
    this.#log = ctx.logger.child({ component: 'cluster-version-operator' });
    // minimumUpdateCheckInterval: uniform in [2 min, 4 min), drawn once at start.
    this.#intervalMs = ((2 + 2 * this.#random.next()) * 60_000) / this.#scale;
    this.#riskTable = options.riskTable ?? {};
    this.#cvInformer = ctx.informers.informerFor(ClusterVersionResource);
    this.#coInformer = ctx.informers.informerFor(ClusterOperatorResource);
    this.#wakeup = new Wakeup(ctx.clock, ctx.activity, 'cvo sync worker');
    this.#throttle = new ThrottledWriter({
      clock: ctx.clock,
      activity: ctx.activity,
      intervalMs: STATUS_INTERVAL_MS,
      burst: STATUS_BURST,
      write: () => this.#writeStatus(),
      onError: (err) => this.#log.warn({ err: String(err) }, 'status write failed'),
    });
  }

  get statusWrites(): readonly number[] {
    return this.#throttle.writes;
  }

  setRiskTable(table: RiskTable): void {
    this.#riskTable = table;
  }

  refreshUpdates(): void {
    this.#retriever?.refresh();
  }

  restart(): void {
    this.#restartPending = true;
    this.#work?.abort();
    this.#wakeup.wake();
  }

  /** The gap while a new CVO pod starts: nothing is written meanwhile, and it counts from zero again. */
  async #restartGap(signal: AbortSignal): Promise<void> {
    this.#throttle.hold(true);
    try {
      await this.#ctx.clock.sleep(drawMs(this.#random, this.#durations.cvoRestartGap, this.#scale), signal);
    } finally {
      this.#throttle.hold(false);
    }
    if (this.#loaded) this.#loaded.lastFailedDone = undefined;
    this.#retriever?.refresh();
  }

  async start(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    this.#cvInformer.addHandlers({
      onAdd: () => this.#wakeup.wake(),
      onUpdate: (old, cv) => this.#onClusterVersion(old, cv),
    });
    this.#coInformer.addHandlers({
      onAdd: () => this.#wakeup.wake(),
      onUpdate: (old, co) => {
        if (operatorChanged(old, co)) this.#wakeup.wake();
      },
      onDelete: () => this.#wakeup.wake(),
    });
    this.#ctx.informers.start(signal);
    const synced = await Promise.all([this.#cvInformer.waitForSync(signal), this.#coInformer.waitForSync(signal)]);
    if (!synced.every(Boolean)) return;
    const cv = this.#cv();
    if (!cv?.status)
      throw new Error(
        'cluster-version-operator: ClusterVersion "version" with a status must exist before the CVO starts (see installState)',
      );
    this.#restore(cv);
    this.#retriever = new UpdateRetriever({
      clock: this.#ctx.clock,
      activity: this.#ctx.activity,
      logger: this.#log,
      intervalMs: this.#intervalMs,
      defaultUpstream: this.#o.updateServiceUrl,
      riskTable: () => this.#riskTable,
      clusterVersion: () => this.#cv(),
      currentVersion: () => this.#runningVersion,
      publish: (state) => {
        this.#retrieved = state;
        this.#throttle.request();
      },
      hungAfterWallMs: this.#o.hungRequestWallMs,
    });
    signal.addEventListener(
      'abort',
      () => {
        this.#throttle.stop();
        this.#upgradeableTimer?.cancel();
        this.#work?.abort();
      },
      { once: true },
    );
    this.#checkUpgradeable();
    void this.#retriever
      .run(signal)
      .catch((err: unknown) => this.#log.error({ err: String(err) }, 'update retriever stopped'));
    void this.#loop(signal).catch((err: unknown) => this.#log.error({ err: String(err) }, 'sync worker stopped'));
  }

  #cv(): ClusterVersion | undefined {
    return this.#cvInformer.get(undefined, CLUSTER_VERSION_NAME);
  }

  #onClusterVersion(old: ClusterVersion, cv: ClusterVersion): void {
    if (JSON.stringify(old.spec.desiredUpdate ?? null) !== JSON.stringify(cv.spec.desiredUpdate ?? null)) {
      // Retargeting cancels the attempt at once; a failed load of the old target is forgotten.
      this.#loadFailures.clear();
      this.#work?.abort();
    }
    if (old.metadata?.generation !== cv.metadata?.generation) this.#wakeup.wake();
    if (JSON.stringify(old.spec.overrides ?? []) !== JSON.stringify(cv.spec.overrides ?? [])) this.#checkUpgradeable();
    this.#retriever?.observe(cv);
  }

  /** Rebuilds the worker's state from the status (the CVO starting on an existing cluster). */
  #restore(cv: ClusterVersion): void {
    const status = cv.status!;
    this.#desired = status.desired;
    this.#history = status.history ?? [];
    this.#observedGeneration = status.observedGeneration;
    this.#versionHash = status.versionHash;
    this.#capabilities = status.capabilities;
    if (status.availableUpdates || status.conditionalUpdates) {
      const cond = findCondition(status.conditions, 'RetrievedUpdates');
      this.#retrieved = {
        condition: {
          type: 'RetrievedUpdates',
          status: cond?.status ?? 'True',
          reason: cond?.reason,
          message: cond?.message,
        },
        availableUpdates: status.availableUpdates,
        conditionalUpdates: status.conditionalUpdates ?? [],
      };
    }
    const digest = imageDigest(status.desired.image);
    const release =
      (digest ? findReleaseByDigest(this.#o.catalogue, digest) : undefined) ??
      findRelease(this.#o.catalogue, status.desired.version);
    if (!release) {
      this.#log.error(
        { version: status.desired.version },
        'the running release is not in the catalogue; the sync worker stays idle',
      );
      return;
    }
    const head = this.#history[0];
    const completed = head?.state === 'Completed' && head.version === release.version;
    this.#loaded = this.#newLoaded(release, completed);
    this.#runningVersion = release.version;
    this.#report = {
      version: release.version,
      done: 0,
      total: this.#loaded.payload.manifests.length,
      reconciling: completed,
    };
  }

  #newLoaded(release: CatalogueRelease, completed: boolean): Loaded {
    const payload = payloadFor(release);
    const stages = taskGraph(payload);
    const rl90 = stages.find((s) => s.kind === 'runlevel' && s.runlevel === 90);
    const longest = rl90?.kind === 'runlevel' ? Math.max(1, ...rl90.components.map((c) => c.tasks.length)) : 1;
    return {
      version: release.version,
      image: release.pullSpec,
      release,
      payload,
      stages,
      completed,
      completedStages: new Set(),
      lastFailedDone: undefined,
      runlevel90TaskMs: drawMs(this.#random, this.#durations.runlevel90, this.#scale) / longest,
    };
  }

  async #loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.#wakeup.release();
      if (this.#restartPending) {
        this.#restartPending = false;
        try {
          await this.#restartGap(signal);
        } catch {
          return;
        }
      }
      this.#work = new AbortController();
      const work = this.#work;
      // Up to 16 chains of one runlevel sleep on the attempt's signal at once.
      setMaxListeners(64, work.signal);
      const onAbort = (): void => work.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      let delay: number | undefined;
      try {
        delay = await this.#syncOnce(work.signal);
      } catch (err) {
        if (signal.aborted) return;
        if (!work.signal.aborted) this.#log.error({ err: String(err) }, 'sync failed');
        delay = work.signal.aborted ? 0 : this.#intervalMs;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
      if (delay !== 0) await this.#wakeup.sleep(delay, signal);
    }
  }

  /** One pass: observe the spec, maybe load a new payload, run one attempt. Returns the delay before the next. */
  async #syncOnce(signal: AbortSignal): Promise<number | undefined> {
    const cv = this.#cv();
    if (!cv) return undefined;
    const desired = resolveDesired(cv, this.#o.catalogue);
    const invalid = desired.kind === 'invalid' ? desired.message : undefined;
    if (invalid !== this.#invalid) {
      this.#invalid = invalid;
      this.#throttle.request();
    }
    if (desired.kind === 'target' && desired.target.image !== this.#loaded?.image)
      await this.#load(cv, desired.target, signal);
    const generation = cv.metadata?.generation ?? 0;
    if (generation !== this.#observedGeneration) {
      this.#observedGeneration = generation;
      this.#throttle.request();
    }
    if (!this.#loaded) return undefined;
    return this.#attempt(this.#loaded, signal);
  }

  /**
   * ReleaseAccepted steps and preconditions for a new target
   * (docs/design/cluster-model.md#release-acceptance-and-preconditions); accepted targets become
   * the loaded payload.
   */
  async #load(cv: ClusterVersion, target: Target, signal: AbortSignal): Promise<void> {
    const failed = this.#loadFailures.get(target.image);
    if (failed) {
      this.#setReleaseAccepted(failed);
      return;
    }
    if (!this.#retrievedImages.has(target.image)) {
      this.#setReleaseAccepted(retrievingCondition(target));
      await this.#ctx.clock.sleep(drawMs(this.#random, this.#durations.payloadRetrieval, this.#scale), signal);
      const failure = loadFailure(target);
      if (failure) {
        this.#loadFailures.set(target.image, failure);
        this.#setReleaseAccepted(failure);
        return;
      }
      this.#retrievedImages.add(target.image);
    }
    const release = target.release!;
    const held: ClusterVersion = { ...cv, status: this.#buildStatus(cv) };
    const failures = checkPreconditions({
      cv: held,
      targetVersion: release.version,
      targetImage: target.image,
      upgradeable: this.#upgradeable.upgradeable,
    });
    const verdict = judgePreconditions(failures, target.force);
    if (verdict.blocked) {
      this.#setReleaseAccepted(preconditionsFailedCondition(release.version, target.image, verdict.message));
      this.#scheduleUpgradeable(UPGRADEABLE_RETRY_MS);
      return;
    }
    const now = this.#ctx.clock.now();
    const loaded = this.#newLoaded(release, false);
    loaded.image = target.image;
    this.#loaded = loaded;
    const offered = [
      ...(this.#retrieved?.availableUpdates ?? []),
      ...(this.#retrieved?.conditionalUpdates ?? []).map((c) => c.release),
    ].find((r) => r.image === target.image);
    this.#desired = offered ? { ...offered } : releaseStatus(this.#o.catalogue, release, now);
    this.#history = startHistoryEntry(
      this.#history,
      {
        version: release.version,
        image: target.image,
        verified: true,
        acceptedRisks: verdict.acceptedRisks || undefined,
      },
      now,
    );
    this.#versionHash = versionHash(loaded.payload);
    const caps = capabilitiesFor(release.minor);
    this.#capabilities = { enabledCapabilities: caps, knownCapabilities: [...caps] };
    this.#operatorStart.clear();
    this.#consecutiveErrors = 0;
    this.#report = { version: release.version, done: 0, total: loaded.payload.manifests.length, reconciling: false };
    this.#setReleaseAccepted(payloadLoadedCondition(release.version, target.image));
  }

  #setReleaseAccepted(conditionInput: ConditionInput): void {
    this.#releaseAccepted = conditionInput;
    this.#throttle.request();
  }

  /** One attempt over the graph; returns the delay before the next. */
  async #attempt(loaded: Loaded, signal: AbortSignal): Promise<number> {
    const mode = loaded.completed ? 'reconcile' : 'update';
    const total = loaded.payload.manifests.length;
    let result;
    try {
      result = await runGraph(
        {
          stages: loaded.stages,
          mode,
          taskMs: (runlevel) =>
            runlevel === 90 ? loaded.runlevel90TaskMs : (this.#durations.manifestSeconds * 1000) / this.#scale,
          reapplyStageMs: (this.#durations.reapplyRunlevelSeconds * 1000) / this.#scale,
          completedStages: loaded.completedStages,
          shuffle: (items) => this.#shuffle(items),
          signal,
        },
        {
          applyDeployment: (chain, s) => this.#applyDeployment(loaded, chain, mode, s),
          ensureOperators: (names, s) => this.#ensureOperators(names, s),
          gate: (m) => this.#gate(m),
          runJob: (m, s) => this.#runJob(loaded, m, s),
          sleep: (ms, s) => this.#ctx.clock.sleep(ms, s),
          progress: (done) => {
            if (mode !== 'update' || (loaded.lastFailedDone !== undefined && done <= loaded.lastFailedDone)) return;
            this.#report = { version: loaded.version, done, total, reconciling: false };
            this.#throttle.request();
          },
        },
      );
    } catch (err) {
      if (err instanceof CvoRestart && !signal.aborted) {
        // The new CVO pod starts (its own Deployment was updated).
        await this.#restartGap(signal);
        return 0;
      }
      throw err;
    }
    for (const i of result.completedStages) loaded.completedStages.add(i);
    const failure = summarizeErrors(result.errors);
    if (!failure && mode === 'update') {
      loaded.completed = true;
      this.#history = completeHistoryHead(this.#history, this.#ctx.clock.now());
      this.#operatorStart.clear();
    }
    this.#report = { version: loaded.version, done: result.done, total, reconciling: loaded.completed, failure };
    this.#throttle.request();
    if (!failure) {
      this.#consecutiveErrors = 0;
      loaded.lastFailedDone = undefined;
      return this.#intervalMs;
    }
    loaded.lastFailedDone = result.done;
    this.#consecutiveErrors++;
    return attemptBackoffMs(this.#intervalMs, this.#consecutiveErrors, this.#random);
  }

  #shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.#random.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }

  async #applyDeployment(
    loaded: Loaded,
    chain: ComponentChain,
    mode: 'update' | 'reconcile',
    signal: AbortSignal,
  ): Promise<void> {
    const ref = componentDeployment(chain);
    if (!ref) return;
    const image = componentImage(loaded.payload, chain.component);
    const key = `${ref.namespace}/${ref.name}`;
    const want = `${loaded.version}|${image}`;
    if (mode === 'update' && this.#applied.get(key) === want) return;
    await this.#ensureNamespace(ref.namespace, signal);
    await this.#ctx.client.patch(
      DeploymentResource,
      ref.namespace,
      ref.name,
      deploymentManifest(ref, loaded.version, image) as never,
      {
        type: 'apply',
        force: true,
        fieldManager: CVO_FIELD_MANAGER,
        signal,
      },
    );
    this.#applied.set(key, want);
    if (chain.component === 'cluster-version-operator' && this.#runningVersion !== loaded.version) {
      this.#runningVersion = loaded.version;
      throw new CvoRestart('the cluster-version-operator Deployment was updated');
    }
  }

  async #ensureNamespace(name: string, signal: AbortSignal): Promise<void> {
    if (this.#knownNamespaces.has(name)) return;
    await ensureNamespace(this.#ctx.client, name, signal);
    this.#knownNamespaces.add(name);
  }

  /** The CVO pre-creates the ClusterOperators of a graph node that do not exist yet. */
  async #ensureOperators(names: readonly string[], signal: AbortSignal): Promise<void> {
    await ensureOperators(
      this.#ctx.client,
      names.filter((n) => !this.#coInformer.get(undefined, n)),
      signal,
    );
  }

  #gate(manifest: PayloadManifest): SyncError | undefined {
    const name = manifest.name;
    const err = checkOperatorGate(name, this.#coInformer.get(undefined, name), manifest.operandVersions ?? []);
    if (err) {
      if (!this.#operatorStart.has(name)) this.#operatorStart.set(name, this.#ctx.clock.now());
    } else {
      this.#operatorStart.delete(name);
    }
    return err;
  }

  async #runJob(loaded: Loaded, manifest: PayloadManifest, signal: AbortSignal): Promise<SyncError | undefined> {
    const namespace = manifest.namespace ?? 'openshift-cluster-version';
    await this.#ensureNamespace(namespace, signal);
    return runJobBarrier(
      this.#ctx,
      { namespace, name: manifest.name, version: loaded.version, image: loaded.image, pollMs: 10_000 / this.#scale },
      signal,
    );
  }

  /** Re-evaluates Upgradeable (every 2 min, or sooner when asked). */
  #checkUpgradeable(): void {
    const cv = this.#cv();
    if (cv) {
      const next = evaluateUpgradeable(cv.spec, this.#coInformer.list());
      if (JSON.stringify(next) !== JSON.stringify(this.#upgradeable)) {
        this.#upgradeable = next;
        this.#throttle.request();
      }
    }
    this.#scheduleUpgradeable(UPGRADEABLE_INTERVAL_MS / this.#scale);
  }

  #scheduleUpgradeable(ms: number): void {
    if (this.#signal?.aborted) return;
    this.#upgradeableTimer?.cancel();
    this.#upgradeableTimer = this.#ctx.clock.setTimer(ms, () => this.#checkUpgradeable());
  }

  async #writeStatus(): Promise<void> {
    await writeClusterVersionStatus(this.#ctx.client, (cv) => this.#buildStatus(cv), this.#signal);
  }

  #buildStatus(cv: ClusterVersion): ClusterVersionStatus {
    return buildClusterVersionStatus(
      cv,
      {
        desired: this.#desired,
        history: this.#history,
        observedGeneration: this.#observedGeneration,
        versionHash: this.#versionHash,
        capabilities: this.#capabilities,
        report: this.#report,
        operatorStart: this.#operatorStart,
        invalid: this.#invalid,
        releaseAccepted: this.#releaseAccepted,
        retrieved: this.#retrieved,
        upgradeable: this.#upgradeable,
      },
      this.#ctx.clock.now(),
    );
  }
}

/** A change that wakes the sync worker: versions[operator], Available or Degraded. */
function operatorChanged(old: ClusterOperator, co: ClusterOperator): boolean {
  const version = (x: ClusterOperator): string | undefined =>
    x.status?.versions?.find((v) => v.name === OPERATOR_VERSION_NAME)?.version;
  const cond = (x: ClusterOperator, t: string): string | undefined => findCondition(x.status?.conditions, t)?.status;
  return (
    version(old) !== version(co) ||
    cond(old, 'Available') !== cond(co, 'Available') ||
    cond(old, 'Degraded') !== cond(co, 'Degraded') ||
    JSON.stringify(old.status?.versions ?? []) !== JSON.stringify(co.status?.versions ?? [])
  );
}
