import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import {
  defaultManagedOperatorConfig,
  isFeatureGateEnabled,
  parseManagedOperatorConfig,
  usesOcmAgent,
  type ManagedOperatorConfig,
} from './managed-operator-config.js';
import type { ConfigProblem } from './config-problem.js';
import { formatConfigProblems } from './config-problem.js';

const MIN = 60_000;

/** MUO's sample ConfigMap (test/deploy/managed-upgrade-operator-config.yaml), reworded. */
const SAMPLE = `
upgradeType: OSD
configManager:
  source: LOCAL
  localConfigName: managed-upgrade-config
  watchInterval: 60
maintenance:
  controlPlaneTime: 90
  ignoredAlerts:
    controlPlaneCriticals:
    - etcdMembersDown
    - ClusterOperatorDown
scale:
  timeOut: 30
upgradeWindow:
  delayTrigger: 30
  timeOut: 120
nodeDrain:
  timeOut: 45
  expectedNodeDrainTime: 8
healthCheck:
  ignoredCriticals:
  - DNSErrors05MinSRE
  ignoredNamespaces:
  - openshift-logging
environment:
  fedramp: false
`;

function parse(text: string | undefined): { config: ManagedOperatorConfig; problems: ConfigProblem[] } {
  return parseManagedOperatorConfig(text);
}

/** Problems other than the "not set" warnings of the keys MUO requires. */
function unexpected(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return problems.filter((p) => !p.message.startsWith('not set;'));
}

function problemFor(problems: readonly ConfigProblem[], key: string): ConfigProblem {
  const p = problems.find((x) => x.key === key);
  assert.ok(p, `expected a problem for ${key}, got ${formatConfigProblems(problems)}`);
  return p;
}

test('a complete MUO ConfigMap parses without problems', () => {
  const { config, problems } = parse(SAMPLE);
  assert.deepEqual(problems, []);
  assert.equal(config.upgradeType, 'OSD');
  assert.deepEqual(config.configManager, {
    source: 'LOCAL',
    ocmBaseUrl: undefined,
    localConfigName: 'managed-upgrade-config',
    watchIntervalMs: 60 * MIN,
  });
  assert.equal(config.maintenance.controlPlaneTimeMs, 90 * MIN);
  assert.deepEqual(config.maintenance.ignoredAlerts.controlPlaneCriticals, ['etcdMembersDown', 'ClusterOperatorDown']);
  assert.equal(config.scale.timeOutMs, 30 * MIN);
  assert.deepEqual(config.upgradeWindow, { timeOutMs: 120 * MIN, delayTriggerMs: 30 * MIN });
  assert.equal(config.nodeDrain.timeOutMs, 45 * MIN);
  assert.equal(config.nodeDrain.expectedNodeDrainTimeMs, 8 * MIN);
  assert.deepEqual(config.healthCheck, {
    ignoredCriticals: ['DNSErrors05MinSRE'],
    ignoredNamespaces: ['openshift-logging'],
  });
  assert.equal(config.environment.fedramp, false);
});

test('documented defaults are applied to an empty configuration', () => {
  const { config, problems } = parse('{}');
  assert.deepEqual(config.upgradeWindow, { timeOutMs: 120 * MIN, delayTriggerMs: 30 * MIN });
  assert.equal(config.maintenance.controlPlaneTimeMs, 90 * MIN);
  assert.equal(config.scale.timeOutMs, 30 * MIN);
  assert.equal(config.nodeDrain.timeOutMs, 45 * MIN);
  assert.equal(config.nodeDrain.expectedNodeDrainTimeMs, 8 * MIN);
  assert.equal(config.nodeDrain.disableDrainStrategies, false);
  assert.equal(config.extDependencyAvailabilityChecks.http.timeoutMs, 15_000);
  assert.deepEqual(config.extDependencyAvailabilityChecks.http.urls, []);
  assert.equal(config.configManager.watchIntervalMs, 60 * MIN);
  assert.equal(config.configManager.source, undefined);
  assert.equal(config.configManager.localConfigName, 'managed-upgrade-config');
  assert.equal(config.upgradeType, 'ARO');
  assert.equal(config.validation.cincinnati, false);
  assert.equal(config.conditionalUpdates.requireRiskAcceptance, false, 'MUO commences any conditional update');
  assert.deepEqual(config.featureGate.enabled, []);
  assert.deepEqual(config.scale.extraMachinePools, []);
  // The keys MUO cannot run without are reported, as warnings, with the default used.
  assert.deepEqual(
    problems.map((p) => [p.key, p.severity, p.message]),
    [
      ['maintenance.controlPlaneTime', 'warning', 'not set; using the default 90'],
      ['scale.timeOut', 'warning', 'not set; using the default 30'],
      ['nodeDrain.timeOut', 'warning', 'not set; using the default 45'],
      ['nodeDrain.expectedNodeDrainTime', 'warning', 'not set; using the default 8'],
    ],
  );
  assert.deepEqual(defaultManagedOperatorConfig(), config);
});

