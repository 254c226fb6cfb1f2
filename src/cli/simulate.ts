/**
 * `upgrade-operator simulate`: the embedded API server and the simulated OpenShift cluster in
 * one process, on one event-driven virtual clock, running a scenario file (a named one from
 * `scenarios/` or the user's own) with live progress. Scenarios with an operator run this
 * project's operator in the loop, exactly as `run` wires it. With `--kubeconfig` the simulated
 * cluster runs against that API server instead, on scaled real time (`--time-scale`), and with
 * `--operator external` the operator is a separate `upgrade-operator run --rehearsal` process
 * (the file `--rehearsal-out` writes tells it where and when).
 */
import type { Command } from './commander-package.js';
import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { paint } from './live-view.js';
import type { ClockScaling } from '../lib/clock.js';
import { createLogger } from '../lib/log.js';
import {
  environmentFor,
  flowShown,
  loadScenario,
  runScenario,
  scenarioNames,
  type ScenarioLine,
  type ScenarioOutcome,
} from './scenarios/catalog.js';
import { scenarioPresenter } from './scenarios/scenario-view.js';
import { progressMode, progressOutput, useColor } from './progress-output.js';
import { DEFAULT_TIME_SCALE, type ProgressFlag } from './commands/simulate.js';
import { startSimEnvironment, type SimEnvironment } from './scenarios/sim-environment.js';
import { externalOperatorProblems, type ExternalOperator } from './scenarios/scenario-runner.js';
import { asksForApiFaults } from './scenarios/scenario-actions.js';
import { rehearsal } from './rehearsal.js';

/** The flags of `simulate` (commander names them alike). */
export interface SimulateOptions {
  scenario: string;
  list?: boolean;
  seed: number;
  until: number | 'done';
  output: 'text' | 'json';
  /** `--progress`: how the live progress is shown (auto: a live view on a terminal, else a log of changes). */
  progress: ProgressFlag;
  kubeconfigOut?: string;
  keepRunning?: boolean;
  kubeconfig?: string;
  context?: string;
  timeScale?: number;
  force?: boolean;
  /** Where the operator runs: in this process (default), or `external` (`run --rehearsal`). */
  operator?: 'in-process' | 'external';
  rehearsalOut?: string;
  /** `--html FILE`: the run's picture, one self-contained HTML page (docs/simulation.md#the-picture---html). */
  html?: string;
}

/** What is wrong with a combination of flags (empty: nothing), pure. */
export function simulateFlagProblems(
  options: Pick<
    SimulateOptions,
    'kubeconfig' | 'kubeconfigOut' | 'context' | 'timeScale' | 'force' | 'operator' | 'rehearsalOut' | 'list' | 'html'
  >,
): string[] {
  const problems: string[] = [];
  if (options.list && options.html !== undefined) problems.push('--html draws a run; --list runs none');
  if (options.operator === 'external') {
    if (options.kubeconfig === undefined)
      problems.push(
        '--operator external needs --kubeconfig: the embedded API server runs on event-driven virtual time, which another process cannot follow',
      );
    if (options.rehearsalOut === undefined || options.rehearsalOut === '')
      problems.push(
        '--operator external needs --rehearsal-out FILE: the file tells `upgrade-operator run --rehearsal FILE` where the simulated cluster is and what time it is',
      );
  } else if (options.rehearsalOut !== undefined) {
    problems.push('--rehearsal-out applies only with --operator external');
  }
  if (options.kubeconfig !== undefined) {
    if (options.kubeconfig === '') problems.push('--kubeconfig needs a file');
    if (options.kubeconfigOut !== undefined)
      problems.push(
        '--kubeconfig-out writes a kubeconfig for the embedded API server; with --kubeconfig, use that file',
      );
    return problems;
  }
  const only = [
    options.context !== undefined ? '--context' : '',
    options.timeScale !== undefined ? '--time-scale' : '',
    options.force ? '--force' : '',
  ].filter((f) => f !== '');
  for (const f of only)
    problems.push(`${f} applies only with --kubeconfig (the embedded API server runs on event-driven virtual time)`);
  return problems;
}

