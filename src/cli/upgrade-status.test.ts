import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { UpdateHistory } from '../api/openshift/config-v1/cluster-version.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { assessUpgradeStatus, nothingRead } from './upgrade-status.js';
import { estimateFromHistory } from './upgrade-status-control-plane.js';
import type { UpgradeStatusSnapshot } from './upgrade-status-model.js';
import { drainBlockers, drainingNodeNames } from './upgrade-status-nodes.js';
import {
  at,
  c,
  CFG,
  clusterVersion,
  co,
  EARLIER,
  MASTERS_DONE,
  MIN,
  NEW,
  node,
  NOW,
  ok,
  OLD,
  PARTIAL,
  pdb,
  pod,
  pool,
  snapshot,
} from './upgrade-status.test-support.js';

// ---- Control plane -------------------------------------------------------------------------

void test('not started: the last update Completed, every pool done; a managed UpgradeConfig waits for its upgradeAt', () => {
  const uc: ManagedUpgradeConfig = {
    metadata: { namespace: 'openshift-managed-upgrade-operator', name: 'managed-upgrade-config' },
    spec: {
      desired: { version: '4.15.9', channel: 'stable-4.15' },
      upgradeAt: at(-90),
      PDBForceDrainTimeout: 60,
      type: 'OSD',
    },
  };
  const done = [...MASTERS_DONE, node('w0', 'worker', { current: CFG.workerNew })];
  const r = assessUpgradeStatus(snapshot({ nodes: ok(done), managedUpgradeConfigs: ok([uc]) }), NOW);
  assert.equal(r.updating, false);
  assert.equal(r.controlPlane.assessment, 'Completed');
  assert.equal(r.controlPlane.currentVersion, NEW);
  assert.equal(r.controlPlane.durationMs, 57 * MIN);
  assert.deepEqual(r.health, [], 'nothing to report, and no "proceeding well" when not updating');
  const m = r.upgradeOperator.managed;
  assert.equal(m.state, 'ok');
  assert.deepEqual(m.upgradeConfigs[0], {
    namespace: 'openshift-managed-upgrade-operator',
    name: 'managed-upgrade-config',
    desiredVersion: '4.15.9',
    channel: 'stable-4.15',
    upgradeAt: at(-90),
    startsInMs: 90 * MIN,
    type: 'OSD',
    phase: null,
    startedAt: null,
    completedAt: null,
    step: null,
    waiting: null,
  });
});

void test('control plane mid-update: operator completion %, the updating operator named, CVO counts, ETA from the earlier updates', () => {
  const cv = clusterVersion({
    head: PARTIAL,
    conditions: [
      c('Failing', 'False'),
      c(
        'Progressing',
        'True',
        'ClusterOperatorUpdating',
        `Working towards ${NEW}: 762 of 880 done (86% complete), waiting on machine-config`,
        62,
      ),
      c('ReleaseAccepted', 'True', 'PayloadLoaded'),
    ],
  });
  const cos = [co('etcd', NEW), co('kube-apiserver', NEW), co('machine-config', OLD, true), co('dns', OLD)];
  const r = assessUpgradeStatus(
    snapshot({ clusterVersion: ok(cv), clusterOperators: ok(cos), nodes: ok(MASTERS_DONE) }),
    NOW,
  );
  const cp = r.controlPlane;
  assert.equal(cp.assessment, 'Progressing');
  assert.equal(cp.message, `Working towards ${NEW}: 762 of 880 done (86% complete), waiting on machine-config`);
  assert.equal(cp.targetVersion, NEW);
  assert.equal(cp.previousVersion, OLD);
  assert.deepEqual(cp.operators, {
    total: 4,
    updated: 2,
    updating: 1,
    waiting: 1,
    percent: 50,
    updatingNames: ['machine-config'],
  });
  assert.deepEqual(cp.cvoProgress, { done: 762, total: 880, percent: 86 });
  assert.equal(cp.durationMs, 62 * MIN);
  assert.deepEqual(cp.estimate, { totalMs: 90 * MIN, remainingMs: 28 * MIN, overdue: false, basedOn: 2 });
  assert.equal(r.updating, true);
  assert.deepEqual(
    r.health.map((h) => h.message),
    ['Update is proceeding well'],
  );
  assert.deepEqual(
    cp.operatorRows.map((o) => o.name),
    ['dns', 'machine-config'],
    'the rows are the operators not done',
  );
});

