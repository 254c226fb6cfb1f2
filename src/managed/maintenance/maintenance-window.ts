/**
 * Maintenance windows as MUO makes them (docs/design/managed-flow.md#maintenance-windows):
 * Alertmanager silences with MUO's exact matchers, comments and creator, found again by their
 * comment. The builders are pure; the `ensure…`/`end…` functions act on an
 * {@link AlertmanagerApi} and report what they did so the caller can log it and emit Events.
 *
 * Differences from MUO, deliberate:
 * - the control-plane window is kept when an active silence with its exact comment exists and
 *   is never re-created once a silence with that comment exists in any state (MUO's rule);
 *   whether the window may still be created after it was removed is the caller's memory (the
 *   `ControlPlaneMaintenanceWindowRemoved` condition), not Alertmanager's retention;
 * - the worker window is replaced whenever no *active* silence has the exact comment for the
 *   current pending count (an expired one with that comment no longer blocks it), and every
 *   active silence of the same version's worker window is expired, not only the first;
 * - ending a window also expires MUO's *pending* silences (not yet started) with that comment;
 * - `endWindows(am, 'all')` exists so that a failed upgrade removes its silences;
 * - the control-plane window is kept open while the control plane still upgrades
 *   (`keepControlPlaneWindowOpen`): MUO's ran out `controlPlaneTime` after its creation, so
 *   alerts of an upgrade that took longer were no longer silenced.
 */
import type {
  AlertmanagerApi,
  GettableSilence,
  PostableSilence,
  SilenceMatcher,
} from '../../integrations/alertmanager-api.js';

/** `createdBy` of every silence MUO (and this operator, for compatibility) creates. */
export const MAINTENANCE_CREATED_BY = 'managed-upgrade-operator';
/** Text every control-plane window comment contains (MUO ends the window by it). */
export const CONTROL_PLANE_WINDOW_MARK = 'OSD control plane';
/** Text every worker window comment contains (MUO ends the window by it). */
export const WORKER_WINDOW_MARK = 'OSD worker node';

/** Severity matcher of the default silences: every non-critical alert. */
const SEVERITY_REGEX = '(warning|info)';
/** Namespace matcher of the default silences: the platform's namespaces. */
const NAMESPACE_REGEX = '(^openshift.*|^kube.*|^redhat.*|^default$)';

/** Which window: the control plane's, the workers', or both. */
export type WindowKind = 'control-plane' | 'worker' | 'all';

/** What was done to one silence. */
export interface WindowChange {
  /**
   * `created`: a new silence; `kept`: an active (or pending) one with the exact comment exists;
   * `replaced`: a new silence replaced the active ones listed in `previous`; `expired`: the
   * silence was ended; `alreadyEnded`: a silence with the exact comment exists only expired, so
   * the window was ended before (by this operator or a person) and is not re-created;
   * `extended`: the silence's end was moved later (see {@link keepControlPlaneWindowOpen}).
   */
  action: 'created' | 'kept' | 'replaced' | 'expired' | 'alreadyEnded' | 'extended';
  /** The silence acted upon (the new one for `created`/`replaced`). */
  id: string;
  comment: string;
  /** For `replaced` (and `extended` when Alertmanager replaced it): the IDs of the silences expired in its favour. */
  previous?: string[];
  /** For `extended`: the new end (epoch ms). */
  endsAt?: number;
}

/** The two default matchers: `severity=~"(warning|info)"` and the platform namespaces. */
export function defaultSilenceMatchers(): SilenceMatcher[] {
  return [
    { name: 'severity', value: SEVERITY_REGEX, isRegex: true },
    { name: 'namespace', value: NAMESPACE_REGEX, isRegex: true },
  ];
}

/** `alertname=~"(A|B|…)"` for the critical alerts ignored during the control-plane upgrade. */
export function criticalAlertsMatcher(alertNames: readonly string[]): SilenceMatcher {
  // Names are joined as MUO joins them (not escaped): alert names hold no regex syntax.
  return { name: 'alertname', value: `(${alertNames.join('|')})`, isRegex: true };
}

