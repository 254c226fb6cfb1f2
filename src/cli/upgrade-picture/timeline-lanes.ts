/**
 * The lanes of the upgrade picture, in virtual time: what each row of the timeline shows, read
 * from a simulate report (docs/simulation.md#the-picture---html). Pure: no geometry here
 * (timeline-layout.ts turns time into pixels), no markup (timeline-page.ts).
 */
import type { Transition } from '../../sim/recorder/cluster-recorder.js';
import type { FieldValue } from '../../sim/recorder/transitions.js';
import type { UpgradeReport } from './upgrade-report.js';

/** How a segment or marker is coloured (a CSS class of the page). */
export type Tone =
  | 'window'
  | 'suspension'
  | 'op-idle'
  | 'op-pending'
  | 'op-active'
  | 'op-done'
  | 'op-failed'
  | 'wait'
  | 'step'
  | 'step-open'
  | 'warning'
  | 'cv-old'
  | 'cv-partial'
  | 'cv-completed'
  | 'cv-event'
  | 'co-version'
  | 'co-degraded'
  | 'pool-updating'
  | 'pool-degraded'
  | 'pool-paused'
  | 'node-update'
  | 'node-cordon'
  | 'node-drain'
  | 'node-reboot'
  | 'node-uncordon'
  | 'node-degraded'
  | 'node-present'
  | 'alert-pending'
  | 'alert-critical'
  | 'alert-warning'
  | 'alert-info'
  | 'silence';

/** A span of time in one row of a lane; `detail` is the hover text, one line each. */
export interface Segment {
  startMs: number;
  endMs: number;
  /** Row within the lane (0 = top), for overlapping spans. */
  row: number;
  tone: Tone;
  label: string;
  detail: string[];
}

/** An instant in a lane. */
export interface Marker {
  atMs: number;
  tone: Tone;
  detail: string[];
}

/** Which block of the picture a lane is in, top to bottom. */
export const LANE_GROUPS = ['Maintenance', 'Operator', 'Cluster', 'Pools', 'Nodes', 'Alerts', 'Silences'] as const;
export type LaneGroup = (typeof LANE_GROUPS)[number];

/** One row (or stack of rows) of the timeline. */
export interface Lane {
  /** Unique, stable: `node/<name>`, `pool/<name>`, `alert/<name>`, … */
  id: string;
  group: LaneGroup;
  label: string;
  /** A short second line (a node's pool and zone). */
  sublabel: string;
  rows: number;
  segments: Segment[];
  markers: Marker[];
  /** ClusterVersion's completion (0–1) over time, when known. */
  progress: Array<{ atMs: number; fraction: number }>;
}

/** The picture's time domain and lanes. */
export interface Timeline {
  originMs: number;
  /** The end of the axis: the run's end, or later to show a window that began during the run. */
  endMs: number;
  /** When the run ended (at most `endMs`). */
  runEndMs: number;
  lanes: Lane[];
}

