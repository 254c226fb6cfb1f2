import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForApiFaults, triggerHolds } from './scenario-actions.js';
import { parseScenarioFile } from './scenario-file.js';
import { snapshot } from './scenario-progress.js';

void test('the progressing trigger holds while the ClusterVersion Progressing message contains the text', () => {
  const cv = (message: string): Parameters<typeof snapshot>[3] => ({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: 'id' },
    status: {
      desired: { version: '4.15.38', image: '' },
      observedGeneration: 1,
      versionHash: '',
      availableUpdates: null,
      conditions: [{ type: 'Progressing', status: 'True', message, lastTransitionTime: '2026-03-02T00:00:00Z' }],
    },
  });
  const at = (message: string): ReturnType<typeof snapshot> => snapshot(0, 0, undefined, cv(message), {});
  assert.equal(
    triggerHolds(
      { progressing: 'console' },
      at('Working towards 4.15.38: 640 of 883 done (72% complete), waiting on authentication, console'),
      undefined,
    ),
    true,
  );
  assert.equal(
    triggerHolds(
      { progressing: 'Unable to apply' },
      at('Working towards 4.15.38: 640 of 883 done (72% complete), waiting up to 40 minutes on console'),
      undefined,
    ),
    false,
  );
});

void test('restartClusterVersionOperator and the progressing trigger are valid scenario file fields', () => {
  const file = [
    'description: d',
    'cluster: {version: 4.14.30, channel: stable-4.14}',
    'actions:',
    '  - {name: restart, when: {progressing: waiting up to 40 minutes}, do: {restartClusterVersionOperator: true}}',
  ].join('\n');
  const parsed = parseScenarioFile(file);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problems.join('\n'));
  assert.equal(parseScenarioFile(file.replace('true}}', 'false}}')).ok, false);
});

void test('silence and patch of a status subresource are valid scenario file fields; bad silence times are refused', () => {
  const file = [
    'description: d',
    'cluster: {version: 4.14.30, channel: stable-4.14}',
    'actions:',
    '  - name: an old silence',
    '    do:',
    '      silence:',
    '        createdBy: managed-upgrade-operator',
    '        comment: c',
    '        matchers: [{name: severity, value: "(warning|info)", isRegex: true}]',
    '        endsAt: "{{ +90m }}"',
    '  - name: an old status',
    '    do: {patch: {apiVersion: v1, kind: K, name: n, subresource: status, merge: {status: {}}}}',
  ].join('\n');
  const parsed = parseScenarioFile(file);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problems.join('\n'));
  const bad = parseScenarioFile(file.replace('"{{ +90m }}"', 'tomorrow'));
  assert.deepEqual(bad.ok ? [] : bad.problems, [
    '/actions/0/do/silence/endsAt: neither {{ +<duration> }} nor an RFC 3339 time',
  ]);
  assert.equal(parseScenarioFile(file.replace('subresource: status', 'subresource: scale')).ok, false);
});

void test('a file asks for API faults by its cluster block, an explicit reboot outage or an action; single-node alone does not', () => {
  const asks = (yaml: string): boolean => {
    const parsed = parseScenarioFile(`description: d\ncluster: {version: 4.14.30, channel: stable-4.14${yaml}}\n`);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.problems.join('; '));
    return asksForApiFaults(parsed.scenario);
  };
  assert.equal(asks(''), false);
  assert.equal(asks(', profile: single-node'), false, 'the single-node default outage is dropped, not asked for');
  assert.equal(asks(', profile: single-node, apiOutageOnReboot: true'), true);
  assert.equal(asks(', apiFaults: {errorRate: 0.05, clients: "^upgrade-operator/"}'), true);
  const withAction = parseScenarioFile(
    'description: d\ncluster: {version: 4.14.30, channel: stable-4.14}\nactions:\n  - {name: flaky, after: 5m, do: {apiFaults: {errorRate: 0.1}}}\n',
  );
  assert.ok(withAction.ok, withAction.ok ? '' : withAction.problems.join('; '));
  assert.equal(asksForApiFaults(withAction.scenario), true);
});
