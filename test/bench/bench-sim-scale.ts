/**
 * Benchmarks of the simulated cluster (issue 3), in this process: a ha-cloud cluster installed
 * and upgraded 4.14 → 4.15 with no operator, as `oc adm upgrade` does — the default 3 masters +
 * 3 workers (≤ 5 s), and 250 nodes (3 masters, 247 workers over three zones, one worker
 * MachineSet per zone, the worker pool rolling 10 % of its nodes at a time; ≤ 30 s). Each reports
 * the wall time of the install and of the whole run, the virtual time, and the RSS of this
 * process afterwards.
 */
import { performance } from 'node:perf_hooks';
import { MachineConfigPoolResource } from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { ScenarioFile } from '../../src/cli/scenarios/scenario-file.js';
import { runScenarioFile } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { processMemory } from './memory.js';
import type { BenchResult } from './result.js';

/** One simulated-upgrade benchmark. */
interface SimBench {
  id: string;
  title: string;
  workers: number;
  /** The worker pool's maxUnavailable, when not the default 1. */
  maxUnavailable?: string;
  targetS: number;
}

const SCALE: SimBench = {
  id: 'sim-scale',
  title: 'Simulated cluster of 250 nodes',
  workers: 247,
  maxUnavailable: '10%',
  targetS: 30,
};
const SMALL: SimBench = { id: 'sim-small', title: 'Simulated minor upgrade of ha-cloud 3+3', workers: 3, targetS: 5 };

function scenarioOf(b: SimBench): ScenarioFile {
  return {
    description: `a ${b.workers + 3}-node ha-cloud cluster upgraded to the newest 4.15 by setting desiredUpdate`,
    cluster: { profile: 'ha-cloud', version: '4.14.30', channel: 'stable-4.14', workers: b.workers },
    actions: [
      { name: 'oc adm upgrade channel stable-4.15', do: { setChannel: 'stable-4.15' } },
      { name: 'oc adm upgrade --to-latest', when: { offered: '4.15.' }, do: { upgradeToLatest: '4.15.' } },
    ],
    end: { clusterUpgraded: true, timeout: '24h' },
  };
}

/** The 250-node benchmark (seed 1). */
export function runSimScaleBench(log: (line: string) => void): Promise<BenchResult> {
  return runSimBench(SCALE, log);
}

/** The 3+3 benchmark (seed 1). */
export function runSimSmallBench(log: (line: string) => void): Promise<BenchResult> {
  return runSimBench(SMALL, log);
}

async function runSimBench(b: SimBench, log: (line: string) => void): Promise<BenchResult> {
  const nodes = b.workers + 3;
  const started = performance.now();
  let installedS = 0;
  let widened: Promise<unknown> = Promise.resolve();
  const env = await startSimEnvironment({ seed: 1 });
  try {
    const run = await runScenarioFile(env, scenarioOf(b), {
      seed: 1,
      beforeManifests: (r) => {
        installedS = (performance.now() - started) / 1000;
        log(`${b.id}: ${nodes} nodes installed in ${installedS.toFixed(1)} s`);
        if (b.maxUnavailable !== undefined)
          widened = r.env.client.patch(
            MachineConfigPoolResource,
            undefined,
            'worker',
            { spec: { maxUnavailable: b.maxUnavailable } },
            { type: 'merge' },
          );
      },
    });
    await widened;
    const totalS = (performance.now() - started) / 1000;
    const p = run.progress();
    const memory = processMemory(false);
    await run.close();
    const completed = run.ended === 'end condition';
    log(
      `${b.id}: ${completed ? 'upgraded' : `stopped (${run.ended})`} after ${(p.elapsedMs / 60_000).toFixed(0)} virtual minutes in ${totalS.toFixed(1)} s`,
    );
    return {
      id: b.id,
      title: b.title,
      method: `A ha-cloud cluster of 3 masters and ${b.workers} workers is installed on the embedded API server (in the runner's process) and upgraded 4.14.30 → the newest 4.15 by setting \`desiredUpdate\`, with no operator; the worker pool rolls with \`maxUnavailable: ${b.maxUnavailable ?? '1'}\`. Wall time from the start of the API server to every pool Updated.`,
      target: `≤ ${b.targetS} s`,
      result: completed ? `${totalS.toFixed(1)} s` : `did not complete (${run.ended})`,
      pass: completed && totalS <= b.targetS,
      measurements: [
        {
          label: 'install (Nodes, Machines, pools, ClusterOperators, ClusterVersion)',
          value: `**${installedS.toFixed(1)} s**`,
        },
        {
          label: 'install and upgrade',
          value: `**${totalS.toFixed(1)} s** for ${(p.elapsedMs / 60_000).toFixed(0)} virtual minutes`,
        },
        {
          label: 'pools at the end',
          value: Object.entries(p.pools)
            .map(([name, [updated, total]]) => `${name} ${updated}/${total}`)
            .join(', '),
        },
      ],
      memory: [{ process: 'the bench runner (API server and simulated cluster)', when: 'after the upgrade', memory }],
      notes: [],
    };
  } finally {
    await env.close();
  }
}
