/**
 * One reconcile pass of a managed UpgradeConfig (docs/design/managed-flow.md#phases): initialise the history entry,
 * then act on its phase, then write the status back if it changed. Returns what the upgrade
 * waits for, so the controller wakes exactly then. While Upgrading it runs the upgrader of
 * `spec.type` (upgraders/upgrader.ts): its failure policy, else its steps and its wake-ups.
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import {
  FeatureGate,
  ManagedUpgradeConfigResource,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type {
  ManagedUpgradeConfig,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { isFeatureGateEnabled, type ParsedManagedOperatorConfig } from '../config/managed-operator-config.js';
import { formatConfigProblems } from '../config/config-problem.js';
import type { DvoMetricsSource } from '../health/deployment-validation.js';
import { muoFailureList, summary } from '../health/managed-health-check.js';
import type { AlertmanagerApi } from '../../integrations/alertmanager-api.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { KubeClient } from '../../kube/client.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { runSteps } from '../../engine/runner.js';
import { mergeWaitFor, type WaitFor } from '../../engine/step.js';
import { formatTime, type Clock } from '../../lib/clock.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { Logger } from '../../lib/log.js';
import type { ManagedUpgradeMetrics } from '../metrics/managed-upgrade-metrics.js';
import { alertsDuringUpgrade } from '../metrics/upgrade-result.js';
import { describeNotification, type Notifier, type NotifyStateName } from '../notifiers/notifier.js';
import { refreshPolicy, type PolicyProvider } from '../providers/policy-provider.js';
import { hasUpgradeCommenced, precedingVersion } from '../cluster-version/cluster-version-state.js';
import type { ClusterReads, StepContext } from '../steps/step-context.js';
import { preUpgradeHealthCheck } from '../steps/health-check-steps.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import { upgraderFor } from '../upgraders/upgrader.js';
import { firstFalseCondition, HistoryStepRecorder, historyFor, setHistory } from '../history/upgrade-history.js';
import { removeStatusCondition, stepConditions, UPDATE_RECOMMENDED_CONDITION } from '../history/status-conditions.js';
import {
  isValidationFailure,
  validateUpgradeConfig,
  type ValidationDeps,
  type ValidationResult,
} from '../validation/upgrade-config-validation.js';
import { scheduleDecision } from '../validation/upgrade-schedule.js';
import { errorMessage } from '../../lib/errors.js';

/** The early pre-health check runs only when the upgrade is more than this many whole minutes away (MUO: 2 h). */
export const HEALTH_CHECK_AHEAD_MINUTES = 120;

/**
 * Whether a New entry gets the early pre-upgrade health check: MUO compares the time until
 * `upgradeAt` in whole minutes (truncated, as Go's `int(d.Minutes())`) with 120, so 120 min 59 s
 * ahead is not "more than two hours".
 */
export function earlyHealthCheckDue(untilUpgradeMs: number): boolean {
  return Math.trunc(untilUpgradeMs / 60_000) > HEALTH_CHECK_AHEAD_MINUTES;
}
/** Annotation recording the notifications already sent (`<state>@<version>` list, JSON). */
export const NOTIFICATIONS_ANNOTATION = 'upgrade-operator.io/notifications-sent';
/** Retry of validation when its answer may change without an event (an outside service). */
const VALIDATION_RETRY_MS = 5 * 60_000;

/** What a pass needs (the controller's options plus its caches). */
export interface UpgradeConfigPassDeps {
  client: KubeClient;
  clock: Clock;
  log: Logger;
  events: EventRecorder;
  metrics: ManagedUpgradeMetrics;
  prometheus: PrometheusApi;
  alertmanager: AlertmanagerApi;
  dvo: DvoMetricsSource;
  notifier: Notifier;
  provider: (config: ParsedManagedOperatorConfig['config']) => PolicyProvider | undefined;
  validation: ValidationDeps;
  urlProbe: UrlProbe;
  drainNode(
    nodeName: string,
    config: ParsedManagedOperatorConfig['config'],
    pdbForceDrainTimeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ failed: boolean; nextDueAt?: number | undefined }>;
  cluster: ClusterReads;
  config(): ParsedManagedOperatorConfig;
}

