/**
 * `upgrade-operator simulate`: the embedded API server and the simulated OpenShift cluster in
 * one process, on one event-driven virtual clock, running a named scenario with live progress.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { setMaxListeners } from 'node:events';
import { styleText } from 'node:util';
import { startApiServer } from '../apiserver/server.js';
import { KubeClient } from '../kube/client.js';
import { InformerFactory } from '../kube/informer-factory.js';
import { silentLogger } from '../lib/log.js';
import { SeededRandom } from '../lib/random.js';
import type { SimContext } from '../sim/context.js';
import { runManualMinorUpgrade, type ProgressSnapshot } from '../sim/scenarios/manual-minor-upgrade.js';
import { VirtualClock } from '../sim/virtual-clock.js';

/** The named scenarios. */
export const SCENARIOS: Record<string, string> = {
  'manual-minor-upgrade': 'an ha-cloud cluster (3 masters, 3 workers) at 4.14 upgraded to the newest 4.15 on stable-4.15 by setting ClusterVersion.spec.desiredUpdate, as `oc adm upgrade` does, with no upgrade operator',
};

/** Virtual start of every run, so that one seed gives one timeline. */
const VIRTUAL_START = Date.UTC(2026, 2, 2);

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

/** `+hh:mm:ss` of virtual time. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `+${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** One line of live progress. */
export function progressLine(p: ProgressSnapshot): string {
  const pools = Object.entries(p.pools)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, [updated, total]]) => `${name} ${updated}/${total}`)
    .join('  ');
  return `[${formatElapsed(p.elapsedMs)}] ${pools}  ${p.progressing}`;
}

/** The subcommand. */
export function simulateCommand(): Command {
  return new Command('simulate')
    .description('Run a simulated OpenShift cluster and a named scenario on virtual time, with live progress.')
    .addOption(new Option('--scenario <name>', 'the scenario to run').choices(Object.keys(SCENARIOS)).default('manual-minor-upgrade'))
    .option('--list', 'list the named scenarios and exit')
    .option('--seed <n>', 'seed of every random draw: one seed, one timeline', parseSeed, 1)
    .addOption(new Option('-o, --output <format>', 'progress as text lines, or one JSON report at the end').choices(['text', 'json']).default('text'))
    .option('--kubeconfig-out <file>', 'write a kubeconfig for kubectl to this file')
    .option('--keep-running', 'after the scenario, keep the API server up (Ctrl-C to stop)')
    .action(async (opts: { scenario: string; list?: boolean; seed: number; output: 'text' | 'json'; kubeconfigOut?: string; keepRunning?: boolean }) => {
      if (opts.list) {
        for (const [name, what] of Object.entries(SCENARIOS)) process.stdout.write(`${name}\t${what}\n`);
        return;
      }
      const clock = new VirtualClock({ mode: 'event', start: VIRTUAL_START });
      const logger = silentLogger();
      const server = await startApiServer({ port: 0, clock, logger, activity: clock.activity });
      const abort = new AbortController();
      // Every simulated controller and watch listens on this one signal.
      setMaxListeners(0, abort.signal);
      const client = new KubeClient({
        config: { server: server.url, insecureSkipTLSVerify: false, auth: () => Promise.resolve(undefined), namespace: 'default' },
        clock,
        logger,
        activity: clock.activity,
        fieldManager: 'simulated-cluster',
      });
      const random = new SeededRandom(opts.seed);
      const ctx: SimContext = { client, informers: new InformerFactory({ client, clock, logger, random: random.fork('informers') }), clock, random, logger, activity: clock.activity };
      const timeline: ProgressSnapshot[] = [];
      const text = opts.output === 'text';
      try {
        if (opts.kubeconfigOut) await server.writeKubeconfig(opts.kubeconfigOut);
        if (text) process.stdout.write(styleText('bold', `Scenario ${opts.scenario} (seed ${opts.seed}): ${SCENARIOS[opts.scenario]}\n`));
        const wallStart = performance.now();
        const result = await runManualMinorUpgrade(ctx, clock, {
          signal: abort.signal,
          onProgress: (p) => {
            timeline.push(p);
            if (text) process.stdout.write(`${progressLine(p)}\n`);
          },
        });
        const wallSeconds = (performance.now() - wallStart) / 1000;
        if (text) {
          const verdict = result.completed ? styleText('green', 'completed') : styleText('red', 'did not complete');
          process.stdout.write(`\n${result.from} → ${result.to} ${verdict}: ${result.upgradeMinutes.toFixed(1)} virtual minutes from desiredUpdate to every pool updated, in ${wallSeconds.toFixed(1)} s of wall time.\n`);
        } else {
          process.stdout.write(`${JSON.stringify({ scenario: opts.scenario, seed: opts.seed, result, timeline }, null, 2)}\n`);
        }
        if (!result.completed) process.exitCode = 1;
        if (opts.keepRunning) {
          process.stdout.write(`API server still up at ${server.url}${opts.kubeconfigOut ? `; kubectl --kubeconfig ${opts.kubeconfigOut} get clusterversion,co,mcp,nodes` : ''}. Ctrl-C to stop.\n`);
          await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
        }
      } finally {
        abort.abort();
        await client.close();
        await server.close();
      }
    });
}
