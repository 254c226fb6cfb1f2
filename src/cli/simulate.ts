/**
 * `upgrade-operator simulate`: the embedded API server and the simulated OpenShift cluster in
 * one process, on one event-driven virtual clock, running a named scenario with live progress.
 * The managed scenarios run this project's operator in the loop, exactly as `run` wires it.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { styleText } from 'node:util';
import { SCENARIOS, type ScenarioLine } from './scenarios/catalog.js';
import { startSimEnvironment } from './scenarios/sim-environment.js';

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

interface SimulateOptions {
  scenario: string;
  list?: boolean;
  seed: number;
  output: 'text' | 'json';
  kubeconfigOut?: string;
  keepRunning?: boolean;
}

/** The subcommand. */
export function simulateCommand(): Command {
  return new Command('simulate')
    .description('Run a simulated OpenShift cluster and a named scenario on virtual time, with live progress.')
    .addOption(new Option('--scenario <name>', 'the scenario to run (see --list)').choices(Object.keys(SCENARIOS)).default('managed-osd-upgrade'))
    .option('--list', 'list the named scenarios and exit')
    .option('--seed <n>', 'seed of every random draw: one seed, one timeline', parseSeed, 1)
    .addOption(new Option('-o, --output <format>', 'progress as text lines, or one JSON report at the end').choices(['text', 'json']).default('text'))
    .option('--kubeconfig-out <file>', 'write a kubeconfig for kubectl to this file')
    .option('--keep-running', 'after the scenario, keep the API server up (Ctrl-C to stop)')
    .action(async (opts: SimulateOptions) => {
      if (opts.list) {
        for (const [name, s] of Object.entries(SCENARIOS)) process.stdout.write(`${name}\n    ${s.description}\n`);
        return;
      }
      const scenario = SCENARIOS[opts.scenario];
      if (!scenario) throw new InvalidArgumentError(`unknown scenario ${opts.scenario}`);
      const env = await startSimEnvironment({ seed: opts.seed });
      const text = opts.output === 'text';
      const timeline: ScenarioLine[] = [];
      try {
        if (opts.kubeconfigOut) await env.server.writeKubeconfig(opts.kubeconfigOut);
        if (text) process.stdout.write(styleText('bold', `Scenario ${opts.scenario} (seed ${opts.seed}): ${scenario.description}\n`));
        const wallStart = performance.now();
        const outcome = await scenario.run(env, {
          seed: opts.seed,
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
            process.stdout.write(`${JSON.stringify({ scenario: opts.scenario, seed: opts.seed, ok: outcome.ok, summary: outcome.summary, wallSeconds, ...outcome.report, timeline }, null, 2)}\n`);
          }
          if (!outcome.ok) process.exitCode = 1;
          if (opts.keepRunning) {
            process.stdout.write(`API server still up at ${env.server.url}${opts.kubeconfigOut ? `; kubectl --kubeconfig ${opts.kubeconfigOut} get upgradeconfigs.upgrade.managed.openshift.io -A,clusterversion,co,mcp,nodes` : ''}. Ctrl-C to stop.\n`);
            await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
          }
        } finally {
          await outcome.run?.close();
        }
      } finally {
        await env.close();
      }
    });
}