void test('stalled: Failing=True is quoted; an Error insight says the update is stalled', () => {
  const failing = c('Failing', 'True', 'ClusterOperatorDegraded', 'Cluster operator machine-config is degraded', 3);
  const cv = clusterVersion({
    head: PARTIAL,
    conditions: [
      failing,
      c(
        'Progressing',
        'True',
        'ClusterOperatorDegraded',
        `Unable to apply ${NEW}: wait has exceeded 40 minutes for these operators: machine-config`,
      ),
      c('ReleaseAccepted', 'True', 'PayloadLoaded'),
    ],
  });
  const mco = co('machine-config', OLD, true, [
    c(
      'Degraded',
      'True',
      'RequiredPoolsFailed',
      'Unable to apply 4.15.3: error during syncRequiredMachineConfigPools',
      20,
    ),
  ]);
  const r = assessUpgradeStatus(
    snapshot({ clusterVersion: ok(cv), clusterOperators: ok([co('etcd', NEW), mco]) }),
    NOW,
  );
  assert.equal(r.controlPlane.assessment, 'Stalled');
  assert.equal(
    r.controlPlane.message,
    'Failing=True ClusterOperatorDegraded: Cluster operator machine-config is degraded',
  );
  assert.deepEqual(r.controlPlane.operatorHealth, { total: 2, healthy: 1, degraded: 1, unavailable: 0, unknown: 0 });
  assert.deepEqual(r.health.slice(0, 2), [
    {
      level: 'Error',
      impact: 'Update Stalled',
      scope: 'ClusterVersion version',
      message:
        'Cluster Version version is failing to proceed with the update (ClusterOperatorDegraded): Cluster operator machine-config is degraded',
      since: at(3),
    },
    {
      level: 'Error',
      impact: 'API Availability',
      scope: 'ClusterOperator machine-config',
      message:
        'Cluster Operator machine-config is degraded (RequiredPoolsFailed): Unable to apply 4.15.3: error during syncRequiredMachineConfigPools',
      since: at(20),
    },
  ]);
});

void test('slow: the CVO says an operator takes longer than expected; a refused release is Stalled', () => {
  const slow = clusterVersion({
    head: PARTIAL,
    conditions: [
      c(
        'Failing',
        'Unknown',
        'SlowClusterOperator',
        'waiting on network over 30 minutes which is longer than expected',
      ),
      c(
        'Progressing',
        'True',
        'ClusterOperatorUpdating',
        `Working towards ${NEW}: 700 of 880 done (79% complete), waiting on network over 30 minutes which is longer than expected`,
      ),
      c('ReleaseAccepted', 'True', 'PayloadLoaded'),
    ],
  });
  const r = assessUpgradeStatus(snapshot({ clusterVersion: ok(slow) }), NOW);
  assert.equal(r.controlPlane.assessment, 'Slow');
  assert.equal(r.health[0]?.impact, 'Update Speed');
  const refused = clusterVersion({
    head: { ...EARLIER[0]! },
    desiredUpdate: { version: '4.16.0' },
    conditions: [
      c('Failing', 'False'),
      c('Progressing', 'False', '', `Cluster version is ${OLD}`),
      c('ReleaseAccepted', 'False', 'PreconditionChecks', 'Preconditions failed for payload loaded version="4.16.0"'),
    ],
  });
  const r2 = assessUpgradeStatus(snapshot({ clusterVersion: ok(refused) }), NOW);
  assert.equal(r2.controlPlane.assessment, 'Stalled');
  assert.match(
    r2.controlPlane.message,
    /does not accept release 4\.16\.0: ReleaseAccepted=False PreconditionChecks: Preconditions failed/,
  );
});

