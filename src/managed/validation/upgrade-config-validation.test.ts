import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import {
  currentClusterVersion,
  isValidationFailure,
  validateUpgradeConfig,
  type GraphQuery,
  type GraphUpdates,
  type ValidationDeps,
  type ValidationResult,
} from './upgrade-config-validation.js';

const CLUSTER_ID = '9b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
const IMAGE = `quay.io/openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)}`;

function upgradeConfig(
  desired: { version?: string; channel?: string; image?: string },
  upgradeAt = '2030-01-01T10:00:00Z',
): ManagedUpgradeConfig {
  return {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: 'managed-upgrade-config', namespace: 'openshift-managed-upgrade-operator' },
    spec: { desired, upgradeAt, PDBForceDrainTimeout: 60, type: 'OSD' },
  };
}

interface CvOptions {
  channel?: string;
  clusterID?: string;
  upstream?: string;
  history?: { version: string; state: 'Completed' | 'Partial'; completionTime: string | null }[];
  available?: string[];
  conditional?: string[];
}

function clusterVersion(o: CvOptions = {}): ClusterVersion {
  const history = o.history ?? [
    { version: '4.15.3', state: 'Completed', completionTime: '2029-06-01T00:00:00Z' },
    { version: '4.14.20', state: 'Completed', completionTime: '2029-01-01T00:00:00Z' },
  ];
  const release = (version: string): { version: string; image: string } => ({
    version,
    image: `quay.io/x/y@sha256:${version}`,
  });
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: {
      clusterID: o.clusterID ?? CLUSTER_ID,
      channel: o.channel ?? 'stable-4.15',
      ...(o.upstream === undefined ? {} : { upstream: o.upstream }),
    },
    status: {
      desired: release(history[0]?.version ?? '4.15.3'),
      history: history.map((h) => ({ ...h, startedTime: '2029-01-01T00:00:00Z', image: 'img', verified: true })),
      observedGeneration: 1,
      versionHash: 'x',
      availableUpdates: (o.available ?? ['4.15.5', '4.15.4']).map(release),
      conditionalUpdates: (o.conditional ?? ['4.15.6']).map((v) => ({ release: release(v), risks: [] })),
    },
  };
}

/** Stub look-ups that record their calls. */
function stubs(
  options: { graph?: GraphUpdates | Error; image?: string | Error } = {},
): ValidationDeps & { graphCalls: GraphQuery[]; imageCalls: string[] } {
  const graphCalls: GraphQuery[] = [];
  const imageCalls: string[] = [];
  return {
    graphCalls,
    imageCalls,
    async fetchGraph(q) {
      graphCalls.push(q);
      const g = options.graph ?? { updates: ['4.16.2', '4.16.1'], conditionalUpdates: ['4.16.3'] };
      if (g instanceof Error) throw g;
      return g;
    },
    async releaseVersionOfImage(image) {
      imageCalls.push(image);
      const v = options.image ?? '4.15.5';
      if (v instanceof Error) throw v;
      return v;
    },
  };
}

type Expect = Pick<ValidationResult, 'valid' | 'availableUpdate' | 'reason' | 'message'> & {
  transient?: boolean;
  resolvedVersion?: string;
};

interface Case {
  name: string;
  desired: { version?: string; channel?: string; image?: string };
  upgradeAt?: string;
  cv?: CvOptions;
  cincinnati?: boolean;
  deps?: { graph?: GraphUpdates | Error; image?: string | Error };
  expect: Expect;
}

const ok = (extra: Partial<Expect> = {}): Expect => ({
  valid: true,
  availableUpdate: true,
  reason: 'Valid',
  message: 'Upgrade config is valid',
  ...extra,
});
const bad = (reason: Expect['reason'], message: string, extra: Partial<Expect> = {}): Expect => ({
  valid: false,
  availableUpdate: false,
  reason,
  message,
  ...extra,
});

