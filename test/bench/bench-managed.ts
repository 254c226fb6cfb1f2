/**
 * Benchmarks of the managed flow on the simulated cluster (issue 4), in this process:
 *
 * - **reaction**: for full OSD upgrades (scenario `managed-osd-upgrade`, several seeds), the
 *   delay between a cluster-side change or a due time and the operator's reaction, both seen
 *   through the bench's own watches: `upgradeAt` → phase Upgrading; ClusterVersion Completed →
 *   ControlPlaneUpgraded True; each drop of the worker pool's pending count → the
 *   Waiting condition naming the new count; the pool fully updated →
 *   WorkerNodesUpgraded True. Wall-clock delay is the operator's real processing time;
 *   virtual delay shows whether it waited for a poll (MUO's design waits up to a minute).
 * - **idle**: the operator's HTTP requests per minute while nothing changes, with an upgrade
 *   scheduled for tomorrow and after an upgrade has finished (no leader election here, so
 *   there is no Lease renewal to subtract). Watch re-establishment is reported apart.
 */
import { ClusterVersionResource, CLUSTER_VERSION_NAME } from '../../src/api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { ManagedUpgradeConfigResource } from '../../src/api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { loadScenario } from '../../src/cli/scenarios/catalog.js';
import type { ScenarioFile } from '../../src/cli/scenarios/scenario-file.js';
import { runScenarioFile, type ScenarioRun } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment, type SimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { poolFullyUpdated } from '../../src/managed/cluster-version/worker-pools.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchResult } from './result.js';
import { formatMiB, formatMs, summarize, quantileSorted } from './stats.js';

const SEEDS = [1, 2, 3];
const IDLE_MINUTES = 120;
const MINUTE = 60_000;

interface Mark {
  wall: number;
  virtual: number;
}

interface Sample {
  what: string;
  wallMs: number;
  virtualMs: number;
}

/** The desired version of the file's UpgradeConfig manifest. */
function upgradeConfigSpec(file: ScenarioFile): { version: string } {
  const uc = (file.manifests ?? []).find((m) => m['kind'] === 'UpgradeConfig');
  const version = (uc?.['spec'] as { desired?: { version?: string } } | undefined)?.desired?.version;
  if (!version) throw new Error('the scenario has no UpgradeConfig with a desired version');
  return { version };
}

/** Records triggers and reactions during one upgrade; returns the samples. */
async function measureReactions(
  seed: number,
  log: (line: string) => void,
): Promise<{ samples: Sample[]; minutes: number }> {
  const env = await startSimEnvironment({ seed });
  const file = loadScenario('managed-osd-upgrade').file;
  const target = upgradeConfigSpec(file).version;
  const triggers = new Map<string, Mark>();
  const reactions = new Map<string, Mark>();
  let run: ScenarioRun | undefined;
  try {
    const mark = (map: Map<string, Mark>, key: string): void => {
      if (!map.has(key)) map.set(key, { wall: performance.now(), virtual: env.clock.now() });
    };
    run = await runScenarioFile(env, file, {
      seed,
      beforeManifests: (r) => {
        const inf = r.env.ctx.informers;
        inf.informerFor(ClusterVersionResource).addHandlers({
          onUpdate: (_o, cv) => {
            const h = cv.metadata?.name === CLUSTER_VERSION_NAME ? cv.status?.history?.[0] : undefined;
            if (h?.version === target && h.state === 'Completed')
              mark(triggers, 'control plane Completed → ControlPlaneUpgraded');
          },
        });
        inf.informerFor(MachineConfigPoolResource).addHandlers({
          onUpdate: (_o, p) => {
            if (p.metadata?.name !== 'worker' || !triggers.has('control plane Completed → ControlPlaneUpgraded'))
              return;
            const pending = (p.status?.machineCount ?? 0) - (p.status?.updatedMachineCount ?? 0);
            if (pending > 0) mark(triggers, `worker pending ${pending} → step message`);
            if (poolFullyUpdated(p)) mark(triggers, 'worker pool updated → WorkerNodesUpgraded');
          },
        });
        inf.informerFor(ManagedUpgradeConfigResource, { namespace: r.namespace }).addHandlers({
          onUpdate: (_o, uc) => {
            const h = uc.status?.history?.[0];
            if (h?.phase === 'Upgrading') mark(reactions, 'upgradeAt → Upgrading');
            for (const c of h?.conditions ?? []) {
              if (c.type === 'ControlPlaneUpgraded' && c.status === 'True')
                mark(reactions, 'control plane Completed → ControlPlaneUpgraded');
              if (c.type === 'WorkerNodesUpgraded' && c.status === 'True')
                mark(reactions, 'worker pool updated → WorkerNodesUpgraded');
            }
            // The Waiting condition explains the pending step: "… (N machine(s) left)".
            const waiting = uc.status?.conditions?.find((c) => c.type === 'Waiting')?.message ?? '';
            const m = waiting.startsWith('WorkerNodesUpgraded') ? /\((\d+) machine\(s\) left\)/.exec(waiting) : null;
            if (m) mark(reactions, `worker pending ${m[1]} → step message`);
          },
        });
        // The due time (upgradeAt is "{{ +10m }}" in the file), seen when the virtual clock reaches it.
        void r.env.clock.sleep(10 * MINUTE, r.env.signal).then(
          () => mark(triggers, 'upgradeAt → Upgrading'),
          () => undefined,
        );
      },
    });
    const samples: Sample[] = [];
    for (const [what, t] of triggers) {
      const r = reactions.get(what);
      if (!r) continue;
      samples.push({ what, wallMs: Math.max(0, r.wall - t.wall), virtualMs: Math.max(0, r.virtual - t.virtual) });
    }
    const missing = [...triggers.keys()].filter((k) => !reactions.has(k));
    if (missing.length > 0) log(`seed ${seed}: no reaction seen to ${missing.join(', ')}`);
    return { samples, minutes: run.progress().elapsedMs / MINUTE };
  } finally {
    await run?.close();
    await env.close();
  }
}

