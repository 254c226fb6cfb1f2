import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime } from '../../lib/clock.js';
import { loadScenario, scenarioNames } from './catalog.js';
import type { JsonObject } from '../../lib/json.js';
import { apiFaultSettings, newestOffered, performAction, triggerHolds, type ActionTarget } from './scenario-actions.js';
import { expandTimes, parseScenarioFile } from './scenario-file.js';
import { NO_EXTRAS, type ScenarioProgress } from './scenario-progress.js';

void test('every named scenario file in scenarios/ parses and says what it shows', () => {
  const names = scenarioNames();
  assert.ok(names.includes('managed-osd-upgrade') && names.includes('manual-minor-upgrade'), names.join(', '));
  for (const name of names) {
    const { file } = loadScenario(name);
    assert.ok(file.description.length > 20, name);
    assert.ok(file.expect, `${name} says what a good run looks like`);
  }
});

void test('a scenario file that is not YAML is refused with why, an unresolved alias included', () => {
  for (const [text, why] of [
    ['description: [', /^YAML: /],
    ['description: *nowhere', /^YAML: Unresolved alias/],
  ] as const) {
    const r = parseScenarioFile(text);
    assert.equal(r.ok, false);
    assert.match((r.ok ? [] : r.problems).join('\n'), why);
  }
});

void test('an invalid scenario file is refused with every problem and its path', () => {
  const r = parseScenarioFile(`
description: broken
cluster: {version: 4.14.30, channel: stable-4.14, color: blue}
actions:
  - {name: two things, after: 3d, do: {alertmanager: down, prometheus: down}}
  - {name: restart, do: {restartOperator: true}}
end: {timeout: soon}
`);
  assert.equal(r.ok, false);
  const problems = r.ok ? [] : r.problems;
  assert.ok(
    problems.some((p) => p.startsWith('/cluster')),
    problems.join('\n'),
  );
  const r2 = parseScenarioFile(`
description: broken
cluster: {version: 4.14.30, channel: stable-4.14}
actions:
  - {name: two things, after: 3d, do: {alertmanager: down, prometheus: down}}
  - {name: restart, do: {restartOperator: true}}
end: {timeout: soon}
manifests:
  - {metadata: {name: x}}
`);
  assert.equal(r2.ok, false);
  assert.deepEqual(r2.ok ? [] : r2.problems, [
    '/actions/0/do: exactly one action, got alertmanager, prometheus',
    '/actions/0/after: time: unknown unit "d" in duration "3d"',
    '/actions/1/do/restartOperator: the scenario runs no operator',
    '/end/timeout: time: invalid duration "soon"',
    '/manifests/0: apiVersion and kind are required',
  ]);
  assert.equal(parseScenarioFile('description: [unclosed').ok, false);
  assert.throws(
    () => loadScenario('no-such-scenario'),
    /no scenario named no-such-scenario; named scenarios: .*managed-osd-upgrade/,
  );
});

void test('{{ +<duration> }} strings become RFC 3339 times after the start; other strings stay', () => {
  const start = Date.UTC(2026, 2, 2);
  assert.deepEqual(
    expandTimes(
      { spec: { upgradeAt: '{{ +10m }}', list: ['{{+1h30m}}', 'plain {{ +1m }}'], n: 3 } },
      start,
      formatTime,
    ),
    {
      spec: { upgradeAt: '2026-03-02T00:10:00Z', list: ['2026-03-02T01:30:00Z', 'plain {{ +1m }}'], n: 3 },
    },
  );
  assert.throws(() => expandTimes('{{ +3d }}', start, formatTime), /unknown unit "d"/);
});