const cases: Case[] = [
  // 1. upgradeAt
  {
    name: 'unparsable upgradeAt',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    upgradeAt: 'tomorrow',
    expect: bad('InvalidUpgradeAt', 'Failed to parse upgradeAt:tomorrow during validation'),
  },
  {
    name: 'upgradeAt without a zone',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    upgradeAt: '2030-01-01T10:00:00',
    expect: bad('InvalidUpgradeAt', 'Failed to parse upgradeAt:2030-01-01T10:00:00 during validation'),
  },
  {
    name: 'upgradeAt with an offset',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    upgradeAt: '2030-01-01T10:00:00.5+02:00',
    expect: ok(),
  },
  // 3. nothing to upgrade to
  {
    name: 'neither image nor version nor channel',
    desired: {},
    expect: bad(
      'MissingTarget',
      'Not able to validate the upgrade config, either image or (channel + version) needs to be provided',
    ),
  },
  {
    name: 'version without channel',
    desired: { version: '4.15.5' },
    expect: bad(
      'MissingTarget',
      'Not able to validate the upgrade config, either image or (channel + version) needs to be provided',
    ),
  },
  {
    name: 'channel without version',
    desired: { channel: 'stable-4.15' },
    expect: bad(
      'MissingTarget',
      'Not able to validate the upgrade config, either image or (channel + version) needs to be provided',
    ),
  },
  // 4. semver
  {
    name: 'v prefix is not strict semver',
    desired: { version: 'v4.15.5', channel: 'stable-4.15' },
    expect: { ...bad('InvalidVersion', ''), message: '' },
  },
  {
    name: 'leading zero is not strict semver',
    desired: { version: '4.015.5', channel: 'stable-4.15' },
    expect: { ...bad('InvalidVersion', ''), message: '' },
  },
  {
    name: 'two-part version',
    desired: { version: '4.15', channel: 'stable-4.15' },
    expect: { ...bad('InvalidVersion', ''), message: '' },
  },
  {
    name: 'downgrade',
    desired: { version: '4.14.30', channel: 'stable-4.15' },
    expect: {
      valid: true,
      availableUpdate: false,
      reason: 'Downgrade',
      message: 'downgrades to desired version 4.14.30 from 4.15.3 are unsupported',
    },
  },
  {
    name: 'same version',
    desired: { version: '4.15.3', channel: 'stable-4.15' },
    expect: {
      valid: true,
      availableUpdate: false,
      reason: 'SameVersion',
      message: 'desired version 4.15.3 matches the current version 4.15.3',
    },
  },
  {
    name: 'prerelease of the current version is a downgrade',
    desired: { version: '4.15.3-rc.1', channel: 'stable-4.15' },
    expect: {
      valid: true,
      availableUpdate: false,
      reason: 'Downgrade',
      message: 'downgrades to desired version 4.15.3-rc.1 from 4.15.3 are unsupported',
    },
  },
  {
    name: 'current version is the newest completed entry by completion time, not list order',
    desired: { version: '4.15.4', channel: 'stable-4.15' },
    cv: {
      history: [
        { version: '4.15.9', state: 'Partial', completionTime: null },
        { version: '4.14.20', state: 'Completed', completionTime: '2029-01-01T00:00:00Z' },
        { version: '4.15.4', state: 'Completed', completionTime: '2029-06-01T00:00:00Z' },
      ],
      available: ['4.15.4'],
    },
    expect: {
      valid: true,
      availableUpdate: false,
      reason: 'SameVersion',
      message: 'desired version 4.15.4 matches the current version 4.15.4',
    },
  },
  {
    name: 'no completed update in history',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    cv: { history: [{ version: '4.15.3', state: 'Partial', completionTime: null }] },
    expect: bad(
      'UnknownCurrentVersion',
      'failed to get current cluster version during validation: no completed update in the clusterversion history',
      { transient: true },
    ),
  },
  {
    name: 'current version not semver',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    cv: { history: [{ version: '4.15', state: 'Completed', completionTime: '2029-01-01T00:00:00Z' }] },
    expect: { ...bad('InvalidCurrentVersion', ''), message: '' },
  },
  // 6. same channel: CVO must list the version
  { name: 'same channel, in available updates', desired: { version: '4.15.5', channel: 'stable-4.15' }, expect: ok() },
  {
    name: 'same channel, only a conditional update',
    desired: { version: '4.15.6', channel: 'stable-4.15' },
    expect: ok(),
  },
  {
    name: 'same channel, not listed',
    desired: { version: '4.15.7', channel: 'stable-4.15' },
    expect: bad(
      'NotInAvailableUpdates',
      'version 4.15.7 not found in clusterversion available or conditional updates',
      { transient: true },
    ),
  },
  {
    name: 'same channel, no available updates at all',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    cv: { available: [], conditional: [] },
    expect: bad(
      'NotInAvailableUpdates',
      'version 4.15.5 not found in clusterversion available or conditional updates',
      { transient: true },
    ),
  },
  {
    name: 'same channel, cincinnati on: no graph query',
    desired: { version: '4.15.5', channel: 'stable-4.15' },
    cincinnati: true,
    expect: ok(),
  },
  // 7. channel change, cincinnati off
  {
    name: 'channel change, cincinnati off: valid without availability check',
    desired: { version: '4.16.9', channel: 'stable-4.16' },
    expect: ok(),
  },
  // 5. channel change, cincinnati on
  {
    name: 'channel change, in the graph',
    desired: { version: '4.16.2', channel: 'stable-4.16' },
    cincinnati: true,
    expect: ok(),
  },
  {
    name: 'channel change, conditional edge in the graph',
    desired: { version: '4.16.3', channel: 'stable-4.16' },
    cincinnati: true,
    expect: ok(),
  },
  {
    name: 'channel change, not in the graph',
    desired: { version: '4.16.9', channel: 'stable-4.16' },
    cincinnati: true,
    expect: bad('NotInUpdateGraph', 'cannot find version 4.16.9 in available updates', { transient: true }),
  },
  {
    name: 'channel change, empty graph',
    desired: { version: '4.16.2', channel: 'stable-4.16' },
    cincinnati: true,
    deps: { graph: { updates: [], conditionalUpdates: [] } },
    expect: bad('NotInUpdateGraph', 'no available upgrade for the given clusterversion 4.15.3', { transient: true }),
  },
  {
    name: 'channel change, update service down',
    desired: { version: '4.16.2', channel: 'stable-4.16' },
    cincinnati: true,
    deps: { graph: new IntegrationError('cincinnati', 'Unreachable', 'connect ECONNREFUSED 127.0.0.1:9') },
    expect: bad('UpdateServiceUnavailable', 'cincinnati: connect ECONNREFUSED 127.0.0.1:9', { transient: true }),
  },
  {
    name: 'channel change, cluster ID not a UUID',
    desired: { version: '4.16.2', channel: 'stable-4.16' },
    cincinnati: true,
    cv: { clusterID: 'not-a-uuid' },
    expect: bad(
      'InvalidClusterId',
      'clusterversion spec.clusterID "not-a-uuid" is not a UUID, so the update service cannot be asked about channel stable-4.16',
    ),
  },
  {
    name: 'channel change, bad upstream',
    desired: { version: '4.16.2', channel: 'stable-4.16' },
    cincinnati: true,
    cv: { upstream: 'ftp://graph' },
    expect: bad('InvalidUpstream', 'clusterversion spec.upstream "ftp://graph" is not an http or https URL'),
  },
  // 2. image mode
  {
    name: 'image: version resolved from the image',
    desired: { image: IMAGE },
    expect: ok({ resolvedVersion: '4.15.5' }),
  },
  {
    name: 'image: precedence over version and channel, no availability check',
    desired: { image: IMAGE, version: '4.15.4', channel: 'other' },
    deps: { image: '4.15.9' },
    expect: ok({ resolvedVersion: '4.15.9' }),
  },
  {
    name: 'image: without a digest',
    desired: { image: 'quay.io/openshift-release-dev/ocp-release:4.15.5-x86_64' },
    expect: bad(
      'InvalidImage',
      'failed to parse image:quay.io/openshift-release-dev/ocp-release:4.15.5-x86_64 must be a valid image pull spec: no image digest specified',
    ),
  },
  {
    name: 'image: without a registry',
    desired: { image: `openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)}` },
    expect: bad(
      'InvalidImage',
      `failed to parse image:openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)} must be a valid image pull spec: no registry specified`,
    ),
  },
  {
    name: 'image: without a namespace',
    desired: { image: `quay.io/ocp-release@sha256:${'a'.repeat(64)}` },
    expect: bad(
      'InvalidImage',
      `failed to parse image:quay.io/ocp-release@sha256:${'a'.repeat(64)} must be a valid image pull spec: no repository specified`,
    ),
  },
  {
    name: 'image: not a pull spec',
    desired: { image: 'Quay.io/x y' },
    expect: bad(
      'InvalidImage',
      'failed to parse image Quay.io/x y: must be a valid image pull spec:invalid reference format',
    ),
  },
  {
    name: 'image: registry unreachable',
    desired: { image: IMAGE },
    deps: { image: new IntegrationError('registry', 'HttpStatus', 'GET manifest: 404', { status: 404 }) },
    expect: bad(
      'ImageUnresolvable',
      `failed to fetch image manifest digest: ${IMAGE} needs to be a valid release image`,
      { transient: true },
    ),
  },
  {
    name: 'image: no release label',
    desired: { image: IMAGE },
    deps: { image: '' },
    expect: bad(
      'ImageUnresolvable',
      `release image ${IMAGE} has no io.openshift.release label, so its version is unknown`,
    ),
  },
  {
    name: 'image: label not semver',
    desired: { image: IMAGE },
    deps: { image: 'latest' },
    expect: { ...bad('InvalidVersion', ''), message: '' },
  },
  {
    name: 'image: downgrade',
    desired: { image: IMAGE },
    deps: { image: '4.14.1' },
    expect: {
      valid: true,
      availableUpdate: false,
      reason: 'Downgrade',
      message: 'downgrades to desired version 4.14.1 from 4.15.3 are unsupported',
      resolvedVersion: '4.14.1',
    },
  },
  {
    name: 'image: same version',
    desired: { image: IMAGE },
    deps: { image: '4.15.3' },
    expect: {
      valid: true,
      availableUpdate: false,
      reason: 'SameVersion',
      message: 'desired version 4.15.3 matches the current version 4.15.3',
      resolvedVersion: '4.15.3',
    },
  },
];