/**
 * Scenario `managed-osd-upgrade` with its UpgradeConfig's `upgradeAt` set, run until the phase,
 * then 5 virtual minutes for what the last change started to settle. The caller closes both.
 */
async function idleOperator(
  upgradeAt: string,
  endPhase: string,
  onOperatorRequest?: (what: string) => void,
): Promise<{ env: SimEnvironment; run?: ScenarioRun }> {
  const env = await startSimEnvironment({ seed: 1 });
  const base = loadScenario('managed-osd-upgrade').file;
  const file: ScenarioFile = {
    ...base,
    manifests: (base.manifests ?? []).map((m) =>
      m['kind'] === 'UpgradeConfig' ? { ...m, spec: { ...(m['spec'] as object), upgradeAt } } : m,
    ),
    end: { phase: [endPhase] },
  };
  try {
    const run = await runScenarioFile(env, file, { seed: 1, ...(onOperatorRequest ? { onOperatorRequest } : {}) });
    const settle = env.clock.now() + 5 * MINUTE;
    await env.clock.run({ until: () => env.clock.now() >= settle, signal: env.signal });
    return { env, run };
  } catch (err) {
    await env.close();
    throw err;
  }
}

/** Requests the operator makes over IDLE_MINUTES of virtual time after `until` holds. */
async function measureIdle(
  label: string,
  upgradeAt: string,
  endPhase: string,
): Promise<{ label: string; requests: Map<string, number> }> {
  let counting = false;
  const requests = new Map<string, number>();
  const { env, run } = await idleOperator(upgradeAt, endPhase, (what) => {
    if (counting) requests.set(what, (requests.get(what) ?? 0) + 1);
  });
  try {
    counting = true;
    const end = env.clock.now() + IDLE_MINUTES * MINUTE;
    await env.clock.run({ until: () => env.clock.now() >= end, signal: env.signal });
    counting = false;
    return { label, requests };
  } finally {
    await run?.close();
    await env.close();
  }
}

/** The reaction-delay benchmark. */
export async function runReactionBench(log: (line: string) => void): Promise<BenchResult> {
  const samples: Sample[] = [];
  const notes: string[] = [];
  for (const seed of SEEDS) {
    const r = await measureReactions(seed, log);
    log(`seed ${seed}: ${r.samples.length} reactions in an upgrade of ${r.minutes.toFixed(0)} virtual minutes`);
    samples.push(...r.samples);
  }
  if (samples.length === 0) throw new Error('no reaction was measured');
  const wall = summarize(samples.map((x) => x.wallMs));
  const wallP99 = quantileSorted(
    [...samples.map((x) => x.wallMs)].sort((a, b) => a - b),
    0.99,
  );
  const virtualMax = Math.max(...samples.map((x) => x.virtualMs));
  const byKind = new Map<string, number[]>();
  for (const x of samples)
    byKind.set(x.what.replace(/\d+/, 'N'), [...(byKind.get(x.what.replace(/\d+/, 'N')) ?? []), x.wallMs]);
  notes.push(
    'Wall time includes the API server, the whole simulated cluster and the bench’s own watches running in the same process on 2 cores; it is an upper bound of the operator’s own processing time.',
  );
  return {
    id: 'reaction',
    title: 'Reaction delay of the managed flow',
    method: `Three full OSD upgrades 4.14.30 → 4.15.38 (scenario \`managed-osd-upgrade\`, seeds ${SEEDS.join(', ')}) on the simulated cluster. The bench watches the cluster and the UpgradeConfig itself and pairs each trigger with the operator’s reaction: \`upgradeAt\` → phase Upgrading; ClusterVersion Completed → ControlPlaneUpgraded True; each drop of the worker pool’s pending count → the Waiting condition naming the new count; the pool fully updated → WorkerNodesUpgraded True.`,
    target: 'p99 ≤ 1 s',
    result: `p99 ${formatMs(wallP99)} over ${samples.length} reactions (virtual delay at most ${formatMs(virtualMax)})`,
    pass: wallP99 <= 1000,
    measurements: [
      {
        label: 'wall delay',
        value: `median ${formatMs(wall.median)}, p95 ${formatMs(wall.p95)}, p99 **${formatMs(wallP99)}**, max ${formatMs(wall.max)}`,
      },
      {
        label: 'virtual delay (time the operator waited before acting)',
        value: `max **${formatMs(virtualMax)}** (MUO’s design: up to 60 s at every pending step)`,
      },
      ...[...byKind].map(([what, ms]) => ({
        label: what,
        value: `${ms.length} samples, max ${formatMs(Math.max(...ms))}`,
      })),
    ],
    memory: [],
    notes,
  };
}

