/**
 * The live view of an upgrade: the block `simulate` and `status --watch` redraw in place on a
 * terminal. A neutral model ({@link LiveView}) that both fill from what they read, and one pure
 * renderer: the operator's phase and step with its wait reason, a bar for the control plane (the
 * CVO's done/total and the operators it waits on), one bar per MachineConfigPool (the node being
 * drained or rebooted named), virtual and wall time and the ETAs, firing alerts and active
 * silences — every line cut to the terminal's width with an ellipsis, never wrapped.
 *
 * Width and truncation come from `cli-truncate` and `string-width` (they count East Asian wide
 * characters and keep ANSI colours balanced when they cut: docs/design/dependencies.md).
 */
import cliTruncate from 'cli-truncate';
import { styleText } from 'node:util';
import stringWidth from 'string-width';

/** A bar of the view: a control plane or a pool. */
export interface LiveBar {
  /** What the bar measures (`control plane`, a pool name). */
  label: string;
  done: number;
  total: number;
  /** What is happening now (`waiting on kube-apiserver`, `draining worker-2`); may be empty. */
  detail: string;
  /** Shown after the counts: `ETA 00:12:00` of virtual time; empty without one. */
  eta: string;
  /** The bar is finished (drawn green on a colour terminal). */
  complete: boolean;
}

/** What the view shows at one moment. */
export interface LiveView {
  /** First line: what runs (`Scenario managed-osd-upgrade`, `Cluster https://…`). */
  title: string;
  /** The time line: `virtual +01:23:45 · wall 12.3 s` (whatever the caller measures). */
  clock: string;
  /** The operator's state: phase, step and wait reason; empty without an operator. */
  operator: string;
  /** The operator's state needs attention (a timeout, a failure): drawn yellow. */
  attention: boolean;
  controlPlane: LiveBar | null;
  pools: LiveBar[];
  /**
   * Names of firing alerts; null when they could not be read (shown as unknown, never as none);
   * undefined when the caller does not read them (no line).
   */
  alerts?: string[] | null;
  /** Comments (or ids) of active silences; null and undefined as for alerts. */
  silences?: string[] | null;
  /** The newest Warning (reason: message); empty without one. */
  warning: string;
}

/** How to render. */
export interface LiveViewOptions {
  /** Terminal columns: every line is cut to this width. */
  columns: number;
  /** ANSI colours (the caller decides: a TTY and no NO_COLOR). */
  color: boolean;
}

/** Width of a bar's track in cells. */
export const BAR_WIDTH = 24;
/** Labels are padded to this width so that the bars line up. */
const LABEL_WIDTH = 14;

type Style = Parameters<typeof styleText>[0];

/** `text` in `style` when `color` is on, else as is (the caller decides: a TTY and no NO_COLOR). */
export function paint(text: string, style: Style, color: boolean): string {
  return color && text !== '' ? styleText(style, text, { validateStream: false }) : text;
}

/** Terminal width when the stream does not say (log-update's default too). */
const DEFAULT_COLUMNS = 80;

/** The columns a redraw may fill on a terminal `columns` wide: one short of the edge, where some terminals wrap. */
export function drawableColumns(columns: number | undefined): number {
  return (columns ?? DEFAULT_COLUMNS) - 1;
}

/** One line cut to `columns` cells (an ellipsis marks the cut). */
export function fitLine(line: string, columns: number): string {
  const width = Math.max(1, columns);
  // cli-truncate can end one cell over when a wide character straddles the cut: cut again shorter.
  let fitted = cliTruncate(line, width, { position: 'end' });
  for (let w = width - 1; stringWidth(fitted) > width && w > 0; w--) fitted = cliTruncate(line, w, { position: 'end' });
  return fitted;
}

/** The track of a bar: `█` for done, `░` for the rest; `width` cells. */
export function barTrack(done: number, total: number, width = BAR_WIDTH): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const full = Math.floor(ratio * width);
  return `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
}

function barLine(bar: LiveBar, color: boolean): string {
  const percent = bar.total > 0 ? Math.floor((100 * Math.min(bar.done, bar.total)) / bar.total) : 0;
  const track = paint(barTrack(bar.done, bar.total), bar.complete ? 'green' : 'cyan', color);
  const counts = `${String(percent).padStart(3)}%  ${bar.done}/${bar.total}`;
  const rest = [bar.eta, bar.detail].filter((s) => s !== '').join('  ');
  return `${bar.label.padEnd(LABEL_WIDTH)} ${track} ${counts}${rest ? `  ${rest}` : ''}`;
}

function listLine(label: string, items: readonly string[] | null, none: string): string {
  const text = items === null ? 'unknown' : items.length === 0 ? none : items.join(', ');
  return `${label.padEnd(LABEL_WIDTH)} ${text}`;
}

/** The view as lines, each at most `columns` cells wide. Pure. */
export function renderLiveView(view: LiveView, options: LiveViewOptions): string[] {
  const { color } = options;
  const lines: string[] = [`${paint(view.title, 'bold', color)}  ${paint(view.clock, 'dim', color)}`];
  if (view.operator !== '') lines.push(paint(view.operator, view.attention ? 'yellow' : 'reset', color));
  if (view.controlPlane) lines.push(barLine(view.controlPlane, color));
  for (const pool of view.pools) lines.push(barLine(pool, color));
  if (view.alerts !== undefined) {
    const alerts = listLine('alerts firing', view.alerts, 'none');
    lines.push(view.alerts !== null && view.alerts.length > 0 ? paint(alerts, 'red', color) : alerts);
  }
  if (view.silences !== undefined) lines.push(listLine('silences', view.silences, 'none active'));
  if (view.warning !== '') lines.push(paint(`${'warning'.padEnd(LABEL_WIDTH)} ${view.warning}`, 'yellow', color));
  return lines.map((line) => fitLine(line, options.columns));
}

/** `hh:mm:ss` of a duration in ms (hours unbounded). */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * The remaining time of work that is `done` of `total` after `elapsedMs`, at the pace so far
 * (undefined before any progress, or when the work is done). Pure.
 */
export function remainingAtPace(done: number, total: number, elapsedMs: number): number | undefined {
  if (done <= 0 || total <= 0 || done >= total || elapsedMs <= 0) return undefined;
  return (elapsedMs * (total - done)) / done;
}