test('missing, empty, unparsable or non-mapping text gives the defaults and one problem', () => {
  const defaults = defaultManagedOperatorConfig();
  for (const [text, severity] of [
    [undefined, 'warning'],
    ['', 'warning'],
    ['  \n', 'warning'],
    ['# only a comment\n', 'warning'],
    ['a: [', 'error'],
    ['a: 1\na: 2', 'error'],
    ['- 1\n- 2', 'error'],
    ['just a string', 'error'],
    // These threw out of the parser before: an alias with no anchor, and too many aliases.
    ['upgradeType: *missing', 'error'],
    [`a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}*a]\nc: [${'*b, '.repeat(9)}*b]`, 'error'],
  ] as const) {
    const { config, problems } = parse(text);
    assert.equal(problems.length, 1, `${JSON.stringify(text)}: ${formatConfigProblems(problems)}`);
    assert.equal(problems[0]?.key, 'config.yaml');
    assert.equal(problems[0]?.severity, severity);
    assert.deepEqual(config, defaults);
  }
});

test('bad durations are problems and fall back to their defaults', () => {
  const table: [yaml: string, key: string, message: string][] = [
    ['nodeDrain: {timeOut: 0}', 'nodeDrain.timeOut', 'must be a positive number of minutes; using the default 45'],
    ['nodeDrain: {timeOut: -5}', 'nodeDrain.timeOut', 'must be a positive number of minutes; using the default 45'],
    [
      'nodeDrain: {timeOut: "45"}',
      'nodeDrain.timeOut',
      'must be a positive number of minutes (got the string "45"); using the default 45',
    ],
    ['nodeDrain: {timeOut: [45]}', 'nodeDrain.timeOut', 'must be a positive number of minutes; using the default 45'],
    [
      'nodeDrain: {expectedNodeDrainTime: 0}',
      'nodeDrain.expectedNodeDrainTime',
      'must be a positive number of minutes; using the default 8',
    ],
    [
      'maintenance: {controlPlaneTime: 0}',
      'maintenance.controlPlaneTime',
      'must be a positive number of minutes; using the default 90',
    ],
    ['scale: {timeOut: yes}', 'scale.timeOut', 'must be a positive number of minutes; using the default 30'],
    [
      'upgradeWindow: {timeOut: -1}',
      'upgradeWindow.timeOut',
      'must be a non-negative number of minutes; using the default 120',
    ],
    [
      'upgradeWindow: {delayTrigger: "x"}',
      'upgradeWindow.delayTrigger',
      'must be a non-negative number of minutes (got the string "x"); using the default 30',
    ],
    [
      'configManager: {watchInterval: 0}',
      'configManager.watchInterval',
      'must be a positive number of minutes; using the default 60',
    ],
  ];
  const d = defaultManagedOperatorConfig();
  for (const [yaml, key, message] of table) {
    const { config, problems } = parse(yaml);
    const p = problemFor(problems, key);
    assert.equal(p.message, message, yaml);
    assert.equal(p.severity, 'error', yaml);
    assert.deepEqual(
      [
        config.nodeDrain.timeOutMs,
        config.nodeDrain.expectedNodeDrainTimeMs,
        config.maintenance.controlPlaneTimeMs,
        config.scale.timeOutMs,
        config.upgradeWindow,
        config.configManager.watchIntervalMs,
      ],
      [
        d.nodeDrain.timeOutMs,
        d.nodeDrain.expectedNodeDrainTimeMs,
        d.maintenance.controlPlaneTimeMs,
        d.scale.timeOutMs,
        d.upgradeWindow,
        d.configManager.watchIntervalMs,
      ],
      yaml,
    );
  }
});