void test('triggers: phase, step started or done, workers updated while rolling, an offered update', () => {
  const p: ScenarioProgress = {
    ...NO_EXTRAS,
    elapsedMs: 0,
    virtualNow: 0,
    waitingReason: '',
    phase: 'Upgrading',
    step: 'WorkerNodesUpgraded=False',
    stepMessage: 'WorkerNodesUpgraded still in progress',
    waiting: '',
    pools: { worker: [1, 3] },
    clusterVersion: { version: '4.15.38', state: 'Completed', progressing: '', desired: '4.15.38' },
    doneSteps: ['ControlPlaneUpgraded'],
    upgradeJob: { name: 'j', state: 'active', reason: '', message: '', trueConditions: ['Started'] },
  };
  assert.ok(triggerHolds(undefined, p, undefined));
  assert.ok(triggerHolds({ jobCondition: 'Started' }, p, undefined));
  assert.equal(triggerHolds({ jobCondition: 'UpgradeCompleted' }, p, undefined), false);
  assert.ok(
    triggerHolds(
      { phase: 'Upgrading', stepStarted: 'WorkerNodesUpgraded', stepDone: 'ControlPlaneUpgraded', workersUpdated: 1 },
      p,
      undefined,
    ),
  );
  assert.equal(triggerHolds({ workersUpdated: 2 }, p, undefined), false);
  assert.equal(
    triggerHolds({ workersUpdated: 1 }, { ...p, pools: { worker: [3, 3] } }, undefined),
    false,
    'only while the pool rolls',
  );
  assert.equal(triggerHolds({ phase: 'Pending' }, p, undefined), false);
  const cv = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    spec: { clusterID: 'x' },
    status: {
      availableUpdates: [
        { version: '4.15.9', image: 'i9' },
        { version: '4.15.38', image: 'i38' },
        { version: '4.14.40', image: 'i40' },
      ],
    },
  } as never;
  assert.deepEqual(newestOffered(cv, '4.15.'), { version: '4.15.38', image: 'i38' });
  assert.ok(triggerHolds({ offered: '4.15.' }, p, cv));
  assert.equal(triggerHolds({ offered: '4.16.' }, p, cv), false);
});

void test('a scenario with OCM must point the operator at it', () => {
  const r = parseScenarioFile(`
description: an OCM scenario whose operator config forgot the URL
cluster: {version: 4.14.30, channel: stable-4.14}
ocm: {policies: [{version: 4.15.38, nextRunIn: 30min}]}
operator: {config: "configManager: {source: OCM}"}
`);
  assert.deepEqual(r.ok ? [] : r.problems, [
    '/ocm/policies/0/nextRunIn: time: unknown unit "min" in duration "30min"',
    '/operator/config: with ocm, configManager.ocmBaseUrl must be {{ ocmUrl }}',
  ]);
});

void test('the OCM actions need an ocm block', () => {
  const r = parseScenarioFile(`
description: OCM actions without OCM
cluster: {version: 4.14.30, channel: stable-4.14}
actions:
  - {name: reschedule, after: 5m, do: {ocmReschedule: {nextRunIn: 1h}}}
  - {name: cancel, after: 10m, do: {ocmCancel: true}}
`);
  assert.deepEqual(r.ok ? [] : r.problems, [
    '/actions/0/do/ocmReschedule: the scenario has no ocm',
    '/actions/1/do/ocmCancel: the scenario has no ocm',
  ]);
});

void test('a virtual start and Job rules are checked: RFC 3339, Go durations, regular expressions', () => {
  const good = parseScenarioFile(`
description: a rehearsal of next Tuesday's window with a failing hook Job
start: "2026-03-10T18:00:00Z"
cluster: {version: 4.14.30, channel: stable-4.15, jobs: [{match: {name: "-ack-", namespace: ns}, outcome: fail, after: 2m}]}
`);
  assert.ok(good.ok, good.ok ? '' : good.problems.join('; '));
  const bad = parseScenarioFile(`
description: broken
start: next tuesday
cluster: {version: 4.14.30, channel: stable-4.15, jobs: [{match: {name: "(unclosed"}, outcome: fail, after: 2 min}]}
`);
  assert.equal(bad.ok, false);
  const problems = bad.ok ? [] : bad.problems;
  assert.ok(problems.includes('/start: not an RFC 3339 time'), problems.join('; '));
  assert.ok(
    problems.some((p) => p.startsWith('/cluster/jobs/0/after: ')),
    problems.join('; '),
  );
  assert.ok(
    problems.some((p) => p.startsWith('/cluster/jobs/0/match/name: ')),
    problems.join('; '),
  );
});