/** What one pass found the upgrade waiting for (undefined: nothing but a change of the CR). */
export interface UpgradeConfigPassResult {
  waitFor: WaitFor | undefined;
  /**
   * Retry with rate-limited backoff (a step failed with an error and no wait of its own, e.g. a
   * 503 from the API server): as controller-runtime does, and never later than `waitFor.until`.
   */
  requeue?: boolean;
}

interface Explanation {
  waiting: boolean;
  /** A Warning Event, not a Normal one: the wait needs attention (a failure, a timeout, a refusal). */
  warning?: boolean;
  reason: string;
  message: string;
}

/** Runs one pass. */
export async function upgradeConfigPass(
  deps: UpgradeConfigPassDeps,
  original: ManagedUpgradeConfig,
  signal: AbortSignal,
): Promise<UpgradeConfigPassResult> {
  const cr = structuredClone(original);
  const name = cr.metadata?.name ?? '';
  const log = deps.log.child({ namespace: cr.metadata?.namespace, name });
  const { config, problems } = deps.config();
  const now = deps.clock.now();
  const spec = cr.spec;
  const cv = deps.cluster.clusterVersion();
  const explain = (e: Explanation, waitFor: WaitFor | undefined): Promise<UpgradeConfigPassResult> =>
    finish(deps, original, cr, e, problems.length > 0 ? formatConfigProblems(problems) : undefined, waitFor, log);
  if (!spec)
    return explain({ waiting: true, reason: 'InvalidSpec', message: 'the UpgradeConfig has no spec' }, undefined);
  if (!cv)
    return explain(
      {
        waiting: true,
        reason: 'ClusterVersionMissing',
        message: 'ClusterVersion "version" not found; is this an OpenShift cluster?',
      },
      { kinds: ['ClusterVersion'] },
    );

  const status = (cr.status ??= {});
  let entry = historyFor(status.history, spec.desired.version);
  if (!entry) {
    let started: boolean;
    try {
      started = hasUpgradeCommenced(cv, spec.desired);
    } catch {
      started = false;
    }
    entry = {
      version: spec.desired.version ?? '',
      precedingVersion: precedingVersion(cv, spec.desired.version),
      phase: started ? 'Upgrading' : 'New',
      conditions: [],
      ...(started ? { startTime: formatTime(now) } : {}),
    };
    status.history = setHistory(status.history, entry);
    // What a step said of the previous target (its risks) does not hold for this one.
    removeStatusCondition(cr, UPDATE_RECOMMENDED_CONDITION);
    log.info({ phase: entry.phase, version: entry.version }, 'upgrade history initialised');
  }
  const history = entry;
  const ctx = stepContext(deps, cr, history, config, log);
  const upgrader = upgraderFor(spec.type, deps.urlProbe);

  if (history.phase === 'New') {
    const until = Date.parse(spec.upgradeAt) - now;
    if (isFeatureGateEnabled(config, FeatureGate.PreHealthCheck) && earlyHealthCheckDue(until)) {
      const result = await preUpgradeHealthCheck(ctx, 'New', signal);
      if (!result.healthy) {
        await ctx.notify('StatePreHealthCheckSL', signal, muoFailureList(result));
        deps.events.event(
          cr,
          'Warning',
          'PreHealthCheckFailed',
          `the upgrade at ${spec.upgradeAt} may be affected: ${summary(result)}`,
        );
      }
    }
    history.phase = 'Pending';
  }

  if (history.phase === 'Pending') {
    const v = await validateUpgradeConfig(
      { config: cr, clusterVersion: cv, cincinnatiEnabled: config.validation.cincinnati, now, signal },
      deps.validation,
    );
    deps.metrics.setValidationFailed(name, isValidationFailure(v));
    if (v.resolvedVersion && v.resolvedVersion !== spec.desired.version) {
      await deps.client.patch(
        ManagedUpgradeConfigResource,
        cr.metadata?.namespace,
        name,
        { spec: { desired: { version: v.resolvedVersion } } },
        { type: 'merge', signal },
      );
      history.version = v.resolvedVersion;
      deps.events.event(
        cr,
        'Normal',
        'VersionResolved',
        `release image ${spec.desired.image ?? ''} is version ${v.resolvedVersion}`,
      );
      return explain(
        {
          waiting: true,
          reason: 'VersionResolved',
          message: `resolved the release image to version ${v.resolvedVersion}`,
        },
        {},
      );
    }
    const retry = v.transient
      ? { until: now + VALIDATION_RETRY_MS, kinds: ['ClusterVersion'] }
      : { kinds: ['ClusterVersion'] };
    const refusal = validationRefusal(v);
    if (refusal) return explain({ waiting: true, ...refusal }, retry);
    const sched = scheduleDecision(spec.upgradeAt, now, config.upgradeWindow.timeOutMs);
    if (!sched.ready) {
      return explain(
        {
          waiting: true,
          reason: 'WaitingForUpgradeTime',
          message: `the upgrade to ${spec.desired.version ?? ''} is scheduled for ${spec.upgradeAt}`,
        },
        { until: now + sched.untilMs, kinds: ['ClusterVersion'] },
      );
    }
    const refresh = await refreshPolicy(deps.provider(config), cr, signal);
    if (refresh.outcome === 'changed') {
      history.phase = 'New';
      deps.events.event(cr, 'Warning', 'PolicyChanged', `not starting: ${refresh.why}`);
      if (refresh.spec)
        await deps.client.patch(
          ManagedUpgradeConfigResource,
          cr.metadata?.namespace,
          name,
          { spec: refresh.spec as unknown as JsonValue },
          { type: 'merge', signal },
        );
      return explain({ waiting: true, reason: 'PolicyChanged', message: refresh.why }, {});
    }
    history.phase = 'Upgrading';
    history.startTime = formatTime(now);
    deps.events.event(
      cr,
      'Normal',
      'UpgradeStarted',
      `upgrading to ${spec.desired.version ?? spec.desired.image ?? ''} (${spec.type})`,
    );
  }

  if (history.phase === 'Upgrading') {
    const policy = upgrader.failurePolicy;
    if (policy?.hasFailed(ctx)) {
      const failure = await policy.fail(ctx, signal);
      return explain(
        { waiting: !failure.failed, reason: failure.reason, message: failure.message },
        failure.failed ? undefined : { until: now + failure.retryInMs },
      );
    }
    const result = await runSteps(upgrader.steps, ctx, {
      recorder: new HistoryStepRecorder(history),
      clock: deps.clock,
      signal,
    });
    if (result.finished) {
      history.phase = 'Upgraded';
      history.completeTime = formatTime(deps.clock.now());
      deps.events.event(cr, 'Normal', 'UpgradeCompleted', `upgraded to ${spec.desired.version ?? ''}`);
    } else {
      const o = result.outcome;
      const message =
        o.status === 'failed'
          ? `${result.step.condition}: ${o.error}`
          : `${result.step.condition}: ${o.why ?? 'in progress'}`;
      // An error without a wait of its own (a StepError: the API server or an outside service
      // failed) is retried with backoff; the upgrader's wake-ups (a window that closes) are kept
      // as well, never in place of the retry.
      const backoff = o.status === 'failed' && o.waitFor === undefined;
      let waitFor = o.waitFor;
      const wakeUps = upgrader.wakeUps(ctx);
      if (wakeUps.length > 0) waitFor = mergeWaitFor(waitFor, { until: Math.min(...wakeUps) });
      if (o.status === 'failed') log.warn({ step: result.step.name, reason: o.reason }, o.error);
      const explanation: Explanation = {
        waiting: true,
        warning: o.status === 'failed' || o.attention === true,
        reason: o.reason ?? (o.status === 'failed' ? 'StepFailed' : 'InProgress'),
        message,
      };
      const passResult = await explain(explanation, waitFor);
      return backoff ? { ...passResult, requeue: true } : passResult;
    }
  }

  if (history.phase === 'Upgraded') {
    await recordUpgradeResult(deps, cr, history, signal, log);
    return explain({ waiting: false, reason: 'Upgraded', message: `upgraded to ${history.version ?? ''}` }, undefined);
  }
  return explain(
    { waiting: false, reason: history.phase, message: `the upgrade to ${history.version ?? ''} is ${history.phase}` },
    undefined,
  );
}

