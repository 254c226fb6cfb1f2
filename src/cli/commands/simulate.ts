/** The definition of `upgrade-operator simulate`; its action is src/cli/simulate.ts, loaded when it runs. */
import { Command, InvalidArgumentError, Option } from '../commander-package.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import type { SimulateOptions } from '../simulate.js';

/** `--progress`. */
export const PROGRESS_MODES = ['auto', 'tty', 'plain', 'none'] as const;
export type ProgressFlag = (typeof PROGRESS_MODES)[number];

/** Virtual ms per wall ms against an external API server unless told otherwise (one virtual minute per second). */
export const DEFAULT_TIME_SCALE = 60;

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

/**
 * `--until`: a positive Go duration of virtual time, or `done` (the scenario's own end). `done` is
 * a value of its own: commander replaces a parser's `undefined` with `''`, which once stopped every
 * run at its first instant.
 */
export function parseUntil(value: string): number | 'done' {
  if (value === 'done') return 'done';
  const r = parseGoDurationMs(value);
  if (!r.ok || r.ms <= 0)
    throw new InvalidArgumentError(
      `must be "done" or a positive duration such as 90m (${r.ok ? 'not positive' : r.error})`,
    );
  return r.ms;
}

/** Largest `--time-scale`: beyond it an API round trip alone spans minutes of virtual time. */
export const MAX_TIME_SCALE = 3600;

/** `--time-scale`: virtual ms per wall ms, above 0 and at most {@link MAX_TIME_SCALE}. */
export function parseTimeScale(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > MAX_TIME_SCALE) {
    throw new InvalidArgumentError(
      `must be a number above 0 and at most ${MAX_TIME_SCALE} (virtual ms per wall ms; 60: one virtual minute per second)`,
    );
  }
  return n;
}

/** The subcommand. */
export function simulateCommand(): Command {
  return new Command('simulate')
    .description(
      'Run a simulated OpenShift cluster and a scenario (a named one, or a YAML file) on virtual time, with live progress.',
    )
    .option('--scenario <name|file>', 'a named scenario (see --list) or a scenario file', 'managed-osd-upgrade')
    .option('--list', 'list the named scenarios and exit')
    .option('--seed <n>', 'seed of every random draw: one seed, one timeline', parseSeed, 1)
    .addOption(
      new Option('--until <duration|done>', 'stop after this much virtual time, or at the scenario’s own end')
        .argParser(parseUntil)
        .default('done'),
    )
    .addOption(
      new Option('-o, --output <format>', 'progress as text, or one JSON report at the end (no progress)')
        .choices(['text', 'json'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--progress <mode>',
        'with -o text: tty redraws a live view with progress bars, plain logs one line per change of state, none shows only the result; auto: tty on a terminal, else plain',
      )
        .choices(PROGRESS_MODES)
        .default('auto'),
    )
    .option('--kubeconfig-out <file>', 'write a kubeconfig for kubectl to this file')
    .option(
      '--keep-running',
      'after the scenario, keep the API server (or, with --kubeconfig, the simulated cluster) up (Ctrl-C to stop)',
    )
    .option(
      '--kubeconfig <file>',
      'run against the API server of this kubeconfig instead of the embedded one (installs the OpenShift and upgrade-operator CRDs there; refuses a real OpenShift cluster)',
    )
    .option('--context <name>', 'with --kubeconfig: a context other than its current-context')
    .addOption(
      new Option('--time-scale <n>', 'with --kubeconfig: virtual ms per wall ms (scaled real time)')
        .argParser(parseTimeScale)
        .default(undefined, String(DEFAULT_TIME_SCALE)),
    )
    .option('--force', 'with --kubeconfig: run although the server has Nodes the simulator did not create')
    .addOption(
      new Option(
        '--operator <where>',
        'with --kubeconfig: external runs no operator here; start `upgrade-operator run --rehearsal FILE` yourself (a rehearsal of the real deployment)',
      )
        .choices(['in-process', 'external'])
        .default('in-process'),
    )
    .option(
      '--rehearsal-out <file>',
      'with --operator external: write what `upgrade-operator run --rehearsal` needs (kubeconfig, monitoring URLs, flows, clock) to this file',
    )
    .option('--html <file>', 'also write the run as a timeline picture: one self-contained HTML page')
    .action(async (opts: SimulateOptions, command: Command) =>
      (await import('../simulate.js')).simulateAction(opts, command),
    );
}
