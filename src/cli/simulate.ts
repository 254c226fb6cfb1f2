/**
 * `upgrade-operator simulate`: the embedded API server and the simulated OpenShift cluster in
 * one process, on one event-driven virtual clock, running a scenario file (a named one from
 * `scenarios/` or the user's own) with live progress. Scenarios with an operator run this
 * project's operator in the loop, exactly as `run` wires it.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { styleText } from 'node:util';
import { parseGoDurationMs } from '../lib/go-duration.js';
import { environmentFor, loadScenario, runScenario, scenarioNames, type ScenarioLine } from './scenarios/catalog.js';
import { startSimEnvironment } from './scenarios/sim-environment.js';

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

/** `done` (the file's own end) or a Go duration of virtual time. */
function parseUntil(value: string): number | undefined {
  if (value === 'done') return undefined;
  const r = parseGoDurationMs(value);
  if (!r.ok || r.ms <= 0) throw new InvalidArgumentError(`must be "done" or a positive duration such as 90m (${r.ok ? 'not positive' : r.error})`);
  return r.ms;
}

interface SimulateOptions {
  scenario: string;
  list?: boolean;
  seed: number;
  until?: number;
  output: 'text' | 'json';
  kubeconfigOut?: string;
  keepRunning?: boolean;
}

/** The subcommand. */
export function simulateCommand(): Command {
  return new Command('simulate')
    .description('Run a simulated OpenShift cluster and a scenario (a named one, or a YAML file) on virtual time, with live progress.')
    .option('--scenario <name|file>', 'a named scenario (see --list) or a scenario file', 'managed-osd-upgrade')
    .option('--list', 'list the named scenarios and exit')
    .option('--seed <n>', 'seed of every random draw: one seed, one timeline', parseSeed, 1)
    .addOption(new Option('--until <duration|done>', 'stop after this much virtual time, or at the scenario’s own end').argParser(parseUntil).default(undefined, 'done'))
    .addOption(new Option('-o, --output <format>', 'progress as text lines, or one JSON report at the end').choices(['text', 'json']).default('text'))
    .option('--kubeconfig-out <file>', 'write a kubeconfig for kubectl to this file')
    .option('--keep-running', 'after the scenario, keep the API server up (Ctrl-C to stop)')
    .action(async (opts: SimulateOptions) => {
      if (opts.list) {
        for (const name of scenarioNames()) process.stdout.write(`${name}\n    ${loadScenario(name).file.description}\n`);
        return;
      }
      const { name, file } = loadScenario(opts.scenario);
      const env = await startSimEnvironment(environmentFor(file, opts.seed));
      const text = opts.output === 'text';
      const timeline: ScenarioLine[] = [];
      try {
        if (opts.kubeconfigOut) await env.server.writeKubeconfig(opts.kubeconfigOut);
        if (text) process.stdout.write(styleText('bold', `Scenario ${name} (seed ${opts.seed}): ${file.description}\n`));
        const wallStart = performance.now();
        const outcome = await runScenario(env, file, {
          seed: opts.seed,
          ...(opts.until !== undefined ? { untilMs: opts.until } : {}),
          onLine: (line) => {
            timeline.push(line);
            if (text) process.stdout.write(`${line.text}\n`);
          },
        });
        const wallSeconds = (performance.now() - wallStart) / 1000;
        try {
          if (text) {
            const verdict = outcome.ok ? styleText('green', 'as expected') : styleText('red', 'NOT as expected');
            process.stdout.write(`\n${verdict}: ${outcome.summary} (${wallSeconds.toFixed(1)} s of wall time).\n`);
          } else {
            process.stdout.write(`${JSON.stringify({ scenario: name, seed: opts.seed, ok: outcome.ok, summary: outcome.summary, wallSeconds, ...outcome.report, timeline }, null, 2)}\n`);
          }
          if (!outcome.ok) process.exitCode = 1;
          if (opts.keepRunning) {
            process.stdout.write(`API server still up at ${env.server.url}${opts.kubeconfigOut ? `; kubectl --kubeconfig ${opts.kubeconfigOut} get upgradeconfigs.upgrade.managed.openshift.io -A,clusterversion,co,mcp,nodes` : ''}. Ctrl-C to stop.\n`);
            await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
          }
        } finally {
          await outcome.run.close();
        }
      } finally {
        await env.close();
      }
    });
}