/**
 * The reason and message of the `Waiting` condition when validation stops the upgrade: an
 * invalid spec (`validation failed: …`), or a valid one not to be acted on (a downgrade, the
 * same version); undefined when the upgrade may go ahead.
 */
export function validationRefusal(validationResult: ValidationResult): { reason: string; message: string } | undefined {
  if (!validationResult.valid)
    return {
      reason: validationResult.reason === 'Valid' ? 'ValidationFailed' : validationResult.reason,
      message: `validation failed: ${validationResult.message}${validationResult.detail ? ` (${validationResult.detail})` : ''}`,
    };
  if (!validationResult.availableUpdate) return { reason: validationResult.reason, message: validationResult.message };
  return undefined;
}

function stepContext(
  deps: UpgradeConfigPassDeps,
  cr: ManagedUpgradeConfig,
  history: UpgradeHistory,
  config: ParsedManagedOperatorConfig['config'],
  log: Logger,
): StepContext {
  const pdbTimeoutMs = (cr.spec?.PDBForceDrainTimeout ?? 0) * 60_000;
  const ctx: StepContext = {
    upgradeConfig: cr,
    history,
    config,
    clock: deps.clock,
    client: deps.client,
    cluster: deps.cluster,
    prometheus: deps.prometheus,
    alertmanager: deps.alertmanager,
    dvo: deps.dvo,
    metrics: deps.metrics,
    log: log,
    event: (type, reason, message) => deps.events.event(cr, type, reason, message),
    drainNode: (node, signal) => deps.drainNode(node, config, pdbTimeoutMs, signal),
    notify: async (state: NotifyStateName, signal: AbortSignal, detail?: string) => {
      const version = cr.spec?.desired.version ?? '';
      const firstFalse = detail !== undefined ? { type: '', message: detail } : firstFalseCondition(ctx.history);
      await sendNotificationOnce(deps, cr, state, describeNotification(state, version, firstFalse), signal);
    },
  };
  return ctx;
}