void test('ETA: mean of the last three completed updates before the head, the install and abandoned entries left out; overdue', () => {
  const h = (start: number, minutes: number, state: 'Completed' | 'Partial' = 'Completed'): UpdateHistory => ({
    state,
    startedTime: at(start),
    completionTime: at(start - minutes),
    version: 'v',
    image: 'i',
    verified: true,
  });
  const history = [PARTIAL, h(1000, 60), h(2000, 999, 'Partial'), h(3000, 90), h(4000, 30), h(5000, 500), h(9000, 45)];
  assert.deepEqual(estimateFromHistory(history, 70 * MIN), {
    estimate: { totalMs: 60 * MIN, remainingMs: 0, overdue: true, basedOn: 3 },
  });
  assert.deepEqual(estimateFromHistory([PARTIAL, h(9000, 45)], MIN), {
    unknown: 'no earlier completed update in ClusterVersion history',
  });
});

// ---- Pools and nodes -----------------------------------------------------------------------

void test('workers mid-rollout: updated, draining, rebooting, updating and pending nodes; a paused pool is Excluded', () => {
  const r = assessUpgradeStatus(snapshot(), NOW);
  assert.equal(r.updating, true, 'the workers still roll after the control plane completed');
  assert.deepEqual(
    r.pools.map((p) => [p.name, p.assessment, p.updated, p.total, p.percent]),
    [
      ['master', 'Completed', 3, 3, 100],
      ['infra', 'Excluded', 0, 1, 0],
      ['worker', 'Progressing', 1, 5, 20],
    ],
  );
  const worker = r.pools.find((p) => p.name === 'worker')!;
  assert.deepEqual(
    worker.nodes.map((n) => [n.name, n.assessment, n.phase, n.version]),
    [
      ['w1', 'Progressing', 'Draining', OLD],
      ['w2', 'Progressing', 'Rebooting', OLD],
      ['w3', 'Progressing', 'Updating', OLD],
      ['w4', 'Outdated', 'Pending', OLD],
      ['w0', 'Completed', 'Updated', NEW],
    ],
  );
  assert.equal(worker.draining, 1);
  assert.equal(worker.progressing, 3);
  const infra = r.pools.find((p) => p.name === 'infra')!;
  assert.deepEqual(
    infra.nodes.map((n) => [n.name, n.assessment, n.phase]),
    [['i0', 'Excluded', 'Paused']],
    'an infra node (also labelled worker) belongs to the infra pool',
  );
  assert.equal(infra.message, 'the pool is paused; 1 node will not update until it is unpaused');
  assert.ok(r.health.some((h) => h.level === 'Info' && h.scope === 'MachineConfigPool infra'));
  assert.deepEqual(drainingNodeNames(snapshot()), ['w1']);
});

void test('a degraded node and an unavailable one; a pool whose target config is for an older release is Pending', () => {
  const degraded = node('w1', 'worker', {
    current: CFG.workerOld,
    desired: CFG.workerNew,
    state: 'Degraded',
    reason: 'failed to drain node: w1 after 1 hour. Please see machine-config-controller logs for more information',
  });
  const notReady = node('w4', 'worker', { current: CFG.workerNew, ready: false });
  const r = assessUpgradeStatus(snapshot({ nodes: ok([...MASTERS_DONE, degraded, notReady]) }), NOW);
  const worker = r.pools.find((p) => p.name === 'worker')!;
  assert.equal(worker.assessment, 'Degraded');
  assert.deepEqual(
    worker.nodes.map((n) => [n.name, n.assessment, n.phase]),
    [
      ['w1', 'Degraded', 'Updating'],
      ['w4', 'Unavailable', 'Updated'],
    ],
  );
  assert.ok(
    r.health.some(
      (h) =>
        h.level === 'Error' &&
        h.message ===
          'Node w1 is degraded: failed to drain node: w1 after 1 hour. Please see machine-config-controller logs for more information',
    ),
  );

  const cv = clusterVersion({
    head: PARTIAL,
    conditions: [
      c('Failing', 'False'),
      c('Progressing', 'True', '', `Working towards ${NEW}: 400 of 880 done (45% complete)`),
      c('ReleaseAccepted', 'True', 'PayloadLoaded'),
    ],
  });
  const behind = assessUpgradeStatus(
    snapshot({
      clusterVersion: ok(cv),
      machineConfigPools: ok([pool('worker', CFG.workerOld)]),
      nodes: ok([node('w0', 'worker', { current: CFG.workerOld })]),
    }),
    NOW,
  );
  assert.deepEqual(
    behind.pools.map((p) => [p.assessment, p.updated, p.message]),
    [['Pending', 0, `the pool's target config is for ${OLD}, not ${NEW} yet`]],
  );
  assert.deepEqual(
    behind.pools[0]?.nodes.map((n) => [n.assessment, n.phase]),
    [['Outdated', 'Pending']],
  );
});