test('validation follows MUO rule by rule', async () => {
  for (const c of cases) {
    const deps = stubs(c.deps);
    const got = await validateUpgradeConfig(
      {
        config: upgradeConfig(c.desired, c.upgradeAt),
        clusterVersion: clusterVersion(c.cv),
        cincinnatiEnabled: c.cincinnati ?? false,
      },
      deps,
    );
    assert.equal(got.reason, c.expect.reason, `${c.name}: ${got.message}`);
    assert.equal(got.valid, c.expect.valid, c.name);
    assert.equal(got.availableUpdate, c.expect.availableUpdate, c.name);
    if (c.expect.message !== '') assert.equal(got.message, c.expect.message, c.name);
    else assert.ok(got.message.length > 0, c.name);
    assert.equal(got.transient, c.expect.transient ?? false, `${c.name}: transient`);
    assert.equal(got.resolvedVersion, c.expect.resolvedVersion, `${c.name}: resolvedVersion`);
  }
});

test('a downgrade or the same version counts as a validation failure, as in MUO; only a valid upgrade does not', async () => {
  const judge = async (version: string): Promise<[string, boolean]> => {
    const got = await validateUpgradeConfig(
      {
        config: upgradeConfig({ version, channel: 'stable-4.15' }),
        clusterVersion: clusterVersion(),
        cincinnatiEnabled: false,
      },
      stubs(),
    );
    return [got.reason, isValidationFailure(got)];
  };
  assert.deepEqual(await judge('4.14.30'), ['Downgrade', true]);
  assert.deepEqual(await judge('4.15.3'), ['SameVersion', true]);
  assert.deepEqual(await judge('banana'), ['InvalidVersion', true]);
  assert.deepEqual(await judge('4.15.9'), ['NotInAvailableUpdates', true]);
  assert.deepEqual(await judge('4.15.5'), ['Valid', false]);
});

