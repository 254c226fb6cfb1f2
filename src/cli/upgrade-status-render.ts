/**
 * Text and JSON renderings of an {@link UpgradeStatusReport} (`upgrade-operator status`), laid
 * out like `oc adm upgrade status`: `= Control Plane =`, `= Worker Upgrade =` (a pool table and
 * a node table per pool), `= Update Health =`, plus `= Upgrade Operator =` for this operator's
 * own objects. Stable: everything is ordered by the report (itself sorted), times are printed
 * relative to the report's `generatedAt`, never to the wall clock. Colour only when asked (the
 * command asks when stdout is a TTY and NO_COLOR is unset).
 *
 * Hand-written: ~150 lines of padding and words; a table library would add a dependency for less.
 */
import { styleText } from 'node:util';
import { parseRfc3339 } from '../lib/rfc3339.js';
import type {
  ControlPlaneStatus,
  HealthInsight,
  NodeStatus,
  PoolStatus,
  UpgradeJobView,
  UpgradeOperatorStatus,
  UpgradeStatusReport,
} from './upgrade-status-model.js';
import type { Details } from './commands/status.js';

/** Options of {@link renderStatusText}. */
export interface RenderOptions {
  /** ANSI colours (the caller decides: TTY and no NO_COLOR). */
  color?: boolean;
  /** Sections to expand. */
  details?: readonly Details[];
}

/** Node rows shown per pool without `--details=nodes` (the most interesting first). */
export const MAX_NODE_ROWS = 10;

type Style = Parameters<typeof styleText>[0];
type Cell = string | { text: string; style: Style | undefined };

const STYLES: Readonly<Record<string, Style>> = {
  Completed: 'green',
  Updated: 'green',
  Progressing: 'cyan',
  Draining: 'cyan',
  Updating: 'cyan',
  Rebooting: 'cyan',
  Slow: 'yellow',
  Warning: 'yellow',
  Excluded: 'yellow',
  Paused: 'yellow',
  Unavailable: 'yellow',
  Unknown: 'magenta',
  Stalled: 'red',
  Degraded: 'red',
  Error: 'red',
  Failed: 'red',
};

/**
 * A duration as oc prints it: `45s`, `12m5s`, `1h2m` (seconds dropped from an hour on, zero
 * units dropped); negative durations print as `0s`.
 */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return m > 0 ? `${h}h${m}m` : `${h}h`;
  if (m > 0) return sec > 0 ? `${m}m${sec}s` : `${m}m`;
  return `${sec}s`;
}

/** The report as JSON, exactly as assessed (pretty unless `compact`, for `--watch` lines). */
export function renderStatusJson(report: UpgradeStatusReport, compact = false): string {
  return `${JSON.stringify(report, null, compact ? undefined : 2)}\n`;
}

class Writer {
  readonly lines: string[] = [];
  readonly #color: boolean;

  constructor(color: boolean) {
    this.#color = color;
  }

  paint(text: string, style?: Style): string {
    const s = style ?? STYLES[text];
    return this.#color && s !== undefined && text !== '' ? styleText(s, text, { validateStream: false }) : text;
  }

  line(text = ''): void {
    this.lines.push(text);
  }

  /** `Label:` padded to a column, then the value. */
  field(label: string, value: string): void {
    this.line(`${`${label}:`.padEnd(17)}${value}`);
  }

  /** A table: columns padded to the widest cell plus 3 spaces; trailing blanks trimmed. */
  table(header: readonly string[], rows: ReadonlyArray<readonly Cell[]>): void {
    const text = (c: Cell): string => (typeof c === 'string' ? c : c.text);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => text(r[i] ?? '').length)));
    const render = (cells: readonly Cell[]): string =>
      cells
        .map((cell, index) => {
          const raw = text(cell);
          const pad = index === cells.length - 1 ? '' : ' '.repeat((widths[index] ?? 0) - raw.length + 3);
          return `${typeof cell === 'string' ? raw : this.paint(raw, cell.style)}${pad}`;
        })
        .join('')
        .trimEnd();
    this.line(render(header));
    for (const r of rows) this.line(render(r));
  }
}

