/**
 * Where `simulate`'s live progress goes, and how: `tty` redraws the live view in place
 * (live-view.ts) below the log of changes, `plain` writes only the log of changes (one line per
 * change of state, for CI and pipes), `none` writes nothing. `--progress=auto` picks `tty` on a
 * terminal and `plain` elsewhere.
 *
 * The in-place redraw is `log-update`'s (it erases exactly the lines it drew last and hides the
 * cursor meanwhile: docs/design/dependencies.md); the lines it gets are already cut to the
 * terminal's width, so they never wrap.
 */
import { createLogUpdate } from 'log-update';
import { drawableColumns, fitLine, renderLiveView, type LiveView } from './live-view.js';
import type { ProgressFlag } from './commands/simulate.js';

export type ProgressMode = Exclude<ProgressFlag, 'auto'>;

/** The mode `--progress` asks for: `auto` is `tty` on a terminal, else `plain`. Pure. */
export function progressMode(flag: ProgressFlag, isTTY: boolean): ProgressMode {
  return flag === 'auto' ? (isTTY ? 'tty' : 'plain') : flag;
}

/** Colours: only on a terminal, and never with NO_COLOR set (https://no-color.org). Pure. */
export function useColor(mode: ProgressMode, env: Readonly<Record<string, string | undefined>>): boolean {
  return mode === 'tty' && (env['NO_COLOR'] ?? '') === '';
}

/** The width lines that stay are cut to: the terminal's (`--progress=plain` forced there too), at most the plain log's. */
export function lineWidth(stream: Pick<ProgressStream, 'isTTY' | 'columns'>): number {
  return stream.isTTY && stream.columns
    ? Math.min(PLAIN_LINE_WIDTH, drawableColumns(stream.columns))
    : PLAIN_LINE_WIDTH;
}

/** The stream progress is written to (a terminal has `columns`). */
export interface ProgressStream {
  write(text: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Longest line of the plain log (details are in the `-o json` report). */
export const PLAIN_LINE_WIDTH = 160;

/** The least wall time between two redraws. */
const REDRAW_MS = 100;

/** Receives the log of changes and the live view; {@link ProgressOutput.finish} leaves the last view on screen. */
export interface ProgressOutput {
  /** Lines that stay (the log of changes, messages); after {@link finish}, lines below the last view. */
  log(lines: readonly string[]): void;
  /** The current live view (drawn in `tty` mode only); `view` is called when a redraw is due. */
  view(view: () => LiveView): void;
  /** Draws the last view for good and stops redrawing. */
  finish(): void;
  /** The result (after {@link finish}): written in every mode, `none` included, cut to the width. */
  result(lines: readonly string[]): void;
}

/** What a {@link progressOutput} writes to and how. */
export interface ProgressOutputOptions {
  mode: ProgressMode;
  stream: ProgressStream;
  color: boolean;
  /** Wall ms (for throttling redraws), e.g. `performance.now`. */
  wallNow: () => number;
  /** Redraws the view this often even without a change (its wall clock moves); 0: never. */
  tickMs?: number;
}

/** The output of one mode. */
export function progressOutput(options: ProgressOutputOptions): ProgressOutput {
  const { mode, stream } = options;
  // Lines that stay fit the terminal (`--progress=plain` forced there too), else the plain log's width.
  const write = (lines: readonly string[]): void => {
    const width = lineWidth(stream);
    for (const line of lines) stream.write(`${fitLine(line, width)}\n`);
  };
  if (mode === 'none') return { log: () => undefined, view: () => undefined, finish: () => undefined, result: write };
  if (mode === 'plain') return { log: write, view: () => undefined, finish: () => undefined, result: write };
  const draw = createLogUpdate(stream as NodeJS.WriteStream, { showCursor: false });
  let current: (() => LiveView) | undefined;
  let finished = false;
  let lastDraw = -Infinity;
  let pending: NodeJS.Timeout | undefined;
  const render = (): void => {
    pending = undefined;
    if (!current || finished) return;
    lastDraw = options.wallNow();
    draw(renderLiveView(current(), { columns: drawableColumns(stream.columns), color: options.color }).join('\n'));
  };
  const schedule = (): void => {
    if (pending) return;
    const wait = Math.max(0, lastDraw + REDRAW_MS - options.wallNow());
    pending = setTimeout(render, wait);
    pending.unref();
  };
  const ticker = options.tickMs ? setInterval(schedule, options.tickMs) : undefined;
  ticker?.unref();
  return {
    log(lines) {
      if (lines.length === 0) return;
      if (finished) return write(lines);
      draw.clear();
      write(lines);
      render();
    },
    view(view) {
      if (finished) return;
      current = view;
      schedule();
    },
    finish() {
      if (finished) return;
      if (ticker) clearInterval(ticker);
      if (pending) clearTimeout(pending);
      render();
      finished = true;
      draw.done();
    },
    result: write,
  };
}