void test('pool and patch actions: validated, then made as an administrator would (spec.paused; a merge patch found through discovery)', async () => {
  const ok = parseScenarioFile(`
description: pool actions
cluster: {version: 4.14.30, channel: stable-4.14}
actions:
  - {name: pause, do: {pausePool: worker}}
  - {name: unpause, after: 1h, do: {unpausePool: worker}}
  - {name: retarget, do: {patch: {apiVersion: upgrade.managed.openshift.io/v1alpha1, kind: UpgradeConfig, namespace: ns, name: managed-upgrade-config, merge: {spec: {upgradeAt: "{{ +1h }}"}}}}}
expect: {poolsUpdated: false}
`);
  assert.equal(ok.ok, true, ok.ok ? '' : ok.problems.join('\n'));
  const bad = parseScenarioFile(`
description: a patch without a name
cluster: {version: 4.14.30, channel: stable-4.14}
actions:
  - {name: retarget, do: {patch: {apiVersion: v1, kind: ConfigMap, merge: {}}}}
`);
  assert.ok(
    !bad.ok && bad.problems.some((p) => p.startsWith('/actions/0/do/patch')),
    bad.ok ? '' : bad.problems.join('\n'),
  );

  const calls: string[] = [];
  const client = {
    request: async () => ({
      resources: [
        { name: 'upgradeconfigs', kind: 'UpgradeConfig', namespaced: true },
        { name: 'upgradeconfigs/status', kind: 'UpgradeConfig', namespaced: true },
      ],
    }),
    patch: async (d: { plural: string }, ns: string | undefined, name: string, body: unknown, o: { type: string }) =>
      void calls.push(`patch ${d.plural} ${ns ?? ''}/${name} ${o.type} ${JSON.stringify(body)}`),
  };
  const mco = {
    pausePool: async (p: string) => void calls.push(`pause ${p}`),
    unpausePool: async (p: string) => void calls.push(`unpause ${p}`),
  };
  const target = {
    sim: { components: { machineConfigOperator: mco } },
    client,
    expand: (m: JsonObject) => expandTimes(m, 0, formatTime) as JsonObject,
  } as unknown as ActionTarget;
  const signal = new AbortController().signal;
  for (const a of ok.ok ? (ok.scenario.actions ?? []) : []) await performAction(a.do, target, signal);
  assert.deepEqual(calls, [
    'pause worker',
    'unpause worker',
    'patch upgradeconfigs ns/managed-upgrade-config merge {"spec":{"upgradeAt":"1970-01-01T01:00:00Z"}}',
  ]);
});

void test('API faults: the cluster block, the apiFaults and apiOutage actions, and their problems', () => {
  const ok = parseScenarioFile(`
description: faults for the operator
cluster:
  profile: single-node
  version: 4.14.30
  channel: stable-4.14
  apiOutageOnReboot: false
  apiFaults: {errorRate: 0.05, errors: [conflict, timeout], watchDisconnectEvery: 3m, watchResumeGone: 0.2, clients: "^upgrade-operator/"}
actions:
  - {name: calmer, after: 1h, do: {apiFaults: {errorRate: 0.01}}}
  - {name: none, after: 2h, do: {apiFaults: off}}
  - {name: down, after: 3h, do: {apiOutage: {for: 5m}}}
`);
  assert.ok(ok.ok, ok.ok ? '' : ok.problems.join('\n'));
  assert.deepEqual(apiFaultSettings(ok.scenario.cluster.apiFaults ?? {}), {
    errorRate: 0.05,
    errors: ['conflict', 'timeout'],
    watchDisconnectIntervalMs: 180_000,
    watchGoneRate: 0.2,
    clients: '^upgrade-operator/',
  });
  assert.deepEqual(apiFaultSettings({}), {});

  const bad = parseScenarioFile(`
description: bad faults
cluster:
  version: 4.14.30
  channel: stable-4.14
  apiOutageOnReboot: true
  apiFaults: {watchDisconnectEvery: 0s, clients: "(unclosed"}
actions:
  - {name: down, do: {apiOutage: {for: a while}}}
  - {name: odd, do: {apiFaults: {watchDisconnectEvery: 3x}}}
`);
  assert.deepEqual(bad.ok ? [] : bad.problems, [
    '/actions/0/do/apiOutage/for: time: invalid duration "a while"',
    '/actions/1/do/apiFaults/watchDisconnectEvery: time: unknown unit "x" in duration "3x"',
    '/cluster/apiFaults/watchDisconnectEvery: must be positive',
    '/cluster/apiFaults/clients: error parsing regexp: missing closing ): `(unclosed`',
    '/cluster/apiOutageOnReboot: only a single-node cluster loses its API server while its node reboots',
  ]);
  const range = parseScenarioFile(`
description: a rate above one
cluster: {version: 4.14.30, channel: stable-4.14, apiFaults: {errorRate: 1.5, errors: [teapot]}}
`);
  assert.equal(range.ok, false);
  assert.ok(
    !range.ok &&
      range.problems.some((p) => p.startsWith('/cluster/apiFaults/errorRate')) &&
      range.problems.some((p) => p.startsWith('/cluster/apiFaults/errors/0')),
    range.ok ? '' : range.problems.join('\n'),
  );
});

