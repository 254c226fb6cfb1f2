import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatElapsed,
  poolsText,
  progressLine,
  NO_EXTRAS,
  type ScenarioProgress,
} from './scenarios/scenario-progress.js';
import { environmentLine, environmentReport, simulateFlagProblems, verdict } from './simulate.js';
import { MAX_TIME_SCALE, parseTimeScale, parseUntil } from './commands/simulate.js';
import { loadScenario } from './scenarios/catalog.js';
import { externalOperatorProblems, operatorLease } from './scenarios/scenario-runner.js';

void test('progress lines show virtual elapsed time and pools in name order', () => {
  assert.equal(formatElapsed(0), '+00:00:00');
  assert.equal(formatElapsed(((1 * 60 + 30) * 60 + 5) * 1000 + 999), '+01:30:05');
  assert.equal(poolsText({ worker: [0, 3], master: [1, 3] }), 'master 1/3  worker 0/3');
});

void test('a progress line shows the phase, the wait or the step, the pools and ClusterVersion; without an operator, pools and Progressing', () => {
  const base: ScenarioProgress = {
    ...NO_EXTRAS,
    elapsedMs: 75_000,
    virtualNow: 0,
    waitingReason: '',
    phase: 'Upgrading',
    step: 'ControlPlaneUpgraded=False',
    stepMessage: 'ControlPlaneUpgraded still in progress',
    waiting: '',
    pools: { worker: [0, 3], master: [1, 3] },
    clusterVersion: {
      version: '4.15.38',
      state: 'Partial',
      progressing: 'Working towards 4.15.38: 105 of 863 done (12% complete)',
      desired: '4.15.38',
    },
    doneSteps: [],
    upgradeJob: { name: '', state: '', reason: '', message: '', trueConditions: [] },
  };
  assert.equal(
    progressLine(base, 'managed'),
    '[+00:01:15] Upgrading ControlPlaneUpgraded still in progress  |  master 1/3  worker 0/3  |  ClusterVersion Working towards 4.15.38: 105 of 863 done (12% complete)',
  );
  assert.match(
    progressLine({ ...base, clusterVersion: { ...base.clusterVersion, state: 'Completed' } }, 'managed'),
    /ClusterVersion 4\.15\.38 Completed$/,
  );
  assert.match(
    progressLine({ ...base, phase: '', waiting: 'the upgrade is scheduled for 2026-03-02T00:10:00Z' }, 'managed'),
    /^\[\+00:01:15\] - {9}the upgrade is scheduled/,
  );
  assert.equal(
    progressLine(base, 'none'),
    '[+00:01:15] master 1/3  worker 0/3  Working towards 4.15.38: 105 of 863 done (12% complete)',
  );
});

void test("the scheduled flow's progress line shows the newest UpgradeJob, its state and newest message", () => {
  const base: ScenarioProgress = {
    ...NO_EXTRAS,
    elapsedMs: 3_600_000,
    virtualNow: 0,
    waitingReason: '',
    phase: '',
    step: '',
    stepMessage: '',
    waiting: '',
    pools: { worker: [3, 3], master: [3, 3] },
    clusterVersion: { version: '4.14.30', state: 'Completed', progressing: '', desired: '4.14.30' },
    doneSteps: [],
    upgradeJob: { name: '', state: '', reason: '', message: '', trueConditions: [] },
  };
  assert.equal(
    progressLine(base, 'scheduled'),
    '[+01:00:00] no UpgradeJob yet  |  master 3/3  worker 3/3  |  ClusterVersion 4.14.30 Completed',
  );
  const job = {
    name: 'weekly-4-15-38-1773176400',
    state: 'active',
    reason: '',
    message: 'Health checks ok',
    trueConditions: ['Started'],
  };
  assert.equal(
    progressLine({ ...base, upgradeJob: job }, 'scheduled'),
    '[+01:00:00] active  weekly-4-15-38-1773176400: Health checks ok  |  master 3/3  worker 3/3  |  ClusterVersion 4.14.30 Completed',
  );
  assert.match(
    progressLine(
      { ...base, upgradeJob: { ...job, state: 'failed', reason: 'HookFailed', message: 'hook "ack" failed' } },
      'scheduled',
    ),
    /\] failed\/HookFailed {2}weekly-4-15-38-1773176400: hook "ack" failed {2}\|/,
  );
});

void test('--time-scale takes a number above 0 and at most the maximum', () => {
  assert.equal(parseTimeScale('60'), 60);
  assert.equal(parseTimeScale('0.5'), 0.5);
  assert.equal(parseTimeScale(String(MAX_TIME_SCALE)), MAX_TIME_SCALE);
  for (const bad of ['0', '-1', '', ' ', 'fast', 'Infinity', String(MAX_TIME_SCALE + 1)])
    assert.throws(() => parseTimeScale(bad), /must be a number above 0 and at most 3600/, bad);
});