test('zero is a valid upgrade window: never fail, never delayed', () => {
  const { config, problems } = parse('upgradeWindow: {timeOut: 0, delayTrigger: 0}');
  assert.equal(problems.filter((p) => p.key.startsWith('upgradeWindow')).length, 0);
  assert.deepEqual(config.upgradeWindow, { timeOutMs: 0, delayTriggerMs: 0 });
});

test('YAML 1.1 scalars are read as go-yaml v2 reads them', () => {
  const { config, problems } = parse(
    [
      'nodeDrain:',
      '  timeOut: 0x2d',
      '  expectedNodeDrainTime: 010',
      '  disableDrainStrategies: yes',
      'validation: {cincinnati: on}',
      'environment: {fedramp: off}',
      'scale: {timeOut: 1.5}',
    ].join('\n'),
  );
  assert.deepEqual(unexpected(problems), []);
  assert.equal(config.nodeDrain.timeOutMs, 45 * MIN);
  assert.equal(config.nodeDrain.expectedNodeDrainTimeMs, 8 * MIN);
  assert.equal(config.nodeDrain.disableDrainStrategies, true);
  assert.equal(config.validation.cincinnati, true);
  assert.equal(config.environment.fedramp, false);
  assert.equal(config.scale.timeOutMs, 90_000);
});

test('booleans must be booleans', () => {
  const { config, problems } = parse('validation: {cincinnati: "true"}\nnodeDrain: {disableDrainStrategies: 1}');
  assert.equal(problemFor(problems, 'validation.cincinnati').message, 'must be true or false; using the default false');
  assert.equal(problemFor(problems, 'nodeDrain.disableDrainStrategies').severity, 'error');
  assert.equal(config.validation.cincinnati, false);
  assert.equal(config.nodeDrain.disableDrainStrategies, false);
});

test('conditionalUpdates.requireRiskAcceptance: a boolean, off by default; a bad value or a misspelt key is reported', () => {
  assert.equal(
    parse('conditionalUpdates: {requireRiskAcceptance: true}').config.conditionalUpdates.requireRiskAcceptance,
    true,
  );
  assert.equal(
    parse('conditionalUpdates: {requireRiskAcceptance: yes}').config.conditionalUpdates.requireRiskAcceptance,
    true,
  );
  assert.deepEqual(unexpected(parse('conditionalUpdates:\n  requireRiskAcceptance: false').problems), []);
  const bad = parse('conditionalUpdates: {requireRiskAcceptance: "true"}');
  assert.equal(bad.config.conditionalUpdates.requireRiskAcceptance, false);
  assert.equal(
    problemFor(bad.problems, 'conditionalUpdates.requireRiskAcceptance').message,
    'must be true or false; using the default false',
  );
  const misspelt = parse('conditionalUpdates: {requireRiskacceptance: true}');
  assert.equal(misspelt.config.conditionalUpdates.requireRiskAcceptance, false);
  assert.equal(
    problemFor(misspelt.problems, 'conditionalUpdates.requireRiskacceptance').message,
    'unknown key (ignored); did you mean requireRiskAcceptance?',
  );
});

test('upgradeType: OSD, ARO or empty', () => {
  assert.equal(parse('upgradeType: ARO').config.upgradeType, 'ARO');
  assert.equal(parse('upgradeType: ""').config.upgradeType, 'ARO');
  const bad = parse('upgradeType: osd');
  assert.equal(bad.config.upgradeType, 'ARO');
  assert.equal(
    problemFor(bad.problems, 'upgradeType').message,
    'must be OSD or ARO (got "osd"); using the default ARO',
  );
});