function ago(report: UpgradeStatusReport, at: string | null): string {
  const t = at ? parseRfc3339(at) : undefined;
  const now = parseRfc3339(report.generatedAt);
  return t === undefined || now === undefined ? '-' : shortDuration(now - t);
}

function operatorsLine(cp: ControlPlaneStatus): string {
  const o = cp.operators;
  if (!o) return 'unknown (ClusterOperators could not be read)';
  return `${o.percent ?? 0}% (${o.updated} operators updated, ${o.updating} updating, ${o.waiting} waiting)`;
}

function healthLine(cp: ControlPlaneStatus): string {
  const h = cp.operatorHealth;
  if (!h) return 'unknown (ClusterOperators could not be read)';
  const parts = [`${h.healthy} Healthy`];
  if (h.degraded > 0) parts.push(`${h.degraded} Degraded`);
  if (h.unavailable > 0) parts.push(`${h.unavailable} Unavailable`);
  if (h.unknown > 0) parts.push(`${h.unknown} Unknown`);
  return parts.join(', ');
}

function durationLine(cp: ControlPlaneStatus): string {
  if (cp.durationMs === null) return 'unknown';
  const d = shortDuration(cp.durationMs);
  if (cp.completedAt !== null) return d;
  if (cp.estimate) {
    const e = cp.estimate;
    return e.overdue
      ? `${d} (longer than the ${shortDuration(e.totalMs)} of earlier updates)`
      : `${d} (Est. Time Remaining: ${shortDuration(e.remainingMs)})`;
  }
  return `${d} (Est. Time Remaining: unknown, ${cp.estimateUnknown ?? 'no estimate'})`;
}

function nodeTable(writer: Writer, nodes: readonly NodeStatus[], all: boolean): void {
  const shown = all ? nodes : nodes.slice(0, MAX_NODE_ROWS);
  writer.table(
    ['NAME', 'ASSESSMENT', 'PHASE', 'VERSION', 'MESSAGE'],
    shown.map((n) => [
      n.name,
      { text: n.assessment, style: undefined },
      { text: n.phase, style: undefined },
      n.version ?? '?',
      n.message,
    ]),
  );
  if (shown.length < nodes.length)
    writer.line(`... and ${nodes.length - shown.length} more nodes (--details=nodes shows all)`);
}

function poolStatusText(poolStatus: PoolStatus): string {
  if (poolStatus.assessment === 'Unknown' && poolStatus.nodes.length === 0) return poolStatus.message;
  const available = poolStatus.total - poolStatus.unavailable - poolStatus.progressing - poolStatus.degraded;
  const parts = [`${available} Available`, `${poolStatus.progressing} Progressing`, `${poolStatus.draining} Draining`];
  if (poolStatus.excluded > 0) parts.push(`${poolStatus.excluded} Excluded`);
  if (poolStatus.degraded > 0) parts.push(`${poolStatus.degraded} Degraded`);
  return parts.join(', ');
}

function controlPlaneSection(
  writer: Writer,
  upgradeStatusReport: UpgradeStatusReport,
  details: ReadonlySet<string>,
): void {
  const cp = upgradeStatusReport.controlPlane;
  writer.line('= Control Plane =');
  writer.field('Assessment', writer.paint(cp.assessment));
  if (cp.targetVersion !== null)
    writer.field('Target Version', `${cp.targetVersion}${cp.previousVersion ? ` (from ${cp.previousVersion})` : ''}`);
  writer.field('Completion', operatorsLine(cp));
  writer.field('Duration', durationLine(cp));
  writer.field('Operator Health', healthLine(cp));
  if (cp.message) writer.field('Message', cp.message);
  if (cp.operators && cp.operators.updatingNames.length > 0)
    writer.field('Updating', cp.operators.updatingNames.join(', '));
  if (details.has('operators') && cp.operatorRows.length > 0) {
    writer.line();
    writer.line('Operators not done or not healthy');
    writer.table(
      ['NAME', 'VERSION', 'AVAILABLE', 'PROGRESSING', 'DEGRADED', 'SINCE', 'MESSAGE'],
      cp.operatorRows.map((o) => [
        o.name,
        o.version ?? '?',
        o.available,
        o.progressing,
        o.degraded,
        ago(upgradeStatusReport, o.since),
        o.message,
      ]),
    );
  }
  for (const p of upgradeStatusReport.pools.filter((x) => x.controlPlane)) {
    writer.line();
    writer.line(`Control Plane Nodes${p.name === 'master' ? '' : `: ${p.name}`}`);
    if (p.nodes.length === 0) writer.line(p.message || 'no nodes');
    else nodeTable(writer, p.nodes, details.has('nodes'));
  }
}

