/**
 * Benchmark of the simulated cluster at scale (issue 3), in this process: a 250-node ha-cloud
 * cluster (3 masters, 247 workers over three zones, one worker MachineSet per zone) installed
 * and upgraded 4.14 → 4.15 with no operator, as `oc adm upgrade` does, the worker pool rolling
 * 10 % of its nodes at a time. Reports the wall time of the install and of the whole run, the
 * virtual time, and the RSS of this process afterwards.
 */
import { performance } from 'node:perf_hooks';
import { MachineConfigPoolResource } from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { ScenarioFile } from '../../src/cli/scenarios/scenario-file.js';
import { runScenarioFile } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { processMemory } from './memory.js';
import type { BenchResult } from './result.js';

const WORKERS = 247;
const MAX_UNAVAILABLE = '10%';
const TARGET_S = 30;

const FILE: ScenarioFile = {
  description: `a ${WORKERS + 3}-node ha-cloud cluster upgraded to the newest 4.15 by setting desiredUpdate`,
  cluster: { profile: 'ha-cloud', version: '4.14.30', channel: 'stable-4.14', workers: WORKERS },
  actions: [
    { name: 'oc adm upgrade channel stable-4.15', do: { setChannel: 'stable-4.15' } },
    { name: 'oc adm upgrade --to-latest', when: { offered: '4.15.' }, do: { upgradeToLatest: '4.15.' } },
  ],
  end: { clusterUpgraded: true, timeout: '24h' },
};

/** Runs the benchmark (seed 1). */
export async function runSimScaleBench(log: (line: string) => void): Promise<BenchResult> {
  const started = performance.now();
  let installedS = 0;
  let widened: Promise<unknown> = Promise.resolve();
  const env = await startSimEnvironment({ seed: 1 });
  try {
    const run = await runScenarioFile(env, FILE, {
      seed: 1,
      beforeManifests: (r) => {
        installedS = (performance.now() - started) / 1000;
        log(`sim-scale: ${WORKERS + 3} nodes installed in ${installedS.toFixed(1)} s`);
        widened = r.env.client.patch(MachineConfigPoolResource, undefined, 'worker', { spec: { maxUnavailable: MAX_UNAVAILABLE } }, { type: 'merge' });
      },
    });
    await widened;
    const totalS = (performance.now() - started) / 1000;
    const p = run.progress();
    const memory = processMemory(false);
    await run.close();
    const completed = run.ended === 'end condition';
    log(`sim-scale: ${completed ? 'upgraded' : `stopped (${run.ended})`} after ${(p.elapsedMs / 60_000).toFixed(0)} virtual minutes in ${totalS.toFixed(1)} s`);
    return {
      id: 'sim-scale',
      title: 'Simulated cluster of 250 nodes',
      method: `A ha-cloud cluster of 3 masters and ${WORKERS} workers is installed on the embedded API server (in the runner's process) and upgraded 4.14.30 → the newest 4.15 by setting \`desiredUpdate\`, with no operator; the worker pool rolls with \`maxUnavailable: ${MAX_UNAVAILABLE}\`. Wall time from the start of the API server to every pool Updated.`,
      target: `≤ ${TARGET_S} s`,
      result: completed ? `${totalS.toFixed(1)} s` : `did not complete (${run.ended})`,
      pass: completed && totalS <= TARGET_S,
      measurements: [
        { label: 'install (Nodes, Machines, pools, ClusterOperators, ClusterVersion)', value: `**${installedS.toFixed(1)} s**` },
        { label: 'install and upgrade', value: `**${totalS.toFixed(1)} s** for ${(p.elapsedMs / 60_000).toFixed(0)} virtual minutes` },
        { label: 'pools at the end', value: Object.entries(p.pools).map(([name, [updated, total]]) => `${name} ${updated}/${total}`).join(', ') },
      ],
      memory: [{ process: 'the bench runner (API server and simulated cluster)', when: 'after the upgrade', memory }],
      notes: [],
    };
  } finally {
    await env.close();
  }
}
