/**
 * The real operator's footprint and steady state (issue 17): the `upgrade-operator run` process
 * itself, as installed (`bin/upgrade-operator.js` on `dist/`), with its Deployment's
 * `NODE_OPTIONS`, against the benchmark's API server with the operator's and OpenShift's CRDs
 * installed.
 *
 * - **run-idle**: each flow alone and both, on an empty cluster: RSS once ready (informers
 *   synced), the median of ten readings a second apart after a settling pause.
 * - **run-cached**: both flows with 500 Nodes and 10,000 Pods in the cluster (seeded as the
 *   informer benchmark seeds them): RSS once ready.
 * - **run-steady**: both flows idle on the empty cluster for a minute: the process's CPU time
 *   (from /proc) and its API requests (`rest_client_requests_total` from its own /metrics).
 *
 * Leader election is off (one replica), so there is no Lease renewal to subtract: every request
 * counted is one the operator made on its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { MAX_OLD_SPACE_MIB } from '../../src/api/deploy/managed-operator-manifests.js';
import { operatorNodeOptions } from '../../src/api/deploy/operator-objects.js';
import { SCHEDULED_MAX_OLD_SPACE_MIB } from '../../src/api/deploy/scheduled-operator-manifests.js';
import { customResourceDefinitions } from '../../src/api/manifests.js';
import { openshiftCustomResourceDefinitions } from '../../src/api/openshift/crds.js';
import { BUILT_BINARY, ensureBuilt } from '../../src/cli/binary.test-support.js';
import { loopbackRunArgs } from '../../src/cli/loaded-modules.test-support.js';
import type { BenchContext } from './context.js';
import type { ProcessMemory } from './memory.js';
import type { BenchResult } from './result.js';
import type { SeedResult } from './server-child.js';
import { formatCount, formatMiB, summarize } from './stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 1024 * 1024;
const IDLE_TARGET = 64 * MiB;
const CACHED_TARGET = 128 * MiB;
const NODES = 500;
const PODS = 10_000;
const NAMESPACES = 50;
const READY_TIMEOUT_MS = 180_000;
const SETTLE_MS = 10_000;
const STEADY_MS = 60_000;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

type Flows = 'managed' | 'scheduled' | 'managed,scheduled';

/** The Deployment's NODE_OPTIONS for these flows (both flows: the managed Deployment's). */
function deploymentNodeOptions(flows: Flows): string {
  return operatorNodeOptions(flows === 'scheduled' ? SCHEDULED_MAX_OLD_SPACE_MIB : MAX_OLD_SPACE_MIB);
}

/** Installs the CRDs a cluster running the operator has (the operator's seven, OpenShift's). */
async function installCrds(url: string): Promise<void> {
  for (const crd of [...customResourceDefinitions(), ...openshiftCustomResourceDefinitions()]) {
    const res = await fetch(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(crd),
    });
    if (!res.ok && res.status !== 409) throw new Error(`creating a CRD: HTTP ${res.status}: ${await res.text()}`);
    await res.body?.cancel();
  }
}

/** VmRSS and VmHWM of a process, bytes. */
function procMemory(pid: number): { rss: number; maxRss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s*(\\d+)\\s*kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') * 1024, maxRss: kb('VmHWM') * 1024 };
}

/** User + system CPU time of a process so far, ms. */
function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A started `run`: its process and its servers. */
interface RunningOperator {
  child: ChildProcess;
  pid: number;
  metricsUrl: string;
  stop(): Promise<void>;
}

/**
 * The benchmark's kubeconfig in JSON. The Deployment's operator reads its in-cluster config and
 * no kubeconfig at all; a kubeconfig in JSON keeps the YAML parser out of the measured process
 * as in the cluster (src/kube/kubeconfig.ts parses JSON without it).
 */
function jsonKubeconfig(ctx: BenchContext): string {
  const path = `${ctx.kubeconfigPath}.json`;
  writeFileSync(path, JSON.stringify(parseYaml(readFileSync(ctx.kubeconfigPath, 'utf8'))));
  return path;
}