/** The JSON report's fields on where the run ran and on which time. */
export function environmentReport(
  env: Pick<SimEnvironment, 'timeMode' | 'apiServerUrl'>,
  timeScale: number,
): Record<string, unknown> {
  return env.timeMode === 'event'
    ? { apiServer: env.apiServerUrl, timeMode: 'event', reproducible: true }
    : { apiServer: env.apiServerUrl, timeMode: 'scaled', timeScale, reproducible: false };
}

/** The first line after the scenario's: where it runs and whether its seed reproduces it. */
export function environmentLine(env: Pick<SimEnvironment, 'timeMode' | 'apiServerUrl'>, timeScale: number): string {
  if (env.timeMode === 'event')
    return `Embedded API server at ${env.apiServerUrl}, event-driven virtual time: this seed reproduces this run.`;
  return `API server at ${env.apiServerUrl}, scaled real time (×${timeScale}: ${timeScale} virtual ms per wall ms): a wall-time run is not reproducible by seed.`;
}

/** The kubectl command `--keep-running` suggests: the upgrade's objects in one table per kind. */
export function watchHint(kubeconfig: string): string {
  return `kubectl --kubeconfig ${kubeconfig} get -A upgradeconfigs.upgrade.managed.openshift.io,clusterversion,co,mcp,nodes`;
}

/**
 * The external operator of `--operator external`: once the cluster runs, writes the rehearsal file
 * `run --rehearsal` reads (whole or not at all: a rename), and says what the run waits for.
 */
export function rehearsalWriter(
  out: string,
  about: { scenario: string; kubeconfig: string; context?: string },
  clock: { readonly scaling: ClockScaling | undefined },
  say: (line: string) => void,
): ExternalOperator {
  return {
    async ready(endpoints, lease) {
      const scaling = clock.scaling;
      if (!scaling) throw new Error('an external operator needs scaled time (--kubeconfig)');
      const content = rehearsal({ ...about, kubeconfig: resolve(about.kubeconfig), ...endpoints, scaling });
      const partial = `${out}.partial`;
      await writeFile(partial, `${JSON.stringify(content, null, 2)}\n`);
      await rename(partial, out);
      say(
        `Rehearsal file ${out} written; waiting for the operator to hold its Lease ${lease.namespace}/${lease.name}: upgrade-operator run --rehearsal ${out}`,
      );
    },
    arrived(holder) {
      say(`Operator ${holder} holds the Lease; the scenario starts.`);
    },
  };
}

/**
 * The verdict word of the text output. A run with an unmet expectation (or a broken invariant)
 * says FAILED, never a phrase that contains "as expected", which only a run that met every
 * expectation prints.
 */
export function verdict(outcome: Pick<ScenarioOutcome, 'ok' | 'expectationsChecked'>): {
  text: string;
  style: 'red' | 'green' | 'yellow';
} {
  if (!outcome.ok) return { text: 'FAILED', style: 'red' };
  if (outcome.expectationsChecked) return { text: 'as expected', style: 'green' };
  return { text: 'stopped by --until before its end (expectations not checked)', style: 'yellow' };
}