test('configManager.source is OCM or LOCAL, case-insensitive', () => {
  assert.equal(
    parse('configManager: {source: ocm, ocmBaseUrl: "https://api.openshift.com"}').config.configManager.source,
    'OCM',
  );
  assert.equal(parse('configManager: {source: Local}').config.configManager.source, 'LOCAL');
  const bad = parse('configManager: {source: OCN}');
  assert.equal(bad.config.configManager.source, undefined);
  assert.equal(problemFor(bad.problems, 'configManager.source').severity, 'error');
  assert.match(problemFor(bad.problems, 'configManager.source').message, /must be OCM or LOCAL \(got "OCN"\)/);
});

test('configManager.ocmBaseUrl must parse; the OCM Agent is recognised', () => {
  const ok = parse(
    'configManager: {source: OCM, ocmBaseUrl: "http://ocm-agent.openshift-ocm-agent-operator.svc.cluster.local:8081"}',
  );
  assert.deepEqual(unexpected(ok.problems), []);
  assert.equal(usesOcmAgent(ok.config), true);
  assert.equal(
    usesOcmAgent(parse('configManager: {source: OCM, ocmBaseUrl: "https://api.openshift.com"}').config),
    false,
  );
  const bad = parse('configManager: {source: OCM, ocmBaseUrl: "not a url"}');
  assert.equal(bad.config.configManager.ocmBaseUrl, undefined);
  assert.match(problemFor(bad.problems, 'configManager.ocmBaseUrl').message, /must be an http or https URL/);
  const missing = parse('configManager: {source: OCM}');
  assert.match(problemFor(missing.problems, 'configManager.ocmBaseUrl').message, /must be set when source is OCM/);
});

test('configManager.localConfigName must be an object name', () => {
  assert.equal(
    parse('configManager: {source: LOCAL, localConfigName: my-upgrade}').config.configManager.localConfigName,
    'my-upgrade',
  );
  const bad = parse('configManager: {source: LOCAL, localConfigName: My_Upgrade}');
  assert.equal(bad.config.configManager.localConfigName, 'managed-upgrade-config');
  assert.equal(problemFor(bad.problems, 'configManager.localConfigName').severity, 'error');
  const missing = parse('configManager: {source: LOCAL}');
  assert.equal(problemFor(missing.problems, 'configManager.localConfigName').severity, 'warning');
});

test('scale.extraMachinePools: bad globs are dropped and reported', () => {
  const { config, problems } = parse(
    'scale:\n  timeOut: 30\n  extraMachinePools: ["non-serving-*", "pool-[", "infra", {a: 1}]',
  );
  assert.deepEqual(config.scale.extraMachinePools, ['non-serving-*', 'infra']);
  assert.equal(problemFor(problems, 'scale.extraMachinePools[1]').message, 'syntax error in pattern "pool-["; dropped');
  assert.equal(problemFor(problems, 'scale.extraMachinePools[3]').message, 'must be a string; dropped');
  const scalar = parse('scale: {timeOut: 30, extraMachinePools: "non-serving-*"}');
  assert.equal(problemFor(scalar.problems, 'scale.extraMachinePools').message, 'must be a list; using an empty list');
});

test('nodeDrain.ignoredNamespacePatterns: Go regexes, unanchored; bad ones dropped, never a panic', () => {
  const { config, problems } = parse(
    'nodeDrain:\n  ignoredNamespacePatterns: ["^openshift-.*", "(a)\\\\1", "redhat-", "foo(?=bar)", "[unclosed"]',
  );
  assert.equal(config.nodeDrain.ignoredNamespacePatterns.length, 2);
  const matches = (ns: string): boolean => config.nodeDrain.ignoredNamespacePatterns.some((r) => r.test(ns));
  assert.equal(matches('openshift-monitoring'), true);
  assert.equal(matches('my-redhat-ns'), true);
  assert.equal(matches('default'), false);
  // Go's own words, as MUO's regexp.Compile would give them.
  assert.match(
    problemFor(problems, 'nodeDrain.ignoredNamespacePatterns[1]').message,
    /error parsing regexp: invalid escape sequence: `\\1`; dropped$/,
  );
  assert.match(
    problemFor(problems, 'nodeDrain.ignoredNamespacePatterns[3]').message,
    /invalid or unsupported Perl syntax: `\(\?=`/,
  );
  assert.match(problemFor(problems, 'nodeDrain.ignoredNamespacePatterns[4]').message, /missing closing \]/);
});