/** `Silence for OSD control plane upgrade to version <V>`. */
export function controlPlaneComment(version: string): string {
  return `Silence for OSD control plane upgrade to version ${version}`;
}

/** `Silence for critical alerts during OSD control plane upgrade to version <V>`. */
export function controlPlaneCriticalsComment(version: string): string {
  return `Silence for critical alerts during OSD control plane upgrade to version ${version}`;
}

/** `Silence for OSD worker node upgrade to version <V>`: the worker comment without the count. */
export function workerCommentPrefix(version: string): string {
  return `Silence for OSD worker node upgrade to version ${version}`;
}

/** `Silence for OSD worker node upgrade to version <V> with remaining <N> nodes`. */
export function workerComment(version: string, pending: number): string {
  return `${workerCommentPrefix(version)} with remaining ${pending} nodes`;
}

/** True when `comment` is a worker-window comment of `version` (any count, or MUO's older form without one). */
export function isWorkerCommentOf(comment: string, version: string): boolean {
  const prefix = workerCommentPrefix(version);
  return comment === prefix || comment.startsWith(`${prefix} with remaining `);
}

/** The control-plane silences: the default one, and the criticals one when `criticals` is non-empty. */
export function controlPlaneSilences(options: {
  version: string;
  startsAt: number;
  endsAt: number;
  criticals: readonly string[];
}): PostableSilence[] {
  const { version, startsAt, endsAt, criticals } = options;
  const silences: PostableSilence[] = [
    {
      matchers: defaultSilenceMatchers(),
      startsAt,
      endsAt,
      createdBy: MAINTENANCE_CREATED_BY,
      comment: controlPlaneComment(version),
    },
  ];
  if (criticals.length > 0) {
    silences.push({
      matchers: [criticalAlertsMatcher(criticals)],
      startsAt,
      endsAt,
      createdBy: MAINTENANCE_CREATED_BY,
      comment: controlPlaneCriticalsComment(version),
    });
  }
  return silences;
}

/** The worker silence for `pending` nodes still to update. */
export function workerSilence(options: {
  version: string;
  pending: number;
  startsAt: number;
  endsAt: number;
}): PostableSilence {
  const { version, pending, startsAt, endsAt } = options;
  return {
    matchers: defaultSilenceMatchers(),
    startsAt,
    endsAt,
    createdBy: MAINTENANCE_CREATED_BY,
    comment: workerComment(version, pending),
  };
}

/** Drain settings that size the worker window, in milliseconds. */
export interface WorkerWindowSettings {
  /** `spec.PDBForceDrainTimeout`. */
  pdbForceDrainTimeoutMs: number;
  /** `nodeDrain.timeOut`. */
  nodeDrainTimeoutMs: number;
  /** `nodeDrain.expectedNodeDrainTime`. */
  expectedNodeDrainTimeMs: number;
}

/** Worker window length: `pending × max(PDBForceDrainTimeout, nodeDrain.timeOut) + pending × expectedNodeDrainTime`. */
export function workerWindowMs(pending: number, settings: WorkerWindowSettings): number {
  return (
    pending * Math.max(settings.pdbForceDrainTimeoutMs, settings.nodeDrainTimeoutMs) +
    pending * settings.expectedNodeDrainTimeMs
  );
}

/** True for a silence this operator (or MUO) created. */
export function isMaintenanceSilence(gettableSilence: GettableSilence): boolean {
  return gettableSilence.createdBy === MAINTENANCE_CREATED_BY;
}

/** True for a silence that mutes now or will: active or pending. */
function isLive(gettableSilence: GettableSilence): boolean {
  return gettableSilence.status.state === 'active' || gettableSilence.status.state === 'pending';
}