void test('a PDB-blocked drain names the pod and the PodDisruptionBudget; DaemonSet pods and budgets with room do not block', () => {
  const pods = [
    pod('shop', 'web-0', 'w1', { app: 'web' }),
    pod('shop', 'db-0', 'w1', { app: 'db' }),
    pod('openshift-dns', 'dns-x', 'w1', { app: 'web' }, true),
    pod('shop', 'web-1', 'w0', { app: 'web' }),
  ];
  const pdbs = [pdb('shop', 'web-pdb', 'web', 0), pdb('shop', 'db-pdb', 'db', 1), pdb('other', 'web-pdb', 'web', 0)];
  assert.deepEqual(drainBlockers('w1', pods, pdbs), [
    {
      pod: 'shop/web-0',
      pdb: 'shop/web-pdb',
      message: 'The disruption budget web-pdb needs 2 healthy pods and has 2 currently',
    },
  ]);
  const r = assessUpgradeStatus(snapshot({ pods: ok(pods), podDisruptionBudgets: ok(pdbs) }), NOW);
  const w1 = r.pools.flatMap((p) => p.nodes).find((n) => n.name === 'w1')!;
  assert.equal(w1.message, 'drain blocked: pod shop/web-0 (PodDisruptionBudget shop/web-pdb)');
  assert.deepEqual(
    r.health.filter((h) => h.scope === 'Node w1'),
    [
      {
        level: 'Warning',
        impact: 'Update Stalled',
        scope: 'Node w1',
        message:
          'Node w1 cannot be drained: pod shop/web-0 is protected by PodDisruptionBudget shop/web-pdb (The disruption budget web-pdb needs 2 healthy pods and has 2 currently)',
        since: null,
      },
    ],
  );
});

// ---- Unknowns ------------------------------------------------------------------------------