test('HTTP check timeout: 1..60 s only when URLs are set', () => {
  const noUrls = parse('extDependencyAvailabilityChecks: {http: {timeout: 120}}');
  assert.deepEqual(
    noUrls.problems.filter((p) => p.key.startsWith('ext')),
    [],
  );
  assert.equal(noUrls.config.extDependencyAvailabilityChecks.http.timeoutMs, 120_000);
  const ok = parse('extDependencyAvailabilityChecks: {http: {timeout: 10, urls: ["https://api.openshift.com"]}}');
  assert.deepEqual(ok.config.extDependencyAvailabilityChecks.http, {
    timeoutMs: 10_000,
    urls: ['https://api.openshift.com'],
  });
  for (const t of ['0', '61', '"10"']) {
    const bad = parse(`extDependencyAvailabilityChecks: {http: {timeout: ${t}, urls: ["https://a.example"]}}`);
    assert.equal(bad.config.extDependencyAvailabilityChecks.http.timeoutMs, 15_000, t);
    assert.equal(problemFor(bad.problems, 'extDependencyAvailabilityChecks.http.timeout').severity, 'error');
  }
  const badUrl = parse('extDependencyAvailabilityChecks: {http: {urls: ["ftp://x", "https://ok.example"]}}');
  assert.deepEqual(badUrl.config.extDependencyAvailabilityChecks.http.urls, ['https://ok.example']);
  assert.match(
    problemFor(badUrl.problems, 'extDependencyAvailabilityChecks.http.urls[0]').message,
    /http or https URL; dropped/,
  );
});

test('feature gates: known ones enabled, unknown ones reported', () => {
  const { config, problems } = parse(
    'featureGate:\n  enabled: [PreHealthCheck, preHealthCheck, ServiceLogNotification, PreHealthCheck]',
  );
  assert.deepEqual(config.featureGate.enabled, ['PreHealthCheck', 'ServiceLogNotification']);
  assert.equal(isFeatureGateEnabled(config, 'PreHealthCheck'), true);
  const p = problemFor(problems, 'featureGate.enabled');
  assert.equal(p.severity, 'warning');
  assert.match(p.message, /unknown feature gate "preHealthCheck"/);
  assert.equal(isFeatureGateEnabled(parse('{}').config, 'ServiceLogNotification'), false);
});

test('unknown keys are warnings, with a hint for a wrong case', () => {
  const { problems } = parse(
    'upgradeWindows: {}\nnodeDrain: {timeout: 30, timeOut: 30, expectedNodeDrainTime: 8}\nscale: {timeOut: 30}\nmaintenance: {controlPlaneTime: 90}',
  );
  assert.deepEqual(problems, [
    { key: 'upgradeWindows', message: 'unknown key (ignored)', severity: 'warning' },
    { key: 'nodeDrain.timeout', message: 'unknown key (ignored); did you mean timeOut?', severity: 'warning' },
  ]);
});

test('a section that is not a mapping is a problem, its keys take defaults', () => {
  const { config, problems } = parse('nodeDrain: 45');
  assert.equal(problemFor(problems, 'nodeDrain').severity, 'error');
  assert.equal(config.nodeDrain.timeOutMs, 45 * MIN);
});