function workerSection(writer: Writer, upgradeStatusReport: UpgradeStatusReport, details: ReadonlySet<string>): void {
  const pools = upgradeStatusReport.pools.filter((p) => !p.controlPlane);
  writer.line('= Worker Upgrade =');
  writer.line();
  if (pools.length === 0) {
    writer.line(
      upgradeStatusReport.unknown.some((u) => u.part === 'machineConfigPools')
        ? 'MachineConfigPools unknown'
        : 'no worker pools',
    );
    return;
  }
  writer.table(
    ['WORKER POOL', 'ASSESSMENT', 'COMPLETION', 'STATUS'],
    pools.map((p) => [
      p.name,
      { text: p.assessment, style: undefined },
      p.percent === null ? `? (${p.updated}/${p.total})` : `${p.percent}% (${p.updated}/${p.total})`,
      poolStatusText(p),
    ]),
  );
  for (const p of pools) {
    if (p.message) writer.line(`${p.name}: ${p.message}`);
  }
  for (const p of pools.filter((x) => x.nodes.length > 0)) {
    writer.line();
    writer.line(`Worker Pool Nodes: ${p.name}`);
    nodeTable(writer, p.nodes, details.has('nodes'));
  }
}

function healthSection(
  writer: Writer,
  upgradeStatusReport: UpgradeStatusReport,
  insights: readonly HealthInsight[],
  details: ReadonlySet<string>,
): void {
  writer.line('= Update Health =');
  if (details.has('health')) {
    for (const i of insights) {
      writer.line(`Message: ${i.message}`);
      writer.line(`  Since:     ${ago(upgradeStatusReport, i.since)}`);
      writer.line(`  Level:     ${writer.paint(i.level)}`);
      writer.line(`  Impact:    ${i.impact}`);
      writer.line(`  Resources: ${i.scope}`);
    }
    return;
  }
  writer.table(
    ['SINCE', 'LEVEL', 'IMPACT', 'MESSAGE'],
    insights.map((i) => [ago(upgradeStatusReport, i.since), { text: i.level, style: undefined }, i.impact, i.message]),
  );
}

function jobLines(
  writer: Writer,
  upgradeStatusReport: UpgradeStatusReport,
  upgradeJobView: UpgradeJobView,
  prefix: string,
): void {
  const window = [
    upgradeJobView.startAfter ? `start after ${upgradeJobView.startAfter}` : '',
    upgradeJobView.startBefore ? `before ${upgradeJobView.startBefore}` : '',
  ]
    .filter((s) => s !== '')
    .join(', ');
  writer.line(
    `${prefix}UpgradeJob ${upgradeJobView.namespace}/${upgradeJobView.name}: ${writer.paint(upgradeJobView.state)}, ${upgradeJobView.desiredVersion ?? 'no version'}${window ? ` (${window})` : ''}`,
  );
  if (upgradeJobView.message) writer.line(`    ${upgradeJobView.message}`);
  for (const h of upgradeJobView.hooks) {
    writer.line(
      `    Hook Job ${h.name} (hook ${h.hook}, event ${h.event}${h.trackingKey ? `, ${h.trackingKey}` : ''}): ${writer.paint(h.state)}${h.startedAt ? `, started ${ago(upgradeStatusReport, h.startedAt)} ago` : ''}${h.message ? `: ${h.message}` : ''}`,
    );
  }
}