void test("the external API server's flags need --kubeconfig, and --kubeconfig-out does not go with it", () => {
  assert.deepEqual(simulateFlagProblems({}), []);
  assert.deepEqual(simulateFlagProblems({ kubeconfigOut: '/tmp/kc' }), []);
  assert.deepEqual(simulateFlagProblems({ html: 'upgrade.html' }), []);
  assert.deepEqual(simulateFlagProblems({ list: true, html: 'upgrade.html' }), [
    '--html draws a run; --list runs none',
  ]);
  assert.deepEqual(simulateFlagProblems({ kubeconfig: '/tmp/kc', context: 'kind', timeScale: 120, force: true }), []);
  assert.deepEqual(simulateFlagProblems({ kubeconfig: '/tmp/kc', kubeconfigOut: '/tmp/out' }), [
    '--kubeconfig-out writes a kubeconfig for the embedded API server; with --kubeconfig, use that file',
  ]);
  assert.deepEqual(simulateFlagProblems({ kubeconfig: '' }), ['--kubeconfig needs a file']);
  assert.deepEqual(simulateFlagProblems({ context: 'kind', timeScale: 60, force: true }), [
    '--context applies only with --kubeconfig (the embedded API server runs on event-driven virtual time)',
    '--time-scale applies only with --kubeconfig (the embedded API server runs on event-driven virtual time)',
    '--force applies only with --kubeconfig (the embedded API server runs on event-driven virtual time)',
  ]);
});

void test('the output says where a run ran and whether its seed reproduces it', () => {
  const embedded = { timeMode: 'event', apiServerUrl: 'http://127.0.0.1:4000' } as const;
  const external = { timeMode: 'scaled', apiServerUrl: 'https://api.lab:6443' } as const;
  assert.equal(
    environmentLine(embedded, 60),
    'Embedded API server at http://127.0.0.1:4000, event-driven virtual time: this seed reproduces this run.',
  );
  assert.equal(
    environmentLine(external, 120),
    'API server at https://api.lab:6443, scaled real time (×120: 120 virtual ms per wall ms): a wall-time run is not reproducible by seed.',
  );
  assert.deepEqual(environmentReport(embedded, 60), {
    apiServer: 'http://127.0.0.1:4000',
    timeMode: 'event',
    reproducible: true,
  });
  assert.deepEqual(environmentReport(external, 120), {
    apiServer: 'https://api.lab:6443',
    timeMode: 'scaled',
    timeScale: 120,
    reproducible: false,
  });
});

void test('--operator external needs --kubeconfig and --rehearsal-out; --rehearsal-out needs it', () => {
  assert.deepEqual(
    simulateFlagProblems({ kubeconfig: '/tmp/kc', operator: 'external', rehearsalOut: '/tmp/rehearsal.json' }),
    [],
  );
  assert.deepEqual(simulateFlagProblems({ operator: 'in-process' }), []);
  assert.deepEqual(simulateFlagProblems({ operator: 'external' }), [
    '--operator external needs --kubeconfig: the embedded API server runs on event-driven virtual time, which another process cannot follow',
    '--operator external needs --rehearsal-out FILE: the file tells `upgrade-operator run --rehearsal FILE` where the simulated cluster is and what time it is',
  ]);
  assert.deepEqual(simulateFlagProblems({ kubeconfig: '/tmp/kc', rehearsalOut: '/tmp/rehearsal.json' }), [
    '--rehearsal-out applies only with --operator external',
  ]);
});

void test('an external operator needs a scenario with an operator and no action on the in-process one; it is awaited on its Lease', () => {
  assert.deepEqual(externalOperatorProblems(loadScenario('managed-osd-upgrade').file), []);
  assert.deepEqual(externalOperatorProblems(loadScenario('manual-minor-upgrade').file), [
    'the scenario runs no operator: there is nothing for an external operator to do',
  ]);
  const restarts = externalOperatorProblems(loadScenario('scheduled-operator-restart').file);
  assert.equal(restarts.length, 4);
  assert.equal(
    restarts[0],
    'action "restart once the job started" (restartOperator) controls the operator process of simulate; with an external operator, stop and start your own `upgrade-operator run` instead, or pick a scenario without it',
  );
  assert.match(
    externalOperatorProblems(loadScenario('scheduled-job-expired').file).join('\n'),
    /\(stopOperator\)[^]*\(startOperator\)/,
  );
  assert.deepEqual(operatorLease({ flows: ['scheduled', 'managed'], scheduledNamespace: 'upgrades' }), {
    namespace: 'openshift-managed-upgrade-operator',
    name: 'managed-upgrade-operator-lock',
  });
  assert.deepEqual(operatorLease({ flows: ['scheduled'], scheduledNamespace: 'upgrades' }), {
    namespace: 'upgrades',
    name: '9fced507.appuio.io',
  });
});

void test("--until takes done (its default, the scenario's own end) or a positive duration", () => {
  assert.equal(parseUntil('done'), 'done');
  assert.equal(parseUntil('90m'), 90 * 60_000);
  assert.throws(() => parseUntil('0s'), /must be "done" or a positive duration/);
  assert.throws(() => parseUntil('soon'), /must be "done" or a positive duration/);
});

void test('only a run that met every expectation says "as expected"; an unmet one says FAILED', () => {
  assert.deepEqual(verdict({ ok: true, expectationsChecked: true }), { text: 'as expected', style: 'green' });
  for (const expectationsChecked of [true, false]) {
    const v = verdict({ ok: false, expectationsChecked });
    assert.equal(v.text, 'FAILED');
    assert.doesNotMatch(v.text, /as expected/i);
  }
  assert.doesNotMatch(verdict({ ok: true, expectationsChecked: false }).text, /as expected/i);
});