/** The idle-requests benchmark. */
export async function runIdleBench(log: (line: string) => void): Promise<BenchResult> {
  const cases = [
    await measureIdle('an upgrade scheduled for tomorrow (phase Pending)', '{{ +24h }}', 'Pending'),
    await measureIdle('after an upgrade finished (phase Upgraded)', '{{ +10m }}', 'Upgraded'),
  ];
  const perMinute = (n: number): string => (n / IDLE_MINUTES).toFixed(2);
  let worst = 0;
  const measurements = cases.map((c) => {
    const watches = [...c.requests].filter(([k]) => k.endsWith('(stream)')).reduce((n, [, v]) => n + v, 0);
    const other = [...c.requests].filter(([k]) => !k.endsWith('(stream)'));
    const total = other.reduce((n, [, v]) => n + v, 0);
    worst = Math.max(worst, total);
    log(`${c.label}: ${total} requests, ${watches} watch re-establishments in ${IDLE_MINUTES} virtual minutes`);
    return {
      label: c.label,
      value: `**${perMinute(total)}** requests/min${other.length > 0 ? ` (${other.map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}; watch re-establishment ${perMinute(watches)}/min`,
    };
  });
  return {
    id: 'idle',
    title: 'Operator API requests when idle',
    method: `The operator of scenario \`managed-osd-upgrade\` on the simulated cluster, counted for ${IDLE_MINUTES} virtual minutes once nothing changes (after 5 minutes to settle): every HTTP request it starts, to the API server and to outside APIs. Without leader election here there is no Lease renewal; watches re-established when the server ends them (as client-go does) are reported apart.`,
    target: '0 requests/min besides Lease renewal',
    result: `${perMinute(worst)} requests/min at most`,
    pass: worst === 0,
    measurements,
    memory: [],
    notes: [],
  };
}

/** Virtual minutes of the leak benchmark, and how often the heap is read. */
const LEAK_MINUTES = 60;
const LEAK_STEP_MINUTES = 10;
const LEAK_TOLERANCE_BYTES = 2 * 1024 * 1024;

/** A full garbage collection, also when this process runs without --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

/** Heap after GC over an hour of an idle operator in the simulation. */
export async function runIdleHeapBench(log: (line: string) => void): Promise<BenchResult> {
  const { env, run } = await idleOperator('{{ +24h }}', 'Pending');
  const heap: number[] = [];
  try {
    for (let minute = 0; minute <= LEAK_MINUTES; minute += LEAK_STEP_MINUTES) {
      if (minute > 0) {
        const end = env.clock.now() + LEAK_STEP_MINUTES * MINUTE;
        await env.clock.run({ until: () => env.clock.now() >= end, signal: env.signal });
      }
      collectGarbage();
      heap.push(process.memoryUsage().heapUsed);
      log(`idle-heap: minute ${minute}: heap after GC ${formatMiB(heap[heap.length - 1] ?? 0)}`);
    }
  } finally {
    await run?.close();
    await env.close();
  }
  const spread = Math.max(...heap) - Math.min(...heap);
  const growth = (heap[heap.length - 1] ?? 0) - (heap[0] ?? 0);
  return {
    id: 'idle-heap',
    title: 'Operator heap over an idle hour',
    method: `The operator of scenario \`managed-osd-upgrade\` on the simulated cluster, with its upgrade scheduled for tomorrow (phase Pending), after 5 virtual minutes to settle: ${LEAK_MINUTES} virtual minutes in steps of ${LEAK_STEP_MINUTES}, the heap used read after two full garbage collections at each step. The simulated cluster and the API server run in the same process, so their heap counts too: a leak anywhere shows.`,
    target: `heap after GC flat within ${formatMiB(LEAK_TOLERANCE_BYTES)}`,
    result: `spread ${formatMiB(spread)}, ${growth >= 0 ? '+' : ''}${formatMiB(growth)} from the first reading to the last`,
    pass: spread <= LEAK_TOLERANCE_BYTES,
    measurements: heap.map((bytes, i) => ({
      label: `minute ${i * LEAK_STEP_MINUTES}`,
      value: formatMiB(bytes),
    })),
    memory: [],
    notes: [],
  };
}