/** RFC 3339 in the report's precision, without the trailing `.000`. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** `+1h05m30s` from the origin. */
export function formatElapsed(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const text = `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${String(m).padStart(h > 0 ? 2 : 1, '0')}m` : ''}${String(sec).padStart(h > 0 || m > 0 ? 2 : 1, '0')}s`;
  return `${ms < 0 ? '-' : '+'}${text}`;
}

/** `from → to (duration)` for a hover text. */
function span(startMs: number, endMs: number, originMs: number, open = false): string {
  const minutes = ((endMs - startMs) / 60_000).toFixed(1);
  return `${formatInstant(startMs)} (${formatElapsed(startMs - originMs)}) → ${open ? 'end of run' : formatInstant(endMs)} (${formatElapsed(endMs - originMs)}), ${minutes} min`;
}

function parseTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Rows for intervals so that none overlaps another in its row (first fit, in the given order);
 * intervals touching end-to-start share a row. Pure.
 */
export function packRows(intervals: ReadonlyArray<{ startMs: number; endMs: number }>): {
  rows: number[];
  count: number;
} {
  const rowEnds: number[] = [];
  const rows = intervals.map(({ startMs, endMs }) => {
    let row = rowEnds.findIndex((end) => end <= startMs);
    if (row === -1) {
      row = rowEnds.length;
      rowEnds.push(endMs);
    } else rowEnds[row] = endMs;
    return row;
  });
  return { rows, count: Math.max(1, rowEnds.length) };
}

/** Spans clipped to the domain (those wholly outside dropped), then packed into rows. */
function packed(
  spans: Array<Omit<Segment, 'row'>>,
  originMs: number,
  endMs: number,
): { segments: Segment[]; rows: number } {
  const inside = spans
    .map((s) => ({ ...s, startMs: Math.max(s.startMs, originMs), endMs: Math.min(s.endMs, endMs) }))
    .filter((s) => s.endMs >= s.startMs && s.startMs <= endMs && s.endMs >= originMs)
    .sort((a, b) => a.startMs - b.startMs);
  const { rows, count } = packRows(inside);
  return { segments: inside.map((s, i) => ({ ...s, row: rows[i] ?? 0 })), rows: count };
}

function lane(id: string, group: LaneGroup, label: string, parts: Partial<Lane> = {}): Lane {
  return { id, group, label, sublabel: '', rows: 1, segments: [], markers: [], progress: [], ...parts };
}

/** Markers of one instant become one, their hover texts joined. */
export function mergeMarkers(markers: readonly Marker[]): Marker[] {
  const merged: Marker[] = [];
  for (const m of [...markers].sort((a, b) => a.atMs - b.atMs)) {
    const last = merged.at(-1);
    if (last && last.atMs === m.atMs && last.tone === m.tone) last.detail = [...last.detail, ...m.detail];
    else merged.push({ ...m, detail: [...m.detail] });
  }
  return merged;
}

/** The maintenance windows (and suspension windows), packed. */
function windowLanes(report: UpgradeReport, axisEndMs: number): Lane[] {
  if (report.windows.length === 0) return [];
  const spans = report.windows.flatMap((win) => {
    const start = parseTime(win.start);
    if (start === undefined) return [];
    const end = parseTime(win.end) ?? axisEndMs;
    return [
      {
        startMs: start,
        endMs: end,
        tone: win.kind === 'UpgradeSuspensionWindow' ? ('suspension' as const) : ('window' as const),
        label: `${win.kind} ${win.name}`,
        detail: [`${win.kind} ${win.name}`, win.what, span(start, end, report.originMs, win.end === null)],
      },
    ];
  });
  const { segments, rows } = packed(spans, report.originMs, axisEndMs);
  return [lane('window', 'Maintenance', 'Maintenance window', { segments, rows })];
}

/** The tone of an operator phase (managed phase or scheduled job state). */
export function phaseTone(phase: string): Tone {
  const p = phase.toLowerCase();
  if (p === '') return 'op-idle';
  if (p.startsWith('pending') || p === 'new') return 'op-pending';
  if (p.startsWith('upgraded') || p.startsWith('succeeded')) return 'op-done';
  if (p.startsWith('failed')) return 'op-failed';
  if (p.startsWith('upgrading') || p.startsWith('active') || p.startsWith('paused')) return 'op-active';
  return 'op-idle';
}

/** The operator: its phase, its waits with their reasons, its steps. */
function operatorLanes(report: UpgradeReport): Lane[] {
  const states = report.operatorStates;
  const lanes: Lane[] = [];
  if (states.length > 0) {
    const at = (i: number): number => parseTime(states[i]?.at) ?? report.originMs;
    const phase: Segment[] = [];
    const waits: Segment[] = [];
    const warnings: Marker[] = [];
    states.forEach((state, index) => {
      const start = at(index);
      const end = index + 1 < states.length ? at(index + 1) : report.endMs;
      const detail = [
        `${formatInstant(start)} (${formatElapsed(start - report.originMs)})`,
        `phase: ${state.phase || '(none yet)'}`,
        ...(state.step ? [`step: ${state.step}`] : []),
        ...(state.message ? [state.message] : []),
        ...(state.waitingReason ? [`waiting (${state.waitingReason}): ${state.waiting}`] : []),
      ];
      const previous = phase.at(-1);
      if (previous && previous.label === (state.phase || 'no operator state')) {
        previous.endMs = end;
        if (previous.detail.length < 40) previous.detail.push('', ...detail);
      } else
        phase.push({
          startMs: start,
          endMs: end,
          row: 0,
          tone: phaseTone(state.phase),
          label: state.phase || 'no operator state',
          detail,
        });
      const lastWait = waits.at(-1);
      if (state.waitingReason) {
        const line = `${formatElapsed(start - report.originMs)} ${state.waiting}`;
        if (lastWait && lastWait.label === state.waitingReason && lastWait.endMs === start) {
          lastWait.endMs = end;
          if (lastWait.detail.length < 12) lastWait.detail.push(line);
        } else
          waits.push({
            startMs: start,
            endMs: end,
            row: 0,
            tone: 'wait',
            label: state.waitingReason,
            detail: [`waiting: ${state.waitingReason}`, line],
          });
      }
      if (state.warning && state.warning !== states[index - 1]?.warning)
        warnings.push({
          atMs: start,
          tone: 'warning',
          detail: [`${formatInstant(start)} Warning Event`, state.warning],
        });
    });
    for (const w of waits) w.detail.splice(1, 0, span(w.startMs, w.endMs, report.originMs));
    for (const p of phase) p.detail.unshift(`${p.label}: ${span(p.startMs, p.endMs, report.originMs)}`);
    lanes.push(lane('operator', 'Operator', 'Operator', { segments: phase, markers: mergeMarkers(warnings) }));
    if (waits.length > 0) lanes.push(lane('waits', 'Operator', 'Waits', { segments: waits }));
  }
  if (report.conditions.length > 0) {
    const spans: Array<Omit<Segment, 'row'>> = [];
    const instants: Marker[] = [];
    for (const c of report.conditions) {
      const start = parseTime(c.startTime);
      if (start === undefined) continue;
      const end = parseTime(c.completeTime);
      const detail = [`${c.type}=${c.status}`, ...(c.message ? [c.message] : [])];
      if (end === start)
        instants.push({ atMs: start, tone: 'step', detail: [`${formatInstant(start)}: ${detail.join(': ')}`] });
      else
        spans.push({
          startMs: start,
          endMs: end ?? report.endMs,
          tone: c.status === 'True' ? 'step' : 'step-open',
          label: c.type,
          detail: [...detail, span(start, end ?? report.endMs, report.originMs, end === undefined)],
        });
    }
    const { segments, rows } = packed(spans, report.originMs, report.endMs);
    lanes.push(lane('steps', 'Operator', 'Steps', { segments, rows, markers: mergeMarkers(instants) }));
  }
  return lanes;
}

/** A field's values over time from the transitions of one object: the value before the first change, then each change. */
function fieldHistory(
  transitions: readonly Transition[],
  kind: Transition['kind'],
  name: string,
  field: string,
): Array<{ atMs: number; value: FieldValue; t: Transition | undefined }> {
  const own = transitions.filter((t) => t.kind === kind && t.name === name && t.field === field);
  const first = own[0];
  if (!first) return [];
  return [
    { atMs: Number.NEGATIVE_INFINITY, value: first.from, t: undefined },
    ...own.map((t) => ({ atMs: Date.parse(t.at), value: t.to, t })),
  ];
}

/** The periods in which a field had `value`: from the change to it (or the origin) until the next change (or the end). Pure. */
export function periodsWith(
  history: ReadonlyArray<{ atMs: number; value: FieldValue; t: Transition | undefined }>,
  value: FieldValue,
  originMs: number,
  endMs: number,
): Array<{ startMs: number; endMs: number; change: Transition | undefined }> {
  const periods: Array<{ startMs: number; endMs: number; change: Transition | undefined }> = [];
  history.forEach((entry, index) => {
    if (entry.value === value)
      periods.push({
        startMs: Math.max(entry.atMs, originMs),
        endMs: history[index + 1]?.atMs ?? endMs,
        change: entry.t,
      });
  });
  return periods;
}

/**
 * Bands for the periods in which one field of one object had `value`, the change's reason and
 * message in the hover text under `headline`.
 */
function bandsWhile(
  report: UpgradeReport,
  of: { kind: Transition['kind']; name: string; field: string },
  value: FieldValue,
  tone: Tone,
  label: string,
  headline: string,
): Array<Omit<Segment, 'row'>> {
  const history = fieldHistory(report.transitions, of.kind, of.name, of.field);
  return periodsWith(history, value, report.originMs, report.endMs).map(({ startMs, endMs, change }) => ({
    startMs,
    endMs,
    tone,
    label,
    detail: [
      `${headline}${change?.reason ? ` (${change.reason})` : ''}`,
      ...(change?.message ? [change.message] : []),
      span(startMs, endMs, report.originMs),
    ],
  }));
}

/** A ClusterVersion history entry as the report's final object has it. */
type HistoryEntry = NonNullable<
  NonNullable<NonNullable<UpgradeReport['final']['clusterVersion']>['status']>['history']
>[number];

/**
 * ClusterVersion's history (newest first) as spans: each version from its start until the next
 * one starts, Partial until its completion, Completed after; the version the run started on is
 * shown from the origin. Pure.
 */
export function historySpans(
  history: readonly HistoryEntry[],
  originMs: number,
  endMs: number,
): Array<Omit<Segment, 'row'>> {
  const spans: Array<Omit<Segment, 'row'>> = [];
  history.forEach((entry, index) => {
    const start = parseTime(entry.startedTime);
    if (start === undefined) return;
    const next = index > 0 ? (parseTime(history[index - 1]?.startedTime) ?? endMs) : endMs;
    const completed = parseTime(entry.completionTime ?? undefined);
    const detail = [
      `${entry.version}: ${entry.state}${entry.verified ? ', verified' : ''}`,
      `started ${entry.startedTime}${entry.completionTime ? `, completed ${entry.completionTime}` : ', not completed'}`,
    ];
    const partialEnd = Math.min(completed ?? next, next);
    if (partialEnd > start && partialEnd > originMs)
      spans.push({
        startMs: start,
        endMs: partialEnd,
        tone: 'cv-partial',
        label: `→ ${entry.version} Partial`,
        detail,
      });
    if (completed !== undefined && next > completed && next > originMs)
      spans.push({
        startMs: completed,
        endMs: next,
        tone: completed < originMs ? 'cv-old' : 'cv-completed',
        label: `${entry.version} Completed`,
        detail,
      });
  });
  return spans;
}

/** ClusterVersion's history entries, its progress and its spec changes; the ClusterOperators' versions. */
function clusterLanes(report: UpgradeReport): Lane[] {
  const cv = report.final.clusterVersion;
  const history = cv?.status?.history ?? [];
  const spans = historySpans(history, report.originMs, report.endMs);
  const { segments, rows } = packed(spans, report.originMs, report.endMs);
  const cvTransitions = report.transitions.filter((t) => t.kind === 'ClusterVersion');
  const progress: Lane['progress'] = [];
  const markers: Marker[] = [];
  for (const t of cvTransitions) {
    const at = Date.parse(t.at);
    const message =
      t.field === 'condition/Progressing.message'
        ? String(t.to)
        : t.field === 'condition/Progressing'
          ? (t.message ?? '')
          : '';
    const pct = /(\d+)% complete/.exec(message);
    if (pct) progress.push({ atMs: at, fraction: Number(pct[1]) / 100 });
    else if (t.field === 'condition/Progressing' && t.to === 'False') progress.push({ atMs: at, fraction: 1 });
    if (t.field.endsWith('.message') || t.field.startsWith('metadata.') || t.field === 'status.observedGeneration')
      continue;
    markers.push({
      atMs: at,
      tone: 'cv-event',
      detail: [
        `${formatInstant(at)} ${t.field}: ${String(t.from)} → ${String(t.to)}${t.reason ? ` (${t.reason})` : ''}${t.message ? `: ${t.message}` : ''}`,
      ],
    });
  }
  const lanes = [
    lane('clusterversion', 'Cluster', 'ClusterVersion', { segments, rows, markers: mergeMarkers(markers), progress }),
  ];
  const coMarkers: Marker[] = [];
  const coSpans: Array<Omit<Segment, 'row'>> = [];
  const operators = [
    ...new Set(report.transitions.filter((t) => t.kind === 'ClusterOperator').map((t) => t.name)),
  ].sort();
  for (const name of operators) {
    for (const t of report.transitions.filter(
      (x) => x.kind === 'ClusterOperator' && x.name === name && x.field === 'status.versions[operator]',
    )) {
      const at = Date.parse(t.at);
      coMarkers.push({
        atMs: at,
        tone: 'co-version',
        detail: [`${formatInstant(at)} ${name}: ${String(t.from)} → ${String(t.to)}`],
      });
    }
    for (const [field, bad] of [
      ['condition/Degraded', 'True'],
      ['condition/Available', 'False'],
    ] as const) {
      const what = `${name} ${field.slice('condition/'.length)}=${bad}`;
      coSpans.push(...bandsWhile(report, { kind: 'ClusterOperator', name, field }, bad, 'co-degraded', what, what));
    }
  }
  if (operators.length > 0) {
    const co = packed(coSpans, report.originMs, report.endMs);
    lanes.push(
      lane('clusteroperators', 'Cluster', 'ClusterOperators', {
        segments: co.segments,
        rows: co.rows,
        markers: mergeMarkers(coMarkers),
        sublabel: 'new versions; Degraded, not Available',
      }),
    );
  }
  return lanes;
}

/** Pool names: the final pools, then any other pool in the transitions. */
function poolNames(report: UpgradeReport): string[] {
  const names = report.final.machineConfigPools.map((p) => p.metadata?.name ?? '').filter((n) => n !== '');
  for (const t of report.transitions) if (t.kind === 'MachineConfigPool' && !names.includes(t.name)) names.push(t.name);
  return names;
}

/** Each pool: while it updates (with its updated/total count), while it is degraded or paused. */
function poolLanes(report: UpgradeReport): Lane[] {
  return poolNames(report).map((name) => {
    const final = report.final.machineConfigPools.find((p) => p.metadata?.name === name);
    const updated = fieldHistory(report.transitions, 'MachineConfigPool', name, 'status.updatedMachineCount');
    const total = fieldHistory(report.transitions, 'MachineConfigPool', name, 'status.machineCount');
    const valueAt = (history: typeof updated, at: number, fallback: number | undefined): string => {
      let value: FieldValue | undefined = history.length > 0 ? history[0]?.value : fallback;
      for (const e of history) if (e.atMs <= at) value = e.value;
      return value === undefined || value === null ? '?' : String(value);
    };
    const spans: Array<Omit<Segment, 'row'>> = [];
    const updating = fieldHistory(report.transitions, 'MachineConfigPool', name, 'condition/Updating');
    for (const { startMs: start, endMs: end } of periodsWith(updating, 'True', report.originMs, report.endMs)) {
      // One piece per change of the updated count while the pool updates.
      const cuts = [start, ...[...updated, ...total].map((u) => u.atMs).filter((a) => a > start && a < end), end];
      const unique = [...new Set(cuts)].sort((a, b) => a - b);
      for (let k = 0; k + 1 < unique.length; k++) {
        const a = unique[k] ?? start;
        const b = unique[k + 1] ?? end;
        const count = `${valueAt(updated, a, final?.status?.updatedMachineCount)}/${valueAt(total, a, final?.status?.machineCount)}`;
        spans.push({
          startMs: a,
          endMs: b,
          tone: 'pool-updating',
          label: count,
          detail: [`pool ${name} updating: ${count} machines updated`, span(a, b, report.originMs)],
        });
      }
    }
    for (const [field, bad, tone, what] of [
      ['condition/Degraded', 'True', 'pool-degraded', 'Degraded'],
      ['spec.paused', true, 'pool-paused', 'paused'],
    ] as const)
      spans.push(
        ...bandsWhile(report, { kind: 'MachineConfigPool', name, field }, bad, tone, what, `pool ${name} ${what}`),
      );
    const { segments, rows } = packed(spans, report.originMs, report.endMs);
    return lane(`pool/${name}`, 'Pools', name, { segments, rows, sublabel: 'MachineConfigPool' });
  });
}

/** Every Node of the run: those at the end and those created and deleted during it (capacity clones). */
export function nodeNames(report: UpgradeReport): string[] {
  const names = new Set(report.final.nodes.map((n) => n.metadata?.name ?? '').filter((n) => n !== ''));
  for (const t of report.transitions) if (t.kind === 'Node') names.add(t.name);
  return [...names];
}

/** The pool a node belongs to: from its rendered config's name, else from its role labels. */
export function nodePool(report: UpgradeReport, name: string, pools: readonly string[]): string {
  for (const t of report.transitions) {
    if (t.kind !== 'Node' || t.name !== name || !t.field.endsWith('Config')) continue;
    const m = /^rendered-(.+)-[0-9a-f]+$/.exec(String(t.to ?? t.from ?? ''));
    if (m?.[1]) return m[1];
  }
  const labels = report.final.nodes.find((n) => n.metadata?.name === name)?.metadata?.labels ?? {};
  for (const pool of pools) if (`node-role.kubernetes.io/${pool}` in labels && pool !== 'worker') return pool;
  return pools.includes('worker') ? 'worker' : (pools[0] ?? '');
}

/** What a node goes through at one moment. */
interface NodeStatus {
  present: boolean;
  unschedulable: boolean;
  ready: boolean;
  mcdState: string;
  /** It went NotReady since its MCD turned Working: the reboot of this update happened. */
  rebooted: boolean;
}

/** The phase a node status shows (undefined: nothing to draw). Pure. */
export function nodePhase(status: NodeStatus): { tone: Tone; label: string } | undefined {
  if (!status.present) return undefined;
  if (!status.ready) return { tone: 'node-reboot', label: 'reboot (NotReady)' };
  if (status.mcdState === 'Degraded') return { tone: 'node-degraded', label: 'Degraded' };
  if (status.unschedulable) {
    if (status.rebooted) return { tone: 'node-uncordon', label: 'ready, cordoned' };
    if (status.mcdState === 'Working') return { tone: 'node-drain', label: 'cordon, drain' };
    return { tone: 'node-cordon', label: 'cordoned' };
  }
  if (status.mcdState === 'Working') return { tone: 'node-update', label: 'update' };
  return { tone: 'node-present', label: '' };
}

const STATE = 'machineconfiguration.openshift.io/state';

/** `, created in the run`, `, deleted in the run` or both, from a node's `object` transitions. */
function lifeInRun(changes: readonly Transition[]): string {
  const created = changes.some((t) => t.to === 'present');
  const deleted = changes.some((t) => t.to === 'absent');
  if (created && deleted) return ', created and deleted in the run';
  return created ? ', created in the run' : deleted ? ', deleted in the run' : '';
}

/** One node's lane: cordon, drain, reboot, ready again; created/deleted times for clones. */
function nodeLane(report: UpgradeReport, name: string, pool: string): Lane {
  const own = report.transitions.filter((t) => t.kind === 'Node' && t.name === name);
  const first = (field: string): Transition | undefined => own.find((t) => t.field === field);
  const final = report.final.nodes.find((n) => n.metadata?.name === name);
  const objectChange = first('object');
  const status: NodeStatus = {
    present: objectChange ? objectChange.from === 'present' : true,
    unschedulable:
      first('spec.unschedulable')?.from === true ||
      (!first('spec.unschedulable') && final?.spec?.unschedulable === true),
    ready: (first('condition/Ready')?.from ?? 'True') === 'True',
    mcdState: String(first(STATE)?.from ?? final?.metadata?.annotations?.[STATE] ?? 'Done'),
    rebooted: false,
  };
  const spans: Array<Omit<Segment, 'row'>> = [];
  let current = nodePhase(status);
  let since = report.originMs;
  let notes: string[] = [];
  const close = (at: number): void => {
    if (current && current.tone !== 'node-present' && at > since)
      spans.push({
        startMs: since,
        endMs: at,
        tone: current.tone,
        label: current.label,
        detail: [`${name}: ${current.label}`, span(since, at, report.originMs), ...notes],
      });
    else if (current?.tone === 'node-present' && at > since)
      spans.push({
        startMs: since,
        endMs: at,
        tone: 'node-present',
        label: '',
        detail: [`${name}: ready`, span(since, at, report.originMs)],
      });
  };
  for (const t of own) {
    const at = Date.parse(t.at);
    if (t.field === 'object') status.present = t.to === 'present';
    else if (t.field === 'spec.unschedulable') status.unschedulable = t.to === true;
    else if (t.field === 'condition/Ready') {
      status.ready = t.to === 'True';
      if (!status.ready && status.mcdState === 'Working') status.rebooted = true;
    } else if (t.field === STATE) {
      status.mcdState = String(t.to);
      if (status.mcdState !== 'Working') status.rebooted = false;
    }
    const next = nodePhase(status);
    const note = `${formatElapsed(at - report.originMs)} ${t.field}: ${String(t.from)} → ${String(t.to)}${t.reason ? ` (${t.reason})` : ''}`;
    if (next?.tone === current?.tone) {
      notes.push(note);
      continue;
    }
    close(at);
    current = next;
    since = at;
    notes = [note, ...(t.message ? [t.message] : [])];
  }
  close(report.endMs);
  const zone = final?.metadata?.labels?.['topology.kubernetes.io/zone'];
  const { segments, rows } = packed(spans, report.originMs, report.endMs);
  return lane(`node/${name}`, 'Nodes', name, {
    segments,
    rows,
    sublabel: `${pool}${zone ? `, ${zone}` : ''}${lifeInRun(own.filter((t) => t.field === 'object'))}`,
  });
}

/** The nodes by pool (in the pools' order), then by name. */
function nodeLanes(report: UpgradeReport): Lane[] {
  const pools = poolNames(report);
  const nodes = nodeNames(report).map((name) => ({ name, pool: nodePool(report, name, pools) }));
  const rank = (pool: string): number => (pools.includes(pool) ? pools.indexOf(pool) : pools.length);
  nodes.sort((a, b) => rank(a.pool) - rank(b.pool) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return nodes.map((n) => nodeLane(report, n.name, n.pool));
}

/** The tone of a firing alert by its severity. */
function firingTone(severity: string | null): Tone {
  return severity === 'critical' ? 'alert-critical' : severity === 'warning' ? 'alert-warning' : 'alert-info';
}

/** One lane per alert name (without `severity="none"`, such as Watchdog): pending and firing bands. */
function alertLanes(report: UpgradeReport): Lane[] {
  const names = [...new Set(report.alerts.filter((a) => a.severity !== 'none').map((a) => a.alertname))].sort();
  return names.map((name) => {
    const spans: Array<Omit<Segment, 'row'>> = [];
    for (const a of report.alerts.filter((x) => x.alertname === name && x.severity !== 'none')) {
      const labels = Object.entries(a.labels)
        .filter(([k]) => k !== 'alertname')
        .map(([k, v]) => `${k}="${v}"`)
        .join(', ');
      const pending = parseTime(a.pendingSince) ?? report.originMs;
      const fired = parseTime(a.firedAt);
      const ended = parseTime(a.resolvedAt) ?? parseTime(a.droppedAt);
      const head = [`${name} (${a.severity ?? 'no severity'}): ${a.state}`, `{${labels}}`];
      if (fired === undefined || fired > pending)
        spans.push({
          startMs: pending,
          endMs: fired ?? ended ?? report.endMs,
          tone: 'alert-pending',
          label: 'pending',
          detail: [
            ...head,
            `pending ${span(pending, fired ?? ended ?? report.endMs, report.originMs, fired === undefined && ended === undefined)}`,
          ],
        });
      if (fired !== undefined)
        spans.push({
          startMs: fired,
          endMs: ended ?? report.endMs,
          tone: firingTone(a.severity),
          label: 'firing',
          detail: [...head, `firing ${span(fired, ended ?? report.endMs, report.originMs, ended === undefined)}`],
        });
    }
    const { segments, rows } = packed(spans, report.originMs, report.endMs);
    return lane(`alert/${name}`, 'Alerts', name, { segments, rows, sublabel: 'alert' });
  });
}

/** The silences, packed. */
function silenceLanes(report: UpgradeReport): Lane[] {
  if (report.silences.length === 0) return [];
  const spans = report.silences.flatMap((silence) => {
    const start = parseTime(silence.startsAt);
    const end = parseTime(silence.endsAt);
    if (start === undefined || end === undefined) return [];
    return [
      {
        startMs: start,
        endMs: end,
        tone: 'silence' as const,
        label: silence.comment,
        detail: [
          silence.comment,
          `by ${silence.createdBy}, ${silence.state}`,
          ...silence.matchers,
          span(start, end, report.originMs),
        ],
      },
    ];
  });
  const { segments, rows } = packed(spans, report.originMs, report.endMs);
  return [lane('silences', 'Silences', 'Silences', { segments, rows })];
}

/**
 * The end of the axis: the run's end, extended to the end of a window that began during the run
 * (an UpgradeJob due as the run ends), by at most half the run's length. Pure.
 */
export function axisEnd(report: Pick<UpgradeReport, 'originMs' | 'endMs' | 'windows'>): number {
  const runEnd = Math.max(report.endMs, report.originMs + 1);
  const limit = runEnd + (runEnd - report.originMs) / 2;
  let end = runEnd;
  for (const w of report.windows) {
    const start = parseTime(w.start);
    const stop = parseTime(w.end);
    if (start !== undefined && stop !== undefined && start <= runEnd && stop > end) end = Math.min(stop, limit);
  }
  return end;
}

/** The whole timeline of a report, lanes top to bottom. Pure. */
export function timelineOf(report: UpgradeReport): Timeline {
  const endMs = axisEnd(report);
  return {
    originMs: report.originMs,
    endMs,
    runEndMs: Math.max(report.endMs, report.originMs + 1),
    lanes: [
      ...windowLanes(report, endMs),
      ...operatorLanes(report),
      ...clusterLanes(report),
      ...poolLanes(report),
      ...nodeLanes(report),
      ...alertLanes(report),
      ...silenceLanes(report),
    ],
  };
}