function operatorSection(
  writer: Writer,
  upgradeStatusReport: UpgradeStatusReport,
  upgradeOperatorStatus: UpgradeOperatorStatus,
): void {
  writer.line('= Upgrade Operator =');
  const m = upgradeOperatorStatus.managed;
  const head = 'Managed upgrades (upgrade.managed.openshift.io UpgradeConfig)';
  if (m.state !== 'ok') writer.line(`${head}: ${m.state === 'absent' ? 'not installed' : `unknown: ${m.reason}`}`);
  else if (m.upgradeConfigs.length === 0) writer.line(`${head}: none`);
  else {
    writer.line(`${head}:`);
    for (const u of m.upgradeConfigs) {
      const when = u.upgradeAt
        ? `, upgrade at ${u.upgradeAt}${u.startsInMs !== null ? ` (in ${shortDuration(u.startsInMs)})` : ''}`
        : '';
      writer.line(
        `  ${u.namespace}/${u.name}: ${u.desiredVersion ?? 'no version'}${u.type ? ` (${u.type})` : ''}${when}`,
      );
      writer.line(
        `    Phase:   ${u.phase === null ? 'not started' : writer.paint(u.phase)}${u.startedAt ? ` since ${u.startedAt}` : ''}${u.completedAt ? `, completed ${u.completedAt}` : ''}`,
      );
      if (u.step)
        writer.line(
          `    Step:    ${u.step.type}=${u.step.status}${u.step.inStepMs !== null ? ` for ${shortDuration(u.step.inStepMs)}` : ''}${u.step.reason ? ` (${u.step.reason})` : ''}${u.step.message ? `: ${u.step.message}` : ''}`,
        );
      if (u.waiting?.status === 'True') writer.line(`    Waiting: ${u.waiting.reason}: ${u.waiting.message}`);
    }
  }
  const s = upgradeOperatorStatus.scheduled;
  const shead = 'Scheduled upgrades (managedupgrade.appuio.io)';
  if (s.state !== 'ok') {
    writer.line(`${shead}: ${s.state === 'absent' ? 'not installed' : `unknown: ${s.reason}`}`);
    return;
  }
  if (s.upgradeConfigs.length === 0 && s.activeJobs.length === 0 && s.lastFinishedJob === null) {
    writer.line(`${shead}: none`);
    return;
  }
  writer.line(`${shead}:`);
  for (const c of s.upgradeConfigs) {
    const week = c.isoWeek ? `, ISO week ${c.isoWeek}` : '';
    writer.line(
      `  UpgradeConfig ${c.namespace}/${c.name}: "${c.cron}" (${c.location}${week})${c.suspended ? ', suspended' : ''}, next window ${c.nextWindow ?? 'unknown'}${c.lastScheduledUpgrade ? `, last scheduled ${c.lastScheduledUpgrade}` : ''}`,
    );
    if (c.waiting?.status === 'True') writer.line(`    Waiting: ${c.waiting.reason}: ${c.waiting.message}`);
  }
  for (const j of s.activeJobs) jobLines(writer, upgradeStatusReport, j, '  ');
  if (s.lastFinishedJob) jobLines(writer, upgradeStatusReport, s.lastFinishedJob, '  Last finished: ');
  if (s.hookJobsUnknown !== null) writer.line(`  Hook Jobs unknown: ${s.hookJobsUnknown}`);
}

/** The text view. */
export function renderStatusText(report: UpgradeStatusReport, options: RenderOptions = {}): string {
  const w = new Writer(options.color === true);
  const d = new Set<string>(options.details ?? []);
  const details = d.has('all') ? new Set(['nodes', 'operators', 'health']) : d;
  for (const u of report.unknown) w.line(w.paint(`Warning: could not read ${u.part}: ${u.reason}`, 'yellow'));
  if (report.unknown.length > 0) w.line();
  const cp = report.controlPlane;
  if (!report.updating) {
    w.line('The cluster is not updating.');
    const took = cp.durationMs !== null ? `, took ${shortDuration(cp.durationMs)}` : '';
    w.line(
      `Cluster version is ${cp.currentVersion ?? 'unknown'}${cp.completedAt ? ` (update${cp.previousVersion ? ` from ${cp.previousVersion}` : ''} completed at ${cp.completedAt}${took})` : ''}.`,
    );
    const problems = report.health.filter((i) => i.level !== 'Info');
    if (problems.length > 0) {
      w.line();
      healthSection(w, report, problems, details);
    }
  } else {
    controlPlaneSection(w, report, details);
    w.line();
    workerSection(w, report, details);
    w.line();
    healthSection(w, report, report.health, details);
  }
  w.line();
  operatorSection(w, report, report.upgradeOperator);
  return `${w.lines.join('\n')}\n`;
}
