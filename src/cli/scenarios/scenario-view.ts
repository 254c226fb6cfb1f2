/**
 * What `simulate` shows of a running scenario: the live view on a terminal
 * ({@link scenarioLiveView}, drawn by live-view.ts) and, elsewhere, a short log of one line per
 * change of state ({@link progressChanges}): a step done, the operator's wait reason changed, the
 * ClusterVersion started or completed an update, a pool's updated count changed, an alert fired
 * or resolved, a Warning Event — never one per percentage tick. Pure.
 */
import { parseProgressMessage } from '../../engine/cvo-progress.js';
import { clockText, fitLine, remainingAtPace, type LiveBar, type LiveView } from '../live-view.js';
import { PLAIN_LINE_WIDTH } from '../progress-output.js';
import { formatElapsed, type ScenarioFlow, type ScenarioProgress } from './scenario-progress.js';

/** Since when each piece of work has been under way (virtual ms), for the ETAs. */
export interface Pace {
  /** Pool name → virtual ms at which it was first seen not fully updated. */
  pools: Record<string, number>;
}

/** The pace after `progress`: a pool's start is kept while it updates and forgotten once it is done. Pure. */
export function nextPace(pace: Pace, progress: ScenarioProgress): Pace {
  const pools: Record<string, number> = {};
  for (const [name, [updated, total]] of Object.entries(progress.pools)) {
    if (updated >= total) continue;
    pools[name] = pace.pools[name] ?? progress.virtualNow;
  }
  return { pools };
}

/** The operator's state in one line (empty without an operator). */
export function operatorText(progress: ScenarioProgress, flow: ScenarioFlow): string {
  if (flow === 'none') return '';
  if (flow === 'scheduled') {
    const j = progress.upgradeJob;
    if (!j.name) return 'no UpgradeJob yet';
    return `UpgradeJob ${j.name} ${j.state}${j.reason ? `/${j.reason}` : ''}: ${j.message || 'created'}`;
  }
  const what = progress.waiting || progress.stepMessage || 'waiting for the operator';
  return `${progress.phase || 'no upgrade yet'} · ${what}`;
}

/** The operator waits on something that needs attention: its Waiting condition is the newest Warning. */
function needsAttention(progress: ScenarioProgress): boolean {
  return (
    progress.warning !== '' &&
    progress.waiting !== '' &&
    progress.warning === `${progress.waitingReason}: ${progress.waiting}`
  );
}

function eta(remainingMs: number | undefined): string {
  return remainingMs === undefined ? '' : `ETA ${clockText(remainingMs)}`;
}

/** The control plane's bar: the CVO's manifest counts and the operators it waits on. */
export function controlPlaneBar(progress: ScenarioProgress): LiveBar {
  const cv = progress.clusterVersion;
  if (cv.state !== 'Partial') {
    return {
      label: 'control plane',
      done: 1,
      total: 1,
      detail: cv.version ? `${cv.version} ${cv.state.toLowerCase()}` : 'unknown',
      eta: '',
      complete: cv.state === 'Completed',
    };
  }
  const read = parseProgressMessage(cv.progressing);
  const counts = read.counts ?? { done: 0, total: 0, percent: 0 };
  const started = cv.startedTime ? Date.parse(cv.startedTime) : NaN;
  const remaining = Number.isNaN(started)
    ? undefined
    : remainingAtPace(counts.done, counts.total, progress.virtualNow - started);
  const detail =
    read.operators.length > 0 ? `waiting on ${read.operators.join(', ')}` : `updating to ${read.version ?? cv.version}`;
  return {
    label: 'control plane',
    done: counts.done,
    total: counts.total,
    detail,
    eta: eta(remaining),
    complete: false,
  };
}

/** One bar per pool, in name order, the nodes at work named. */
export function poolBars(progress: ScenarioProgress, pace: Pace): LiveBar[] {
  return Object.entries(progress.pools)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, [updated, total]]) => {
      const since = pace.pools[name];
      const remaining = since === undefined ? undefined : remainingAtPace(updated, total, progress.virtualNow - since);
      return {
        label: name,
        done: updated,
        total,
        detail: progress.poolActivity[name] ?? '',
        eta: eta(remaining),
        complete: total > 0 && updated >= total && progress.poolActivity[name] === undefined,
      };
    });
}

/** The live view of a scenario at `progress`, `wallMs` of wall time after it started. */
export function scenarioLiveView(
  progress: ScenarioProgress,
  flow: ScenarioFlow,
  about: { title: string; wallMs: number; pace: Pace },
): LiveView {
  return {
    title: about.title,
    clock: `virtual ${formatElapsed(progress.elapsedMs)} · wall ${(about.wallMs / 1000).toFixed(1)} s`,
    operator: operatorText(progress, flow),
    attention: needsAttention(progress),
    controlPlane: controlPlaneBar(progress),
    pools: poolBars(progress, about.pace),
    alerts: progress.alerts,
    silences: progress.silences,
    warning: progress.warning,
  };
}

function added(before: readonly string[], after: readonly string[]): string[] {
  const had = new Set(before);
  return after.filter((x) => !had.has(x));
}

