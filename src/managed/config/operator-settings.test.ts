import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsUpgradeConfigName, defaultOperatorSettings, settingsFromEnv } from './operator-settings.js';

test('defaults are MUO namespace and CR name', () => {
  const { settings, problems } = settingsFromEnv({});
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, {
    namespace: 'openshift-managed-upgrade-operator',
    watchNamespace: 'openshift-managed-upgrade-operator',
    upgradeConfigNames: ['managed-upgrade-config'],
  });
  assert.deepEqual(defaultOperatorSettings(), settings);
  assert.equal(acceptsUpgradeConfigName(settings, 'managed-upgrade-config'), true);
  assert.equal(acceptsUpgradeConfigName(settings, 'other'), false);
});

test('WATCH_NAMESPACE falls back to OPERATOR_NAMESPACE, as in MUO', () => {
  assert.equal(settingsFromEnv({ OPERATOR_NAMESPACE: 'muo' }).settings.watchNamespace, 'muo');
  assert.equal(settingsFromEnv({ OPERATOR_NAMESPACE: 'muo', WATCH_NAMESPACE: '' }).settings.watchNamespace, 'muo');
  const both = settingsFromEnv({ OPERATOR_NAMESPACE: 'muo', WATCH_NAMESPACE: 'upgrades' }).settings;
  assert.deepEqual([both.namespace, both.watchNamespace], ['muo', 'upgrades']);
});

test('UPGRADE_CONFIG_NAMES lists names or * for any', () => {
  const some = settingsFromEnv({ UPGRADE_CONFIG_NAMES: 'a, b ,a,' }).settings;
  assert.deepEqual(some.upgradeConfigNames, ['a', 'b']);
  assert.equal(acceptsUpgradeConfigName(some, 'b'), true);
  assert.equal(acceptsUpgradeConfigName(some, 'managed-upgrade-config'), false);
  const any = settingsFromEnv({ UPGRADE_CONFIG_NAMES: '*' }).settings;
  assert.equal(acceptsUpgradeConfigName(any, 'whatever'), true);
});

test('invalid values are problems and take the default', () => {
  const { settings, problems } = settingsFromEnv({
    OPERATOR_NAMESPACE: 'Bad_NS',
    WATCH_NAMESPACE: 'x'.repeat(64),
    UPGRADE_CONFIG_NAMES: 'Bad Name',
  });
  assert.deepEqual(settings, defaultOperatorSettings());
  assert.deepEqual(
    problems.map((p) => [p.key, p.severity]),
    [
      ['OPERATOR_NAMESPACE', 'error'],
      ['WATCH_NAMESPACE', 'error'],
      ['UPGRADE_CONFIG_NAMES', 'error'],
      ['UPGRADE_CONFIG_NAMES', 'error'],
    ],
  );
  assert.match(
    problems[0]?.message ?? '',
    /must be a namespace name \(got "Bad_NS"\); using openshift-managed-upgrade-operator/,
  );
});