void test('a mistyped name is refused before the run, with its path and the closest known name', () => {
  const typos = parseScenarioFile(`
description: typos
cluster: {version: 4.14.30, channel: stable-4.15, profil: ha-cloud}
actions:
  - {name: a, when: {fase: Upgrading}, do: {stickOperatr: etcd}}
`);
  assert.deepEqual(typos.ok ? [] : typos.problems, [
    '/cluster: unknown key "profil" (did you mean "profile"?)',
    '/actions/0/when: unknown key "fase" (did you mean "phase"?)',
    '/actions/0/do: unknown key "stickOperatr" (did you mean "stickOperator"?)',
  ]);
  const names = parseScenarioFile(`
description: names
cluster: {version: 4.14.30, channel: stable-4.15}
operator: {config: "configManager: {source: LOCAL}"}
actions:
  - {name: a, when: {stepStarted: WorkerNodeUpgraded, phase: Upgrdaing}, do: {stickOperator: etcdd}}
  - {name: b, when: {jobCondition: PreHealthCheck}, do: {degradeOperator: {name: no-such-operator, reason: R, message: M}}}
expect: {phase: Upgraded, conditionTrue: [ControlPlaneUpgraded, FailUpgrade]}
`);
  assert.deepEqual(names.ok ? [] : names.problems, [
    '/actions/0/when/stepStarted: unknown step condition "WorkerNodeUpgraded" (did you mean "WorkerNodesUpgraded"?)',
    '/actions/0/when/phase: unknown phase "Upgrdaing" (did you mean "Upgrading"?)',
    '/actions/0/do/stickOperator: unknown ClusterOperator "etcdd" (did you mean "etcd"?)',
    '/actions/1/when/jobCondition: unknown UpgradeJob condition "PreHealthCheck" (did you mean "PreHealthCheckDone"?)',
    '/actions/1/do/degradeOperator/name: unknown ClusterOperator "no-such-operator"',
    '/expect/conditionTrue/1: unknown step condition "FailUpgrade" (did you mean "FailedUpgrade"?)',
  ]);
});

void test('cluster.nodes, machineSets, pools and alerts: accepted as snapshot writes them, refused with their paths otherwise', () => {
  const base = `description: d
cluster:
  version: 4.14.30
  channel: stable-4.14
`;
  const good = parseScenarioFile(`${base}  nodes:
    - {name: m0, role: master, zone: a, taints: [{key: k, effect: NoSchedule}]}
    - {name: w0, role: worker, zone: a, machineSet: ms, labels: {team: x}}
  machineSets: [{name: ms, role: worker, zone: a}]
  pools: [{name: worker, maxUnavailable: "25%", paused: true}]
  alerts: [{labels: {alertname: KubePodCrashLooping, namespace: shop}}]
snapshot: {takenAt: "2026-05-04T08:00:00Z", availableUpdates: [4.14.31], notes: [n]}
`);
  assert.ok(good.ok, good.ok ? '' : good.problems.join('\n'));
  const bad = parseScenarioFile(`${base}  workers: 2
  nodes: [{name: w0, role: worker, machineSet: gone}]
  alerts: [{labels: {severity: warning}}]
`);
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.ok ? [] : bad.problems, [
    '/cluster/nodes: not with workers or infraNodes (the list is every node)',
    '/cluster/nodes: at least one node of role master',
    '/cluster/nodes/0/machineSet: no MachineSet gone in /cluster/machineSets',
    '/cluster/alerts/0/labels: alertname is required',
  ]);
});