test('semver messages explain the strict format', async () => {
  const got = await validateUpgradeConfig(
    {
      config: upgradeConfig({ version: 'v4.15.5', channel: 'stable-4.15' }),
      clusterVersion: clusterVersion(),
      cincinnatiEnabled: false,
    },
    stubs(),
  );
  assert.equal(
    got.message,
    'failed to parse upgrade config desired version v4.15.5 as semver: expected MAJOR.MINOR.PATCH with optional -PRERELEASE and +BUILD, without a v prefix or leading zeros',
  );
});

test('the update graph is asked with MUO parameters: default upstream, amd64, current version', async () => {
  const deps = stubs();
  await validateUpgradeConfig(
    {
      config: upgradeConfig({ version: '4.16.2', channel: 'stable-4.16' }),
      clusterVersion: clusterVersion(),
      cincinnatiEnabled: true,
    },
    deps,
  );
  assert.deepEqual(deps.graphCalls, [
    {
      upstream: 'https://api.openshift.com/api/upgrades_info/v1/graph',
      channel: 'stable-4.16',
      arch: 'amd64',
      clusterId: CLUSTER_ID,
      fromVersion: '4.15.3',
    },
  ]);
  const custom = stubs();
  await validateUpgradeConfig(
    {
      config: upgradeConfig({ version: '4.16.2', channel: 'stable-4.16' }),
      clusterVersion: clusterVersion({ upstream: 'https://graph.example/api' }),
      cincinnatiEnabled: true,
    },
    custom,
  );
  assert.equal(custom.graphCalls[0]?.upstream, 'https://graph.example/api');
});