void test('unknowns: a failed list makes its part unknown, never healthy or complete; the operator kinds may simply be absent', () => {
  const r = assessUpgradeStatus(
    snapshot({
      nodes: { state: 'error', error: 'nodes is forbidden' },
      clusterVersion: { state: 'error', error: 'connection refused' },
    }),
    NOW,
  );
  assert.deepEqual(r.unknown, [
    { part: 'clusterVersion', reason: 'connection refused' },
    { part: 'nodes', reason: 'nodes is forbidden' },
  ]);
  assert.equal(r.controlPlane.assessment, 'Unknown');
  assert.equal(r.controlPlane.message, 'ClusterVersion unknown: connection refused');
  assert.equal(r.updating, true, 'unknown is not done');
  assert.ok(
    r.pools.every(
      (p) => p.assessment === 'Unknown' && p.percent === null && p.message === 'nodes unknown: nodes is forbidden',
    ),
  );
  assert.ok(r.health.some((h) => h.impact === 'Unknown' && h.message === 'Cannot read nodes: nodes is forbidden'));
  assert.equal(r.upgradeOperator.managed.state, 'absent');
  assert.equal(nothingRead(snapshot()), false);
  const failed = { state: 'error', error: 'x' } as const;
  const none = Object.fromEntries(Object.keys(snapshot()).map((k) => [k, failed])) as unknown as UpgradeStatusSnapshot;
  assert.equal(nothingRead(none), true);

  const noPdbs = assessUpgradeStatus(snapshot({ podDisruptionBudgets: { state: 'error', error: 'forbidden' } }), NOW);
  assert.equal(
    noPdbs.pools.flatMap((p) => p.nodes).find((n) => n.name === 'w1')?.message,
    'the node is being drained; blockers unknown: forbidden',
  );
  const noConfigs = assessUpgradeStatus(
    snapshot({ renderedMachineConfigs: { state: 'error', error: 'timeout' } }),
    NOW,
  );
  assert.ok(
    noConfigs.pools.flatMap((p) => p.nodes).every((n) => n.version === null),
    'no version without the rendered configs',
  );
  const noAnnotations = assessUpgradeStatus(
    snapshot({ nodes: ok([{ metadata: { name: 'w9', labels: { 'node-role.kubernetes.io/worker': '' } } }]) }),
    NOW,
  );
  assert.deepEqual(
    noAnnotations.pools.find((p) => p.name === 'worker')?.nodes.map((n) => [n.assessment, n.phase, n.message]),
    [['Unknown', 'Unknown', 'the node has no machine-config annotations']],
  );
  assert.equal(noAnnotations.pools.find((p) => p.name === 'worker')?.assessment, 'Unknown');
});

// ---- The upgrade operator's objects --------------------------------------------------------

void test('managed flow: the phase of the desired version, its current step (first condition) with the time in it, and the Waiting condition', () => {
  const uc: ManagedUpgradeConfig = {
    metadata: { namespace: 'openshift-managed-upgrade-operator', name: 'managed-upgrade-config' },
    spec: {
      desired: { version: NEW, channel: 'stable-4.15' },
      upgradeAt: at(70),
      PDBForceDrainTimeout: 60,
      type: 'OSD',
    },
    status: {
      history: [
        {
          version: NEW,
          precedingVersion: OLD,
          phase: 'Upgrading',
          startTime: at(68),
          conditions: [
            {
              type: 'ControlPlaneUpgraded',
              status: 'False',
              reason: 'ControlPlaneUpgraded not done',
              message: 'ControlPlaneUpgraded still in progress',
              startTime: at(62),
              lastTransitionTime: at(62),
            },
            {
              type: 'UpgradeCommenced',
              status: 'True',
              reason: 'UpgradeCommenced done',
              message: 'ClusterVersion has been updated',
              startTime: at(63),
              completeTime: at(62),
            },
          ],
        },
        { version: OLD, phase: 'Upgraded', startTime: at(30_000), completeTime: at(29_900) },
      ],
      conditions: [
        {
          type: 'Waiting',
          status: 'True',
          reason: 'WaitingForControlPlane',
          message: 'the cluster version operator waits on machine-config',
          lastTransitionTime: at(10),
        },
      ],
    },
  };
  const view = assessUpgradeStatus(snapshot({ managedUpgradeConfigs: ok([uc]) }), NOW).upgradeOperator.managed
    .upgradeConfigs[0];
  assert.equal(view?.phase, 'Upgrading');
  assert.equal(view?.startsInMs, null);
  assert.deepEqual(view?.step, {
    type: 'ControlPlaneUpgraded',
    status: 'False',
    reason: 'ControlPlaneUpgraded not done',
    message: 'ControlPlaneUpgraded still in progress',
    since: at(62),
    inStepMs: 62 * MIN,
  });
  assert.deepEqual(view?.waiting, {
    type: 'Waiting',
    status: 'True',
    reason: 'WaitingForControlPlane',
    message: 'the cluster version operator waits on machine-config',
    lastTransitionTime: at(10),
  });
});