/** The action of `simulate` (src/cli/commands/simulate.ts defines its flags). */
export async function simulateAction(opts: SimulateOptions, command: Command): Promise<void> {
  const problems = simulateFlagProblems(opts);
  if (problems.length > 0) command.error(`error: ${problems.join('; ')}`, { code: 'simulate.flags' });
  if (opts.list) {
    const scenarios = scenarioNames().map((name) => ({ name, description: loadScenario(name).file.description }));
    if (opts.output === 'json') process.stdout.write(`${JSON.stringify({ scenarios }, null, 2)}\n`);
    else for (const s of scenarios) process.stdout.write(`${s.name}\n    ${s.description}\n`);
    return;
  }
  const { name, file } = loadScenario(opts.scenario);
  if (opts.operator === 'external') {
    const refused = externalOperatorProblems(file);
    if (refused.length > 0)
      command.error(`error: scenario ${name} cannot run with --operator external:\n  - ${refused.join('\n  - ')}`, {
        code: 'simulate.operator',
      });
  }
  if (opts.kubeconfig !== undefined && asksForApiFaults(file))
    command.error(
      `error: scenario ${name} cannot run against an external API server: it asks for API faults, which only the embedded API server injects`,
      { code: 'simulate.external' },
    );
  const timeScale = opts.timeScale ?? DEFAULT_TIME_SCALE;
  const external =
    opts.kubeconfig !== undefined
      ? {
          kubeconfig: opts.kubeconfig,
          timeScale,
          force: opts.force === true,
          ...(opts.context !== undefined ? { context: opts.context } : {}),
        }
      : undefined;
  // A run whose virtual time stops says why on stderr (what keeps the system busy), every 10 s.
  const stallLogger = createLogger({ level: 'warn', destination: process.stderr });
  const env = await startSimEnvironment({
    ...environmentFor(file, opts.seed),
    stallLogger,
    ...(external ? { external } : {}),
  });
  const text = opts.output === 'text';
  const mode = text ? progressMode(opts.progress, process.stdout.isTTY === true) : 'none';
  const output = progressOutput({
    mode,
    stream: process.stdout,
    color: useColor(mode, process.env),
    wallNow: () => performance.now(),
    tickMs: 1000,
  });
  // Lines about the pairing: with the text output on stdout, else on stderr (stdout is the report).
  const say = (line: string): void => {
    if (text) output.log([line]);
    else process.stderr.write(`${line}\n`);
  };
  const timeline: ScenarioLine[] = [];
  let asExpected: boolean | undefined;
  try {
    if (opts.kubeconfigOut) await env.server?.writeKubeconfig(opts.kubeconfigOut);
    const color = useColor(mode, process.env);
    output.log([
      paint(`Scenario ${name} (seed ${opts.seed}): ${file.description}`, 'bold', color),
      environmentLine(env, timeScale),
    ]);
    const wallStart = performance.now();
    const presenter = scenarioPresenter(output, {
      title: `Scenario ${name}`,
      flow: flowShown(file),
      wallNow: () => performance.now(),
    });
    // On scaled real time the next change may be minutes away: held lines go out within a second.
    const flushing = setInterval(() => presenter.flush(), 1000);
    flushing.unref();
    const outcome = await runScenario(env, file, {
      seed: opts.seed,
      ...(opts.operator === 'external' && opts.rehearsalOut && opts.kubeconfig
        ? {
            externalOperator: rehearsalWriter(
              opts.rehearsalOut,
              {
                scenario: name,
                kubeconfig: opts.kubeconfig,
                ...(opts.context !== undefined ? { context: opts.context } : {}),
              },
              env.clock,
              say,
            ),
          }
        : {}),
      ...(opts.until !== 'done' ? { untilMs: opts.until } : {}),
      onProgress: (p) => presenter.update(p),
      onLine: (line) => void timeline.push(line),
    });
    clearInterval(flushing);
    presenter.flush();
    output.finish();
    const wallSeconds = (performance.now() - wallStart) / 1000;
    try {
      const report = {
        scenario: name,
        seed: opts.seed,
        ...environmentReport(env, timeScale),
        ok: outcome.ok,
        summary: outcome.summary,
        wallSeconds,
        ...outcome.report,
        timeline,
      };
      if (opts.html !== undefined) {
        // The page of exactly what `-o json` prints: `report --html` of that report gives the same bytes.
        const { writeUpgradePage } = await import('./upgrade-picture/write-page.js');
        await writeUpgradePage(JSON.parse(JSON.stringify(report)) as unknown, opts.html);
      }
      const written = opts.html !== undefined ? [`Timeline picture written to ${opts.html}.`] : [];
      if (text) {
        const v = verdict(outcome);
        const verdictText = paint(v.text, v.style, color);
        output.result([
          '',
          `${verdictText}: ${outcome.summary} (${wallSeconds.toFixed(1)} s of wall time).`,
          ...written,
        ]);
      } else {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        for (const line of written) process.stderr.write(`${line}\n`);
      }
      asExpected = outcome.ok;
      if (opts.keepRunning) {
        const kubeconfig = opts.kubeconfig ?? opts.kubeconfigOut;
        const what = env.server
          ? `API server still up at ${env.apiServerUrl}`
          : `Simulated cluster still running against ${env.apiServerUrl}`;
        process.stdout.write(`${what}${kubeconfig ? `; ${watchHint(kubeconfig)}` : ''}. Ctrl-C to stop.\n`);
        await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      }
    } finally {
      await outcome.run.close();
    }
  } finally {
    await env.close();
  }
  // An error, not process.exitCode (the entry sets the exit code from runCli's result): exit 1.
  if (asExpected === false) throw new Error(`scenario ${name} failed: an expectation is unmet or an invariant broke`);
}