test('no outside call is made when an earlier rule decides', async () => {
  const deps = stubs();
  await validateUpgradeConfig(
    {
      config: upgradeConfig({ version: '4.15.3', channel: 'stable-4.16' }),
      clusterVersion: clusterVersion(),
      cincinnatiEnabled: true,
    },
    deps,
  );
  await validateUpgradeConfig(
    { config: upgradeConfig({ image: 'quay.io/x:latest' }), clusterVersion: clusterVersion(), cincinnatiEnabled: true },
    deps,
  );
  assert.deepEqual(deps.graphCalls, []);
  assert.deepEqual(deps.imageCalls, []);
});

test('image failures keep the cause as detail', async () => {
  const got = await validateUpgradeConfig(
    { config: upgradeConfig({ image: IMAGE }), clusterVersion: clusterVersion(), cincinnatiEnabled: false },
    stubs({ image: new IntegrationError('registry', 'Timeout', 'no answer within 20s') }),
  );
  assert.equal(got.detail, 'registry: no answer within 20s');
});

test('an aborted call is rethrown, not turned into a verdict', async () => {
  const aborted = new IntegrationError('cincinnati', 'Aborted', 'aborted');
  await assert.rejects(
    validateUpgradeConfig(
      {
        config: upgradeConfig({ version: '4.16.2', channel: 'stable-4.16' }),
        clusterVersion: clusterVersion(),
        cincinnatiEnabled: true,
      },
      stubs({ graph: aborted }),
    ),
    (err) => err === aborted,
  );
  const controller = new AbortController();
  controller.abort();
  const other = new Error('socket closed');
  await assert.rejects(
    validateUpgradeConfig(
      {
        config: upgradeConfig({ image: IMAGE }),
        clusterVersion: clusterVersion(),
        cincinnatiEnabled: false,
        signal: controller.signal,
      },
      stubs({ image: other }),
    ),
    (err) => err === other,
  );
});

test('currentClusterVersion ignores partial and incomplete entries', () => {
  assert.equal(currentClusterVersion(clusterVersion()), '4.15.3');
  assert.equal(currentClusterVersion(clusterVersion({ history: [] })), undefined);
  assert.equal(
    currentClusterVersion(
      clusterVersion({
        history: [
          { version: '4.16.0', state: 'Partial', completionTime: '2030-01-01T00:00:00Z' },
          { version: '4.15.3', state: 'Completed', completionTime: '2029-01-01T00:00:00Z' },
        ],
      }),
    ),
    '4.15.3',
  );
});