/**
 * Sends `state` for the UpgradeConfig's desired version unless it was sent before (the
 * `<state>@<version>` list in {@link NOTIFICATIONS_ANNOTATION}, so it survives restarts and
 * monitoring outages), sets the notification metrics, and records it. `cr` is updated in place
 * (annotation and resourceVersion), so a status write that follows does not conflict.
 */
export async function sendNotificationOnce(
  deps: Pick<UpgradeConfigPassDeps, 'notifier' | 'metrics' | 'client'>,
  cr: ManagedUpgradeConfig,
  state: NotifyStateName,
  description: string,
  signal: AbortSignal,
): Promise<void> {
  const name = cr.metadata?.name ?? '';
  const version = cr.spec?.desired.version ?? '';
  const key = `${state}@${version}`;
  const sent = sentNotifications(cr);
  if (sent.includes(key)) return;
  try {
    await deps.notifier.notify(
      {
        state,
        upgradeConfig: { namespace: cr.metadata?.namespace ?? '', name },
        version,
        upgradeAt: cr.spec?.upgradeAt ?? '',
        description,
      },
      signal,
    );
  } catch (err) {
    deps.metrics.setNotificationFailed(name, state, true);
    throw err;
  }
  deps.metrics.setNotificationFailed(name, state, false);
  deps.metrics.setNotificationSent(name, state, version);
  const next = JSON.stringify([...sent, key]);
  const patched = await deps.client.patch(
    ManagedUpgradeConfigResource,
    cr.metadata?.namespace,
    name,
    { metadata: { annotations: { [NOTIFICATIONS_ANNOTATION]: next } } },
    { type: 'merge', signal },
  );
  cr.metadata = {
    ...cr.metadata,
    annotations: { ...cr.metadata?.annotations, [NOTIFICATIONS_ANNOTATION]: next },
    resourceVersion: patched.metadata?.resourceVersion ?? '',
  };
}