test('string lists accept scalars as their text, as go-yaml does; null is an empty value', () => {
  const { config, problems } = parse(
    'healthCheck:\n  ignoredNamespaces: [123, ns-a]\n  ignoredCriticals: ~\nfeatureGate: ~',
  );
  assert.deepEqual(config.healthCheck, { ignoredCriticals: [], ignoredNamespaces: ['123', 'ns-a'] });
  assert.deepEqual(
    problems.filter((p) => p.key.startsWith('healthCheck') || p.key.startsWith('featureGate')),
    [],
  );
});

test('aliases and merge keys work (YAML 1.1)', () => {
  const { config } = parse(
    'base: &d {timeOut: 50, expectedNodeDrainTime: 9}\nnodeDrain:\n  <<: *d\n  disableDrainStrategies: true',
  );
  assert.equal(config.nodeDrain.timeOutMs, 50 * MIN);
  assert.equal(config.nodeDrain.expectedNodeDrainTimeMs, 9 * MIN);
});

// Property-based: whatever the ConfigMap holds, parsing never throws, every setting is usable
// (durations finite and not negative, lists of strings) and every problem names its key and says why.
const NEAR_KNOWN_KEY = fc.constantFrom(
  'upgradeType',
  'configManager',
  'source',
  'ocmBaseUrl',
  'localConfigName',
  'watchInterval',
  'upgradeWindow',
  'timeOut',
  'delayTrigger',
  'maintenance',
  'controlPlaneTime',
  'ignoredAlerts',
  'controlPlaneCriticals',
  'scale',
  'extraMachinePools',
  'nodeDrain',
  'expectedNodeDrainTime',
  'disableDrainStrategies',
  'ignoredNamespacePatterns',
  'healthCheck',
  'ignoredCriticals',
  'extDependencyAvailabilityChecks',
  'http',
  'urls',
  'validation',
  'cincinnati',
  'conditionalUpdates',
  'requireRiskAcceptance',
  'featureGate',
  'enabled',
  'environment',
  'fedramp',
);
const scalarValue = fc.oneof(
  fc.constantFrom('OSD', 'ARO', 'OCM', 'LOCAL', '(a+)+$', '[', '*', '-1', '1e309', 'https://api.example.com', 'true'),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarValue,
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.dictionary(NEAR_KEY_OR_ANY(), tie('tree'), { maxKeys: 4 }),
  ),
}));
function NEAR_KEY_OR_ANY(): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: NEAR_KNOWN_KEY, weight: 4 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 });
}
const configText = fc.oneof(
  { arbitrary: tree.map((value) => stringify(value)), weight: 4 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
);

test('any config.yaml: parsing never throws, every setting is usable, every problem says which key and why', () => {
  const defaults = defaultManagedOperatorConfig();
  fc.assert(
    fc.property(configText, (text) => {
      const { config, problems } = parseManagedOperatorConfig(text);
      assert.deepEqual(Object.keys(config).sort(), Object.keys(defaults).sort());
      for (const ms of [
        config.configManager.watchIntervalMs,
        config.upgradeWindow.timeOutMs,
        config.upgradeWindow.delayTriggerMs,
        config.maintenance.controlPlaneTimeMs,
        config.scale.timeOutMs,
        config.nodeDrain.timeOutMs,
        config.nodeDrain.expectedNodeDrainTimeMs,
        config.extDependencyAvailabilityChecks.http.timeoutMs,
      ]) {
        assert.ok(Number.isFinite(ms) && ms >= 0, `duration ${ms} from ${JSON.stringify(text)}`);
      }
      for (const list of [
        config.scale.extraMachinePools,
        config.healthCheck.ignoredCriticals,
        config.healthCheck.ignoredNamespaces,
        config.maintenance.ignoredAlerts.controlPlaneCriticals,
        config.extDependencyAvailabilityChecks.http.urls,
      ]) {
        assert.ok(
          list.every((s) => typeof s === 'string'),
          JSON.stringify(list),
        );
      }
      assert.ok(['OSD', 'ARO'].includes(config.upgradeType), config.upgradeType);
      for (const problem of problems) {
        assert.ok(problem.key.length > 0 && problem.message.length > 0, JSON.stringify(problem));
      }
    }),
    { numRuns: 500 },
  );
});