/** Starts `upgrade-operator run --flows <flows>` and waits until /readyz answers 200. */
async function startOperator(ctx: BenchContext, flows: Flows): Promise<RunningOperator> {
  const child = spawn(process.execPath, [BUILT_BINARY, ...loopbackRunArgs(flows, jsonKubeconfig(ctx))], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: deploymentNodeOptions(flows), POD_NAMESPACE: 'default', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  try {
    let stderr = '';
    const endpoints = await new Promise<{ metrics: string; probes: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`run did not start: ${stderr.slice(-2000)}`)), READY_TIMEOUT_MS);
      child.once('close', (code) => reject(new Error(`run exited with ${code}: ${stderr.slice(-2000)}`)));
      child.stderr?.on('data', (c: Buffer) => {
        stderr = (stderr + c.toString()).slice(-20_000);
        const line = stderr.split('\n').find((l) => l.includes('"upgrade-operator starting"'));
        if (line === undefined) return;
        clearTimeout(timer);
        resolve(JSON.parse(line) as { metrics: string; probes: string });
      });
    });
    child.stderr?.removeAllListeners('data');
    child.stderr?.resume();
    const deadline = performance.now() + READY_TIMEOUT_MS;
    for (;;) {
      const res = await fetch(`${endpoints.probes}/readyz`).catch(() => undefined);
      await res?.body?.cancel();
      if (res?.status === 200) break;
      if (performance.now() > deadline) throw new Error('run did not become ready (informers not synced)');
      await sleep(250);
    }
    if (child.pid === undefined) throw new Error('run has no pid');
    return { child, pid: child.pid, metricsUrl: endpoints.metrics, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** RSS after the settling pause: the median of ten readings a second apart, and the peak. */
async function settledMemory(pid: number): Promise<ProcessMemory> {
  await sleep(SETTLE_MS);
  const readings: number[] = [];
  for (let i = 0; i < 10; i++) {
    readings.push(procMemory(pid).rss);
    await sleep(1000);
  }
  return { rss: summarize(readings).median, heapUsed: NaN, maxRss: procMemory(pid).maxRss, gc: false };
}

/** The operator's API requests so far (every code and verb), from its own /metrics. */
async function requestsSoFar(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('rest_client_requests_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

/** The shipped sample UpgradeConfig of the scheduled flow (Europe/Zurich), in the operator's namespace. */
const SAMPLE_UPGRADE_CONFIG = join(ROOT, 'deploy/samples/managedupgrade.appuio.io_v1beta1_upgradeconfig.yaml');
const SCHEDULED_CONFIGS = '/apis/managedupgrade.appuio.io/v1beta1/namespaces/default/upgradeconfigs';

/** Creates the sample UpgradeConfig in `default` (the operator's POD_NAMESPACE here); returns its name. */
async function createSampleUpgradeConfig(url: string): Promise<string> {
  const config = parseYaml(readFileSync(SAMPLE_UPGRADE_CONFIG, 'utf8')) as {
    metadata: { name: string; namespace?: string };
  };
  config.metadata.namespace = 'default';
  const res = await fetch(`${url}${SCHEDULED_CONFIGS}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  if (!res.ok) throw new Error(`creating the sample UpgradeConfig: HTTP ${res.status}: ${await res.text()}`);
  await res.body?.cancel();
  return config.metadata.name;
}

/** The footprint of each flow alone and both, idle on an empty cluster. */
export async function runOperatorIdleBench(ctx: BenchContext): Promise<BenchResult> {
  await ensureBuilt();
  await installCrds(ctx.url);
  const rows: Array<{ flows: Flows; memory: ProcessMemory }> = [];
  for (const flows of ['managed', 'scheduled', 'managed,scheduled'] as const) {
    ctx.log(`run-idle: run --flows ${flows}, idle on an empty cluster`);
    const op = await startOperator(ctx, flows);
    try {
      rows.push({ flows, memory: await settledMemory(op.pid) });
    } finally {
      await op.stop();
    }
  }
  const worst = Math.max(...rows.map((r) => r.memory.rss));
  // Not judged: what a scheduled operator with a schedule holds (the time-zone data it then loads).
  ctx.log('run-idle: run --flows scheduled with the sample UpgradeConfig (for information)');
  const configName = await createSampleUpgradeConfig(ctx.url);
  let withConfig: ProcessMemory;
  try {
    const op = await startOperator(ctx, 'scheduled');
    try {
      withConfig = await settledMemory(op.pid);
    } finally {
      await op.stop();
    }
  } finally {
    await (await fetch(`${ctx.url}${SCHEDULED_CONFIGS}/${configName}`, { method: 'DELETE' })).body?.cancel();
  }
  return {
    id: 'run-idle',
    title: 'The operator idle on an empty cluster',
    method:
      "`upgrade-operator run` as installed (`bin/upgrade-operator.js` on `dist/`) with its Deployment's `NODE_OPTIONS` " +
      `(the scheduled flow's Deployment for \`--flows scheduled\`, the managed flow's otherwise), against the benchmark's API server with the operator's and OpenShift's CRDs and no other objects, leader election off, reading the server's kubeconfig in JSON (the Deployment reads its in-cluster config, so no YAML parser is loaded in either case). ` +
      `Once /readyz answers (every informer synced) and ${SETTLE_MS / 1000} s later, RSS (VmRSS) is the median of ten readings a second apart; peak is VmHWM. ` +
      'For information, not judged: the scheduled flow again with the shipped sample UpgradeConfig (`deploy/samples/`, a schedule in Europe/Zurich) in its namespace, which makes it load the time-zone data.',
    target: `≤ ${formatMiB(IDLE_TARGET)} RSS (each flow alone and both)`,
    result: `${formatMiB(worst)} RSS at most (${rows.map((r) => `${r.flows}: ${formatMiB(r.memory.rss)}`).join(', ')})`,
    pass: worst <= IDLE_TARGET,
    measurements: [
      ...rows.map((r) => ({
        label: `run --flows ${r.flows} (NODE_OPTIONS ${deploymentNodeOptions(r.flows)})`,
        value: `**${formatMiB(r.memory.rss)}** RSS, peak ${formatMiB(r.memory.maxRss)}`,
      })),
      {
        label: 'run --flows scheduled with the sample UpgradeConfig (not judged)',
        value: `${formatMiB(withConfig.rss)} RSS, peak ${formatMiB(withConfig.maxRss)}`,
      },
    ],
    memory: [],
    notes: [],
  };
}

/** Both flows with 500 Nodes and 10,000 Pods in the cluster. */
export async function runOperatorCachedBench(ctx: BenchContext): Promise<BenchResult> {
  await ensureBuilt();
  await installCrds(ctx.url);
  const nodes = await fetch(`${ctx.url}/api/v1/nodes?limit=1`);
  const seeded = ((await nodes.json()) as { items: unknown[] }).items.length > 0;
  if (!seeded) {
    ctx.log(`run-cached: seeding ${NODES} Nodes and ${PODS} Pods`);
    await ctx.server.call<SeedResult>('seedCluster', { nodes: NODES, pods: PODS, namespaces: NAMESPACES }, 120_000);
  }
  ctx.log('run-cached: run --flows managed,scheduled with the Nodes and Pods cached');
  const op = await startOperator(ctx, 'managed,scheduled');
  let memory: ProcessMemory;
  try {
    memory = await settledMemory(op.pid);
  } finally {
    await op.stop();
  }
  return {
    id: 'run-cached',
    title: `The operator with ${NODES} Nodes and ${formatCount(PODS)} Pods cached`,
    method:
      `As the idle benchmark, both flows (\`run --flows managed,scheduled\`, the managed Deployment's \`NODE_OPTIONS\`), on a cluster holding ${NODES} Nodes and ` +
      `${formatCount(PODS)} Pods in ${NAMESPACES} namespaces seeded as the informer benchmark seeds them: RSS once every informer has synced, after ${SETTLE_MS / 1000} s.`,
    target: `≤ ${formatMiB(CACHED_TARGET)} RSS`,
    result: `${formatMiB(memory.rss)} RSS (peak ${formatMiB(memory.maxRss)})`,
    pass: memory.rss <= CACHED_TARGET,
    measurements: [
      { label: 'RSS once synced', value: `**${formatMiB(memory.rss)}**, peak ${formatMiB(memory.maxRss)}` },
    ],
    memory: [],
    notes: [],
  };
}

/** Both flows idle for a minute: CPU and API requests. */
export async function runOperatorSteadyBench(ctx: BenchContext): Promise<BenchResult> {
  await ensureBuilt();
  await installCrds(ctx.url);
  ctx.log(`run-steady: run --flows managed,scheduled idle for ${STEADY_MS / 1000} s`);
  const op = await startOperator(ctx, 'managed,scheduled');
  let cpuShare: number;
  let perMinute: number;
  try {
    await sleep(SETTLE_MS);
    const cpu0 = procCpuMs(op.pid);
    const req0 = await requestsSoFar(op.metricsUrl);
    const t0 = performance.now();
    await sleep(STEADY_MS);
    const req1 = await requestsSoFar(op.metricsUrl);
    const cpu1 = procCpuMs(op.pid);
    const wall = performance.now() - t0;
    cpuShare = (cpu1 - cpu0) / wall;
    // The /metrics reads are not API requests; watches the server ends are re-established (counted).
    perMinute = ((req1 - req0) * 60_000) / wall;
  } finally {
    await op.stop();
  }
  const pass = cpuShare < 0.01 && perMinute === 0;
  return {
    id: 'run-steady',
    title: 'The operator idle: CPU and API requests',
    method:
      `Both flows (\`run --flows managed,scheduled\`, as installed, the managed Deployment's \`NODE_OPTIONS\`, leader election off so there is no Lease renewal) idle on the empty cluster for ${STEADY_MS / 1000} s after being ready and ${SETTLE_MS / 1000} s more: ` +
      "the process's user + system CPU time from /proc, and its API requests from its own `rest_client_requests_total`.",
    target: '< 1 % of a core; 0 API requests/min (no Lease renewal here)',
    result: `${(cpuShare * 100).toFixed(2)} % of a core, ${perMinute.toFixed(2)} requests/min`,
    pass,
    measurements: [
      { label: 'CPU', value: `**${(cpuShare * 100).toFixed(2)} %** of one core` },
      { label: 'API requests', value: `**${perMinute.toFixed(2)}**/min` },
    ],
    memory: [],
    notes: [],
  };
}