/** The silences of `kind` that ending the window expires (pure). */
export function silencesToEnd(silences: readonly GettableSilence[], kind: WindowKind): GettableSilence[] {
  const marks =
    kind === 'control-plane'
      ? [CONTROL_PLANE_WINDOW_MARK]
      : kind === 'worker'
        ? [WORKER_WINDOW_MARK]
        : [CONTROL_PLANE_WINDOW_MARK, WORKER_WINDOW_MARK];
  return silences.filter((s) => isMaintenanceSilence(s) && isLive(s) && marks.some((m) => s.comment.includes(m)));
}

/** What to do about one wanted silence given the existing ones (pure). */
function planExact(
  silences: readonly GettableSilence[],
  comment: string,
): { keep: GettableSilence } | { ended: GettableSilence } | undefined {
  const same = silences.filter((s) => s.comment === comment);
  const live = same.find(isLive);
  if (live) return { keep: live };
  const ended = same[0];
  return ended ? { ended } : undefined;
}

/**
 * Ensures the control-plane window of `version` (step 7): creates each of its silences unless
 * one with the exact comment exists in any state (kept when live, `alreadyEnded` when only
 * expired). `endsAt` is `now + maintenance.controlPlaneTime`.
 */
export async function ensureControlPlaneWindow(
  am: AlertmanagerApi,
  options: { version: string; endsAt: number; criticals: readonly string[]; now: number; signal?: AbortSignal },
): Promise<WindowChange[]> {
  const existing = await am.listSilences(options.signal);
  const changes: WindowChange[] = [];
  for (const silence of controlPlaneSilences({
    version: options.version,
    startsAt: options.now,
    endsAt: options.endsAt,
    criticals: options.criticals,
  })) {
    const plan = planExact(existing, silence.comment);
    if (plan && 'keep' in plan) changes.push({ action: 'kept', id: plan.keep.id, comment: silence.comment });
    else if (plan) changes.push({ action: 'alreadyEnded', id: plan.ended.id, comment: silence.comment });
    else
      changes.push({
        action: 'created',
        id: await am.createSilence(silence, options.signal),
        comment: silence.comment,
      });
  }
  return changes;
}

/**
 * Ensures the worker window of `version` for `pending` (≥ 1) nodes still to update (step 11):
 * keeps a live silence with the exact comment; otherwise creates the new silence, then expires
 * every live worker silence of the same version (the new one first, so that alerts are never
 * unsilenced in between).
 */
export async function ensureWorkerWindow(
  am: AlertmanagerApi,
  options: { version: string; pending: number; endsAt: number; now: number; signal?: AbortSignal },
): Promise<WindowChange> {
  const { version, pending, signal } = options;
  if (!Number.isInteger(pending) || pending < 1)
    throw new RangeError(`worker window needs at least one pending node, got ${pending}`);
  const existing = await am.listSilences(signal);
  const comment = workerComment(version, pending);
  const live = existing.find((s) => s.comment === comment && isLive(s));
  if (live) return { action: 'kept', id: live.id, comment };
  const stale = existing.filter((s) => isMaintenanceSilence(s) && isLive(s) && isWorkerCommentOf(s.comment, version));
  const id = await am.createSilence(
    workerSilence({ version, pending, startsAt: options.now, endsAt: options.endsAt }),
    signal,
  );
  await expireAll(am, stale, signal);
  return stale.length > 0
    ? { action: 'replaced', id, comment, previous: stale.map((s) => s.id) }
    : { action: 'created', id, comment };
}

/**
 * Ends the window(s) of `kind` (steps 10 and 14, and the failure policy with `all`): expires
 * every live silence created by `managed-upgrade-operator` whose comment contains
 * `OSD control plane` / `OSD worker node`. Every expiry is attempted; the first failure is
 * thrown afterwards (a retry finds only the ones still live).
 */
export async function endWindows(
  am: AlertmanagerApi,
  kind: WindowKind,
  options: { signal?: AbortSignal } = {},
): Promise<WindowChange[]> {
  const toEnd = silencesToEnd(await am.listSilences(options.signal), kind);
  await expireAll(am, toEnd, options.signal);
  return toEnd.map((s) => ({ action: 'expired', id: s.id, comment: s.comment }));
}