void test('scheduled flow: an active UpgradeJob with its running hook Job, the last finished job, the UpgradeConfig’s next window', () => {
  const ns = 'appuio-openshift-upgrade-controller';
  const job = (name: string, startAfter: string, conditions: UpgradeJob['status']): UpgradeJob => ({
    metadata: { namespace: ns, name },
    spec: {
      startAfter,
      startBefore: at(-60),
      desiredVersion: { version: '4.14.31' },
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '1h' },
        postUpgradeHealthChecks: { timeout: '1h' },
      },
    },
    ...(conditions ? { status: conditions } : {}),
  });
  const running = job('nightly-1', at(20), {
    conditions: [
      { type: 'Started', status: 'True', reason: 'Started', message: 'Upgrade started', lastTransitionTime: at(19) },
      {
        type: 'PreHealthCheckDone',
        status: 'True',
        reason: 'Completed',
        message: 'Pre-upgrade health checks passed',
        lastTransitionTime: at(15),
      },
    ],
  });
  const old = job('nightly-0', at(1500), {
    conditions: [
      {
        type: 'Succeeded',
        status: 'True',
        reason: 'Succeeded',
        message: 'Upgrade succeeded',
        lastTransitionTime: at(1400),
      },
    ],
  });
  const later = job('nightly-2', at(-1400), undefined);
  const hook: Job = {
    metadata: {
      namespace: ns,
      name: 'notify-start-abc',
      labels: {
        'upgradejobs.managedupgrade.appuio.io/upgradejobhook': 'notify',
        'upgradejobs.managedupgrade.appuio.io/upgradejobk': 'nightly-1',
        'upgradejobs.managedupgrade.appuio.io/event': 'Start',
      },
    },
    status: { active: 1, startTime: at(18) },
  };
  const failedHook: Job = {
    ...hook,
    metadata: {
      ...hook.metadata,
      name: 'notify-create-abc',
      labels: { ...hook.metadata?.labels, 'upgradejobs.managedupgrade.appuio.io/event': 'Create' },
    },
    status: {
      startTime: at(30),
      conditions: [
        {
          type: 'Failed',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
    },
  };
  const config = {
    metadata: { namespace: ns, name: 'nightly' },
    spec: {
      schedule: { cron: '0 1 * * *', location: 'UTC' },
      maxSchedulingDelay: '1h',
      maxUpgradeStartDelay: '1h',
      jobTemplate: { spec: { config: running.spec!.config } },
    },
    status: { nextPossibleSchedules: [{ time: at(-1380) }], lastScheduledUpgrade: at(20) },
  };
  const r = assessUpgradeStatus(
    snapshot({
      upgradeJobs: ok([old, later, running]),
      hookJobs: ok([hook, failedHook]),
      scheduledUpgradeConfigs: ok([config]),
    }),
    NOW,
  );
  const s = r.upgradeOperator.scheduled;
  assert.equal(s.state, 'ok');
  assert.deepEqual(
    s.activeJobs.map((j) => [j.name, j.state]),
    [
      ['nightly-1', 'Running'],
      ['nightly-2', 'Scheduled'],
    ],
  );
  const active = s.activeJobs[0]!;
  assert.equal(active.message, 'PreHealthCheckDone=True Completed: Pre-upgrade health checks passed');
  assert.deepEqual(
    active.hooks.map((h) => [h.name, h.event, h.state, h.message]),
    [
      ['notify-create-abc', 'Create', 'Failed', 'BackoffLimitExceeded: Job has reached the specified backoff limit'],
      ['notify-start-abc', 'Start', 'Running', ''],
    ],
  );
  assert.equal(s.lastFinishedJob?.name, 'nightly-0');
  assert.equal(s.lastFinishedJob?.state, 'Succeeded');
  assert.deepEqual(
    s.upgradeConfigs.map((x) => [x.name, x.cron, x.nextWindow, x.suspended]),
    [['nightly', '0 1 * * *', at(-1380), false]],
  );
  const unknown = assessUpgradeStatus(snapshot({ upgradeJobs: { state: 'error', error: 'forbidden' } }), NOW)
    .upgradeOperator.scheduled;
  assert.deepEqual([unknown.state, unknown.reason], ['unknown', 'forbidden']);
});
