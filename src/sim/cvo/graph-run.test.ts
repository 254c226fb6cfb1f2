import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import { payloadFor, taskGraph, type PayloadManifest } from '../releases/payload.js';
import { runGraph, type GraphHooks } from './graph-run.js';
import type { SyncError } from './errors.js';

const release = findRelease(buildCatalogue(), '4.15.3')!;

function hooks(failing: ReadonlySet<string>, log: string[]): GraphHooks {
  return {
    applyDeployment: async (chain) => void log.push(`apply ${chain.component}`),
    ensureOperators: async () => undefined,
    gate: (m: PayloadManifest): SyncError | undefined => {
      log.push(`gate ${m.name}`);
      return failing.has(m.name)
        ? { reason: 'ClusterOperatorUpdating', message: '', effect: 'None', names: [m.name] }
        : undefined;
    },
    runJob: async (m) => (log.push(`job ${m.name}`), undefined),
    sleep: async () => undefined,
    progress: () => undefined,
  };
}

test('a failed node blocks only its dependents: the rest of its runlevel finishes, the next runlevel does not start', async () => {
  const payload = payloadFor(release);
  const stages = taskGraph(payload);
  const log: string[] = [];
  const result = await runGraph(
    {
      stages,
      mode: 'update',
      taskMs: () => 1,
      reapplyStageMs: 0,
      completedStages: new Set(),
      signal: new AbortController().signal,
    },
    hooks(new Set(['network']), log),
  );
  assert.ok(log.includes('gate dns'), 'dns (same runlevel) still ran');
  assert.ok(!log.includes('gate machine-config'), 'runlevel 80 never started');
  assert.deepEqual(
    result.errors.map((e) => e.names),
    [['network']],
  );
  const before = payload.manifests.filter((m) => m.runlevel < 70).length;
  const dns = payload.manifests.filter((m) => m.runlevel === 70 && m.component === 'cluster-dns-operator').length;
  const networkBeforeCo = payload.manifests.filter(
    (m) => m.runlevel === 70 && m.component === 'cluster-network-operator' && m.kind !== 'ClusterOperator',
  ).length;
  assert.equal(result.done, before + dns + networkBeforeCo);
  assert.ok(!result.completedStages.has(stages.findIndex((s) => s.kind === 'runlevel' && s.runlevel === 70)));
});

test('a Job is a barrier between the stages around it; reconcile mode walks every chain', async () => {
  const payload = payloadFor(release, {
    extraManifests: [
      {
        runlevel: 50,
        component: 'zz-hook',
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'pre-hook',
        namespace: 'openshift-cluster-version',
      },
    ],
  });
  const stages = taskGraph(payload);
  const log: string[] = [];
  const result = await runGraph(
    {
      stages,
      mode: 'update',
      taskMs: () => 0,
      reapplyStageMs: 0,
      completedStages: new Set(),
      signal: new AbortController().signal,
    },
    hooks(new Set(), log),
  );
  assert.deepEqual(result.errors, []);
  assert.equal(result.done, payload.manifests.length);
  const job = log.indexOf('job pre-hook');
  assert.ok(
    job > log.indexOf('gate service-ca') && job < log.indexOf('gate dns'),
    'after runlevel 50, before runlevel 70',
  );
  const rec: string[] = [];
  const r2 = await runGraph(
    {
      stages: taskGraph(payloadFor(release)),
      mode: 'reconcile',
      taskMs: () => 0,
      reapplyStageMs: 0,
      completedStages: new Set(),
      shuffle: (x) => x.reverse(),
      signal: new AbortController().signal,
    },
    hooks(new Set(['etcd']), rec),
  );
  assert.ok(rec.includes('gate machine-config'), 'no ordering between runlevels when reconciling');
  assert.deepEqual(
    r2.errors.map((e) => e.names),
    [['etcd']],
  );
});