/**
 * When a live control-plane silence is renewed: once less than half of `maintenance.controlPlaneTime`
 * is left. Renewing early leaves the operator that much time (a restart, an Alertmanager outage)
 * before alerts of a control plane still upgrading would be unsilenced.
 */
export function controlPlaneRenewBeforeMs(windowMs: number): number {
  return windowMs / 2;
}

/** What keeping the control-plane window open decided (pure). */
export interface ControlPlaneRenewalPlan {
  /** The live control-plane silences of the version to renew now. */
  renew: GettableSilence[];
  /** When the next renewal falls due (epoch ms), assuming the renewals are made; undefined when no silence is live. */
  nextAt: number | undefined;
}

/**
 * Plans keeping the control-plane window of `version` open while the control plane still upgrades
 * (MUO lets it run out `controlPlaneTime` after its creation,
 * docs/design/cluster-model.md#behaviour-9-silences-and-alerts): every live silence with one of the
 * window's exact comments (ours) that ends within {@link controlPlaneRenewBeforeMs} is renewed to
 * `now + windowMs`. Expired ones are not brought back: a person (or the end of the window) ended
 * them.
 */
export function planControlPlaneRenewal(
  silences: readonly GettableSilence[],
  options: { version: string; now: number; windowMs: number },
): ControlPlaneRenewalPlan {
  const { version, now, windowMs } = options;
  const before = controlPlaneRenewBeforeMs(windowMs);
  const comments = new Set([controlPlaneComment(version), controlPlaneCriticalsComment(version)]);
  const live = silences.filter((s) => isMaintenanceSilence(s) && isLive(s) && comments.has(s.comment));
  const renew = live.filter((s) => s.endsAt - now <= before);
  const ends = live.map((s) => (renew.includes(s) ? now + windowMs : s.endsAt));
  return { renew, nextAt: ends.length > 0 ? Math.min(...ends) - before : undefined };
}

/**
 * Keeps the control-plane window of `version` open (see {@link planControlPlaneRenewal}): each
 * silence due is updated in place, as Alertmanager does for a POST with its ID, the same
 * matchers and start and a later end (Alertmanager may instead expire it and answer a new ID: the
 * new silence starts at once, so the alerts stay silenced). Idempotent, and restart-safe: the
 * silences themselves are the only memory. Resolves the renewals (`extended`, with the previous
 * ID when Alertmanager replaced the silence) and when to look again.
 */
export async function keepControlPlaneWindowOpen(
  am: AlertmanagerApi,
  options: { version: string; now: number; windowMs: number; signal?: AbortSignal },
): Promise<{ changes: WindowChange[]; nextAt: number | undefined }> {
  const plan = planControlPlaneRenewal(await am.listSilences(options.signal), options);
  const changes: WindowChange[] = [];
  for (const s of plan.renew) {
    const endsAt = options.now + options.windowMs;
    const id = await am.createSilence(
      { id: s.id, matchers: s.matchers, startsAt: s.startsAt, endsAt, createdBy: s.createdBy, comment: s.comment },
      options.signal,
    );
    changes.push({ action: 'extended', id, comment: s.comment, endsAt, ...(id !== s.id ? { previous: [s.id] } : {}) });
  }
  return { changes, nextAt: plan.nextAt };
}

/** True when any silence created by `managed-upgrade-operator` is active (MUO's `IsActive`). */
export async function isAnyWindowActive(am: AlertmanagerApi, options: { signal?: AbortSignal } = {}): Promise<boolean> {
  return (await am.listSilences(options.signal)).some((s) => isMaintenanceSilence(s) && s.status.state === 'active');
}

async function expireAll(
  am: AlertmanagerApi,
  silences: readonly GettableSilence[],
  signal: AbortSignal | undefined,
): Promise<void> {
  let first: unknown;
  let failed = false;
  for (const s of silences) {
    try {
      await am.expireSilence(s.id, signal);
    } catch (err) {
      if (!failed) first = err;
      failed = true;
    }
  }
  if (failed) throw first;
}