/** The notifications recorded on the UpgradeConfig (`<state>@<version>`). */
export function sentNotifications(cr: ManagedUpgradeConfig): string[] {
  const raw = cr.metadata?.annotations?.[NOTIFICATIONS_ANNOTATION];
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

async function recordUpgradeResult(
  deps: UpgradeConfigPassDeps,
  cr: ManagedUpgradeConfig,
  upgradeHistory: UpgradeHistory,
  signal: AbortSignal,
  log: Logger,
): Promise<void> {
  if (!upgradeHistory.startTime || !upgradeHistory.completeTime) return;
  try {
    const alerts = await alertsDuringUpgrade(
      deps.prometheus,
      {
        startMs: Date.parse(upgradeHistory.startTime),
        completeMs: Date.parse(upgradeHistory.completeTime),
        nowMs: deps.clock.now(),
      },
      signal,
    );
    deps.metrics.setUpgradeResult(
      {
        name: cr.metadata?.name ?? '',
        precedingVersion: upgradeHistory.precedingVersion ?? '',
        version: upgradeHistory.version ?? '',
        alerts,
      },
      alerts.length === 0,
    );
  } catch (err) {
    log.warn({ err: errorMessage(err) }, 'could not compute upgradeoperator_upgrade_result: Prometheus did not answer');
  }
}

/** Sets the explanatory conditions, writes the status when it changed, logs and emits Events for new waits. */
async function finish(
  deps: UpgradeConfigPassDeps,
  original: ManagedUpgradeConfig,
  cr: ManagedUpgradeConfig,
  explanation: Explanation,
  configProblems: string | undefined,
  waitFor: WaitFor | undefined,
  log: Logger,
): Promise<UpgradeConfigPassResult> {
  const now = formatTime(deps.clock.now());
  const status = (cr.status ??= {});
  const prev = status.conditions ?? [];
  const set = (condition: Omit<Condition, 'lastTransitionTime'>): Condition => {
    const old = prev.find((x) => x.type === condition.type);
    return {
      ...condition,
      lastTransitionTime: old && old.status === condition.status ? old.lastTransitionTime : now,
      observedGeneration: cr.metadata?.generation ?? 0,
    };
  };
  const waiting = set({
    type: 'Waiting',
    status: explanation.waiting ? 'True' : 'False',
    reason: explanation.reason,
    message: explanation.message,
  });
  const cfg = set({
    type: 'ConfigurationValid',
    status: configProblems ? 'False' : 'True',
    reason: configProblems ? 'InvalidOperatorConfig' : 'Valid',
    message: configProblems ? `defaults used instead: ${configProblems}` : '',
  });
  // Conditions a step set (UpdateRecommended) stay until the step changes or removes them.
  status.conditions = [waiting, cfg, ...stepConditions(cr)];
  const oldWaiting = prev.find((x) => x.type === 'Waiting');
  if (
    explanation.waiting &&
    (oldWaiting?.reason !== explanation.reason || oldWaiting.message !== explanation.message)
  ) {
    deps.events.event(cr, explanation.warning ? 'Warning' : 'Normal', explanation.reason, explanation.message);
    if (explanation.warning) log.warn({ reason: explanation.reason }, explanation.message);
    else log.info({ reason: explanation.reason }, explanation.message);
  }
  const oldCfg = prev.find((x) => x.type === 'ConfigurationValid');
  if (configProblems && oldCfg?.message !== cfg.message)
    deps.events.event(cr, 'Warning', 'InvalidOperatorConfig', cfg.message);
  if (!jsonEqual(stripVolatile(original.status) as JsonValue, stripVolatile(cr.status) as JsonValue)) {
    // Optimistic concurrency: a conflict (someone changed the CR meanwhile) fails the pass, which is retried.
    await deps.client.updateStatus(ManagedUpgradeConfigResource, cr);
  }
  return { waitFor };
}

/** The status without lastProbeTime stamps (they change on every pass and are not worth a write by themselves). */
function stripVolatile(status: ManagedUpgradeConfig['status']): unknown {
  if (!status) return null;
  return {
    ...status,
    history: (status.history ?? []).map((h) => ({
      ...h,
      conditions: (h.conditions ?? []).map(({ lastProbeTime: _p, ...c }) => c),
    })),
  };
}