function poolsChanged(prev: ScenarioProgress | undefined, next: ScenarioProgress): string {
  // A pool that was and is fully updated only changed size (machines added or removed): no news.
  const changed = Object.entries(next.pools)
    .filter(([name, [updated, total]]) => {
      const before = prev?.pools[name];
      if (before === undefined) return true;
      if (before[0] === updated && before[1] === total) return false;
      return !(before[0] >= before[1] && updated >= total);
    })
    .sort(([a], [b]) => a.localeCompare(b));
  if (changed.length === 0) return '';
  return `pool ${changed.map(([name, [updated, total]]) => `${name} ${updated}/${total}`).join(', ')}`;
}

function clusterVersionChange(prev: ScenarioProgress | undefined, next: ScenarioProgress): string {
  const before = prev?.clusterVersion;
  const cv = next.clusterVersion;
  if (before && before.state === cv.state && before.version === cv.version) return '';
  if (cv.state === 'Partial') return `ClusterVersion updating to ${cv.version}`;
  return cv.version ? `ClusterVersion ${cv.version} ${cv.state}` : '';
}

/**
 * What changed from `prev` to `next` (everything of the first snapshot when `prev` is
 * undefined), in words: steps done (in the order they were done), the operator's new state, the
 * ClusterVersion starting or completing an update, pools whose counts changed, alerts firing or
 * resolved, a new Warning. Pure.
 */
export function progressChanges(
  prev: ScenarioProgress | undefined,
  next: ScenarioProgress,
  flow: ScenarioFlow,
): string[] {
  const parts: string[] = [];
  // The history lists the newest condition first.
  const done = added(prev?.doneSteps ?? [], next.doneSteps).reverse();
  if (done.length > 0) parts.push(`done ${done.join(', ')}`);
  const operator = operatorText(next, flow);
  if (operator !== '' && (prev === undefined || operatorText(prev, flow) !== operator)) parts.push(operator);
  const cv = clusterVersionChange(prev, next);
  if (cv !== '') parts.push(cv);
  const pools = prev === undefined ? '' : poolsChanged(prev, next);
  if (pools !== '') parts.push(pools);
  for (const alert of added(prev?.alerts ?? [], next.alerts)) parts.push(`alert ${alert} firing`);
  for (const alert of added(next.alerts, prev?.alerts ?? [])) parts.push(`alert ${alert} resolved`);
  if (next.warning !== '' && next.warning !== prev?.warning) parts.push(`warning ${next.warning}`);
  return parts;
}

/**
 * Log lines of the changes at one instant: `[+hh:mm:ss] a · b · c`, several changes to a line
 * while it fits, each line cut to {@link PLAIN_LINE_WIDTH} characters. Pure.
 */
export function changeLines(elapsedMs: number, parts: readonly string[]): string[] {
  const prefix = `[${formatElapsed(elapsedMs)}]`;
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    const joined = line === '' ? `${prefix} ${part}` : `${line} · ${part}`;
    if (line !== '' && joined.length > PLAIN_LINE_WIDTH) {
      lines.push(line);
      line = `${prefix} ${part}`;
    } else line = joined;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => fitLine(l, PLAIN_LINE_WIDTH));
}

/** Where {@link scenarioPresenter} sends its lines and views (progress-output.ts). */
export interface PresenterOutput {
  log(lines: readonly string[]): void;
  view(view: () => LiveView): void;
}

/** Follows a scenario's snapshots ({@link scenarioPresenter}). */
export interface ScenarioPresenter {
  update(progress: ScenarioProgress): void;
  /** Logs the changes held back (those of the newest virtual second). */
  flush(): void;
}

/**
 * Follows a scenario's snapshots: keeps the live view current and logs the changes, those of
 * one virtual second together (they are held until time moves on or {@link ScenarioPresenter.flush}).
 * `wallNow` gives wall ms for the view's clock.
 */
export function scenarioPresenter(
  output: PresenterOutput,
  about: { title: string; flow: ScenarioFlow; wallNow: () => number },
): ScenarioPresenter {
  const wallStart = about.wallNow();
  let previous: ScenarioProgress | undefined;
  let pace: Pace = { pools: {} };
  let held: { second: number; elapsedMs: number; parts: string[] } | undefined;
  const flush = (): void => {
    if (held) output.log(changeLines(held.elapsedMs, held.parts));
    held = undefined;
  };
  return {
    update(progress) {
      const second = Math.floor(progress.elapsedMs / 1000);
      if (held && held.second !== second) flush();
      const parts = progressChanges(previous, progress, about.flow);
      if (parts.length > 0) {
        held ??= { second, elapsedMs: progress.elapsedMs, parts: [] };
        held.parts.push(...parts);
      }
      previous = progress;
      pace = nextPace(pace, progress);
      const paceNow = pace;
      output.view(() =>
        scenarioLiveView(progress, about.flow, {
          title: about.title,
          wallMs: about.wallNow() - wallStart,
          pace: paceNow,
        }),
      );
    },
    flush,
  };
}
