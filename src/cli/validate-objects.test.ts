import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';
import { JqSelector } from '../integrations/jq-selector.js';
import type { JsonObject } from '../lib/json.js';
import { validateObjects, type ObjectValidation, type ValidateObjectsOptions } from './validate-objects.js';

const jq = new JqSelector();
after(() => jq.close());

const NOW = Date.parse('2026-11-01T00:00:00Z');
const APPUIO = 'managedupgrade.appuio.io/v1beta1';
const NS = 'appuio-openshift-upgrade-controller';
const MUO_NS = 'openshift-managed-upgrade-operator';

async function judge(objects: JsonObject[], extra: Partial<ValidateObjectsOptions> = {}): Promise<ObjectValidation[]> {
  return validateObjects(
    objects.map((object, i) => ({ file: 'in.yaml', document: i + 1, object })),
    { nowMs: NOW, localZoneId: 'Europe/Zurich', jq, ...extra },
  );
}

async function one(object: JsonObject, extra: Partial<ValidateObjectsOptions> = {}): Promise<ObjectValidation> {
  const [r] = await judge([object], extra);
  assert.ok(r);
  return r;
}

/** `severity source reason field: message` per problem, for compact assertions. */
function lines(r: ObjectValidation): string[] {
  return r.problems.map((p) => `${p.severity} ${p.source} ${p.reason ?? '-'} ${p.field ?? '-'}: ${p.message}`);
}

function managed(spec: JsonObject, name = 'managed-upgrade-config'): JsonObject {
  return {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name, namespace: MUO_NS },
    spec: {
      type: 'OSD',
      upgradeAt: '2026-12-01T02:00:00Z',
      PDBForceDrainTimeout: 60,
      desired: { channel: 'stable-4.15', version: '4.15.3' },
      ...spec,
    },
  };
}

function scheduled(schedule: JsonObject, config: JsonObject = {}): JsonObject {
  return {
    apiVersion: APPUIO,
    kind: 'UpgradeConfig',
    metadata: { name: 'cluster-upgrade', namespace: NS },
    spec: {
      schedule: { cron: '0 22 * * 2', isoWeek: '@odd', location: 'Europe/Zurich', ...schedule },
      jobTemplate: {
        spec: {
          config: {
            upgradeTimeout: '2h',
            preUpgradeHealthChecks: { timeout: '30m' },
            postUpgradeHealthChecks: { timeout: '30m' },
            ...config,
          },
        },
      },
    },
  };
}

function forceDrain(spec: JsonObject): JsonObject {
  return {
    apiVersion: APPUIO,
    kind: 'NodeForceDrain',
    metadata: { name: 'workers', namespace: NS },
    spec: { nodeSelector: {}, nodeDrainGracePeriod: '15m', podForceDeleteGracePeriod: '5m', ...spec },
  };
}

function hook(selector: JsonObject): JsonObject {
  return {
    apiVersion: APPUIO,
    kind: 'UpgradeJobHook',
    metadata: { name: 'notify', namespace: NS },
    spec: {
      events: ['Start'],
      selector,
      template: {
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'n', image: 'curlimages/curl:8.1.2' }] } },
        },
      },
    },
  };
}

function job(spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: APPUIO,
    kind: 'UpgradeJob',
    metadata: { name: 'cluster-upgrade-4-15-3-1796158800', namespace: NS },
    spec: {
      startAfter: '2026-12-01T21:00:00Z',
      startBefore: '2026-12-01T22:00:00Z',
      desiredVersion: {
        version: '4.15.3',
        image:
          'quay.io/openshift-release-dev/ocp-release@sha256:0415000300000000000000000000000000000000000000000000000000000000',
      },
      config: {
        upgradeTimeout: '2h',
        preUpgradeHealthChecks: { timeout: '30m' },
        postUpgradeHealthChecks: { timeout: '30m' },
      },
      ...spec,
    },
  };
}

function clusterVersion(o: { channel?: string; clusterID?: string; available?: string[] } = {}): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: o.clusterID ?? '6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31', channel: o.channel ?? 'stable-4.15' },
    status: {
      desired: { version: '4.15.1', image: 'quay.io/x/y@sha256:1' },
      history: [
        {
          state: 'Completed',
          startedTime: '2026-10-01T00:00:00Z',
          completionTime: '2026-10-01T01:00:00Z',
          version: '4.15.1',
          image: 'quay.io/x/y@sha256:1',
          verified: true,
        },
      ],
      observedGeneration: 1,
      versionHash: 'h',
      availableUpdates: (o.available ?? ['4.15.3']).map((version) => ({
        version,
        image: `quay.io/x/y@sha256:${version}`,
      })),
    },
  };
}

function operatorConfigMap(configYaml: string): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'managed-upgrade-operator-config', namespace: MUO_NS },
    data: { 'config.yaml': configYaml },
  };
}

// ---- managed UpgradeConfig ---------------------------------------------------------------------

void test('managed UpgradeConfig: valid offline, with the checks that need the cluster listed as skipped', async () => {
  const r = await one(managed({}));
  assert.equal(r.verdict, 'valid');
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.skipped, [
    'comparing 4.15.3 with the cluster’s current version: no downgrade, not the same version (needs --cluster-version)',
    '4.15.3 among the ClusterVersion’s available or conditional updates, or with another channel than the cluster’s (needs --cluster-version)',
  ]);
});

void test('managed UpgradeConfig: the schema (an unknown type) is the API server’s, and stops the operator’s rules', async () => {
  const r = await one(managed({ type: 'GKE' }));
  assert.equal(r.verdict, 'invalid');
  assert.deepEqual(lines(r), [
    'error apiserver FieldValueNotSupported spec.type: spec.type: Unsupported value: "GKE": supported values: "OSD", "ARO"',
  ]);
  assert.deepEqual(r.skipped, ['the operator’s rules (the API server would refuse the object)']);
});

void test('managed UpgradeConfig: a version that is not strict semver, with the condition’s reason and message', async () => {
  const r = await one(managed({ desired: { channel: 'stable-4.15', version: 'v4.15.3' } }));
  assert.equal(r.verdict, 'invalid');
  assert.deepEqual(lines(r), [
    'error operator InvalidVersion spec.desired.version: validation failed: failed to parse upgrade config desired version v4.15.3 as semver: expected MAJOR.MINOR.PATCH with optional -PRERELEASE and +BUILD, without a v prefix or leading zeros',
  ]);
});

void test('managed UpgradeConfig: an upgradeAt Go cannot parse is invalid; one long past only warns that the window passed', async () => {
  const bad = await one(managed({ upgradeAt: '2026-12-01 02:00' }));
  assert.deepEqual(lines(bad), [
    'error operator InvalidUpgradeAt spec.upgradeAt: validation failed: Failed to parse upgradeAt:2026-12-01 02:00 during validation',
  ]);
  const past = await one(managed({ upgradeAt: '2026-10-31T21:00:00Z' }));
  assert.equal(past.verdict, 'valid with warnings');
  assert.deepEqual(lines(past), [
    'warning operator UpgradeFailed spec.upgradeAt: the upgrade did not start within the upgrade window (120 min after 2026-10-31T21:00:00Z)',
  ]);
  // Within the window (2 h by default) a past upgradeAt just means "now".
  assert.equal((await one(managed({ upgradeAt: '2026-10-31T23:00:00Z' }))).verdict, 'valid');
  // ARO upgrades have no such window.
  assert.equal((await one(managed({ type: 'ARO', upgradeAt: '2026-10-31T21:00:00Z' }))).verdict, 'valid');
});

void test('managed UpgradeConfig: a bad image reference is invalid; a good one needs the registry, which is skipped', async () => {
  const bad = await one(managed({ desired: { image: 'Quay.io/OpenShift/Release' } }));
  assert.deepEqual(lines(bad), [
    'error operator InvalidImage spec.desired.image: validation failed: failed to parse image Quay.io/OpenShift/Release: must be a valid image pull spec:repository name must be lowercase',
  ]);
  const noDigest = await one(managed({ desired: { image: 'quay.io/openshift-release-dev/ocp-release:4.15.3' } }));
  assert.deepEqual(lines(noDigest), [
    'error operator InvalidImage spec.desired.image: validation failed: failed to parse image:quay.io/openshift-release-dev/ocp-release:4.15.3 must be a valid image pull spec: no image digest specified',
  ]);
  const image = `quay.io/openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)}`;
  const good = await one(managed({ desired: { image } }));
  assert.equal(good.verdict, 'valid');
  assert.equal(good.skipped.length, 2);
  assert.match(good.skipped[0] ?? '', /^the version of the release image quay\.io\/.+ \(needs the image registry\)$/);
});

void test('managed UpgradeConfig with --cluster-version: available updates, downgrades, and a channel change', async () => {
  const ok = await one(managed({}), { clusterVersion: clusterVersion() });
  assert.equal(ok.verdict, 'valid');
  assert.deepEqual(ok.skipped, []);

  const missing = await one(managed({ desired: { channel: 'stable-4.15', version: '4.15.9' } }), {
    clusterVersion: clusterVersion(),
  });
  assert.deepEqual(lines(missing), [
    'error operator NotInAvailableUpdates spec.desired.version: validation failed: version 4.15.9 not found in clusterversion available or conditional updates',
  ]);

  const down = await one(managed({ desired: { channel: 'stable-4.15', version: '4.15.0' } }), {
    clusterVersion: clusterVersion(),
  });
  // A downgrade is never acted on and counts as a validation failure (MUO's metric is 1): an error.
  assert.equal(down.verdict, 'invalid');
  assert.deepEqual(lines(down), [
    'error operator Downgrade spec.desired.version: downgrades to desired version 4.15.0 from 4.15.1 are unsupported',
  ]);

  // Another channel than the cluster's: without validation.cincinnati the operator checks nothing more.
  const other = managed({ desired: { channel: 'stable-4.16', version: '4.16.2' } });
  const plain = await one(other, { clusterVersion: clusterVersion() });
  assert.equal(plain.verdict, 'valid');
  assert.deepEqual(plain.skipped, []);
  // With it, the update graph is needed (skipped), after the cluster's own fields are checked.
  const cm = operatorConfigMap('validation:\n  cincinnati: true\n');
  const [, graph] = await judge([cm, other], { clusterVersion: clusterVersion() });
  assert.equal(graph?.verdict, 'valid');
  assert.deepEqual(graph?.skipped, [
    '4.16.2 reachable from 4.15.1 in channel stable-4.16 of the update graph (needs the update service)',
  ]);
  const [, badId] = await judge([cm, other], { clusterVersion: clusterVersion({ clusterID: 'not-a-uuid' }) });
  assert.deepEqual(badId && lines(badId), [
    'error operator InvalidClusterId -: validation failed: clusterversion spec.clusterID "not-a-uuid" is not a UUID, so the update service cannot be asked about channel stable-4.16',
  ]);
});

void test('managed UpgradeConfig: another name is ignored by the operator (warning, its Event’s message)', async () => {
  const r = await one(managed({}, 'my-upgrade'));
  assert.equal(r.verdict, 'valid with warnings');
  assert.deepEqual(lines(r), [
    'warning operator Ignored metadata.name: this operator acts only on UpgradeConfigs named managed-upgrade-config in openshift-managed-upgrade-operator; set UPGRADE_CONFIG_NAMES to act on my-upgrade',
  ]);
});

const GOOD_OPERATOR_CONFIG = `upgradeType: OSD
configManager: {source: LOCAL, localConfigName: managed-upgrade-config, watchInterval: 60}
maintenance: {controlPlaneTime: 90}
scale: {timeOut: 30}
upgradeWindow: {delayTrigger: 30, timeOut: 120}
nodeDrain: {timeOut: 45, expectedNodeDrainTime: 8}
`;

void test('the operator ConfigMap: each bad key with its ConfigProblem text; a good one is valid', async () => {
  assert.equal((await one(operatorConfigMap(GOOD_OPERATOR_CONFIG))).verdict, 'valid');
  const r = await one(operatorConfigMap(`${GOOD_OPERATOR_CONFIG.replace('timeOut: 45', 'timeOut: -5')}bogus: 1\n`));
  assert.equal(r.verdict, 'invalid');
  assert.deepEqual(r.problems.map((p) => `${p.severity} ${p.reason ?? ''} ${p.field ?? ''}`).sort(), [
    'error InvalidOperatorConfig data[config.yaml].nodeDrain.timeOut',
    'warning InvalidOperatorConfig data[config.yaml].bogus',
  ]);
  assert.match(r.problems.find((p) => p.severity === 'error')?.message ?? '', /^nodeDrain\.timeOut: /);
  // A Go regular expression the operator cannot compile is dropped, and said so.
  const re = await one(
    operatorConfigMap(
      GOOD_OPERATOR_CONFIG.replace(
        'expectedNodeDrainTime: 8}',
        'expectedNodeDrainTime: 8, ignoredNamespacePatterns: ["^openshift-(", "^kube-"]}',
      ),
    ),
  );
  assert.equal(re.verdict, 'invalid');
  assert.deepEqual(
    re.problems.map((p) => p.field),
    ['data[config.yaml].nodeDrain.ignoredNamespacePatterns[0]'],
  );
  // Other ConfigMaps are not the operator's business.
  const other = await one({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: {} });
  assert.equal(other.verdict, 'not checked');
});

void test('the ConfigMap’s upgradeWindow.timeOut is the one a managed UpgradeConfig is judged with', async () => {
  const late = managed({ upgradeAt: '2026-10-31T21:00:00Z' });
  const [, r] = await judge([operatorConfigMap('upgradeWindow:\n  timeOut: 240\n'), late]);
  assert.equal(r?.verdict, 'valid');
});

// ---- scheduled UpgradeConfig ---------------------------------------------------------------------

void test('scheduled UpgradeConfig: valid; cron, zone, isoWeek and a window that never comes, each with the ScheduleValid reason', async () => {
  assert.equal((await one(scheduled({}))).verdict, 'valid');
  assert.deepEqual(lines(await one(scheduled({ cron: '0 25 * * 2' }))), [
    'error operator InvalidCron spec.schedule.cron: spec.schedule.cron: cannot parse cron schedule "0 25 * * 2": end of range (25) above maximum (23): 25',
  ]);
  assert.deepEqual(lines(await one(scheduled({ location: 'Mars/Olympus' }))), [
    'error operator UnknownTimeZone spec.schedule.location: spec.schedule.location: unknown time zone Mars/Olympus',
  ]);
  // The CRD pattern refuses most bad weeks; week 54 passes it and never comes.
  assert.deepEqual(lines(await one(scheduled({ isoWeek: '@weekly' }))), [
    'error apiserver FieldValueInvalid spec.schedule.isoWeek: spec.schedule.isoWeek: Invalid value: "@weekly": spec.schedule.isoWeek in body should match \'^(@odd|@even|\\d{1,2})$\'',
  ]);
  const never = await one(scheduled({ isoWeek: '54' }));
  assert.equal(never.verdict, 'invalid');
  assert.equal(never.problems[0]?.reason, 'NoNextSchedule');
  assert.match(never.problems[0]?.message ?? '', /^could not find next scheduled time/);
  // `Local` is what --local-zone says.
  assert.equal((await one(scheduled({ location: 'Local' }), { localZoneId: 'America/New_York' })).verdict, 'valid');
});

void test('scheduled UpgradeConfig: template settings the UpgradeJob would fall back from are warnings at the template’s path', async () => {
  const r = await one(
    scheduled(
      {},
      { machineConfigPools: [{ matchLabels: { matchLabels: { name: 'x' } }, delayUpgrade: { delayMin: '1q' } }] },
    ),
  );
  assert.equal(r.verdict, 'valid with warnings');
  assert.deepEqual(lines(r), [
    'warning operator - spec.jobTemplate.spec.config.machineConfigPools[0].delayUpgrade.delayMin: spec.jobTemplate.spec.config.machineConfigPools[0].delayUpgrade.delayMin: time: unknown unit "q" in duration "1q"; using 0s',
  ]);
});

// ---- UpgradeJob, hooks, windows, ClusterVersion, NodeForceDrain ----------------------------------

void test('UpgradeJob: valid; the schema; the release availability needs --cluster-version', async () => {
  const r = await one(job());
  assert.equal(r.verdict, 'valid');
  assert.deepEqual(r.skipped, [
    'the desired release among the ClusterVersion’s available updates when the job starts (needs --cluster-version)',
  ]);
  const bad = await one(job({ startAfter: 'tomorrow' }));
  assert.equal(bad.verdict, 'invalid');
  assert.equal(bad.problems[0]?.source, 'apiserver');
  assert.equal(bad.problems[0]?.field, 'spec.startAfter');
  const cv = clusterVersion({ available: ['4.15.2'] });
  assert.deepEqual(lines(await one(job(), { clusterVersion: cv })), [
    'warning operator UpgradeWithdrawn spec.desiredVersion: Upgrade became unavailable: 4.15.3',
  ]);
  assert.equal((await one(job({ desiredVersionCheckAvailability: false }), { clusterVersion: cv })).verdict, 'valid');
});

void test('UpgradeJobHook: valid; the schema; a selector the operator treats as invalid skips the hook', async () => {
  assert.equal((await one(hook({ matchLabels: { 'upgrade-config': 'cluster-upgrade' } }))).verdict, 'valid');
  const schema = await one({ ...hook({}), spec: { events: ['Sometime'], template: {} } });
  assert.equal(schema.verdict, 'invalid');
  assert.ok(schema.problems.every((p) => p.source === 'apiserver'));
  const r = await one(
    hook({
      matchLabels: { a: 'b' },
      matchExpressions: [
        { key: 'x', operator: 'In', values: ['1'] },
        { key: 'y', operator: 'Exists', values: ['z'] },
      ],
    }),
  );
  assert.deepEqual(lines(r), [
    'error operator invalidSelector spec.selector.matchExpressions[1]: hook skipped: its selector is invalid',
  ]);
});

void test('UpgradeSuspensionWindow: valid; the schema; an invalid selector selects nothing', async () => {
  const w = (spec: JsonObject): JsonObject => ({
    apiVersion: APPUIO,
    kind: 'UpgradeSuspensionWindow',
    metadata: { name: 'freeze', namespace: NS },
    spec: { start: '2026-12-20T00:00:00Z', end: '2027-01-06T00:00:00Z', reason: 'freeze', ...spec },
  });
  assert.equal((await one(w({ configSelector: {} }))).verdict, 'valid');
  const schema = await one(w({ start: 'Christmas' }));
  assert.deepEqual(
    schema.problems.map((p) => `${p.source} ${p.field ?? ''}`),
    ['apiserver spec.start'],
  );
  assert.deepEqual(
    lines(await one(w({ jobSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] } }))),
    ['error operator InvalidUpgradeSuspensionWindow spec.jobSelector: spec.jobSelector is invalid: it selects nothing'],
  );
});

void test('managed ClusterVersion: valid; the schema; an overlay time the sync cannot read', async () => {
  const cv = (overlays: JsonObject[]): JsonObject => ({
    apiVersion: APPUIO,
    kind: 'ClusterVersion',
    metadata: { name: 'version', namespace: NS },
    spec: {
      template: { spec: { clusterID: '6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31', channel: 'stable-4.15' } },
      overlays,
    },
  });
  assert.equal(
    (await one(cv([{ from: '2027-01-11T00:00:00Z', overlay: { spec: { channel: 'stable-4.16' } } }]))).verdict,
    'valid',
  );
  const schema = await one({ ...cv([]), spec: { template: { spec: { channel: 5 } } } });
  assert.equal(schema.verdict, 'invalid');
  assert.ok(schema.problems.some((p) => p.source === 'apiserver' && p.field === 'spec.template.spec.channel'));
  const noId = await one({ ...cv([]), spec: { template: { spec: { channel: 'stable-4.15' } } } });
  assert.equal(noId.verdict, 'invalid');
  assert.ok(
    noId.problems.every((p) => p.reason === 'InvalidClusterVersionSpec' || p.source === 'apiserver'),
    JSON.stringify(noId.problems),
  );
});

void test('NodeForceDrain: valid; the schema; durations, selectors and a jq program that does not compile', async () => {
  assert.equal((await one(forceDrain({ podJQSelector: '.metadata.labels.app == "db"' }))).verdict, 'valid');
  const schema = await one(forceDrain({ nodeDrainGracePeriod: 15 }));
  assert.deepEqual(
    schema.problems.map((p) => `${p.source} ${p.reason ?? ''} ${p.field ?? ''}`),
    ['apiserver FieldValueTypeInvalid spec.nodeDrainGracePeriod'],
  );
  assert.deepEqual(
    lines(
      await one(
        forceDrain({
          nodeDrainGracePeriod: '15 minutes',
          namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] },
        }),
      ),
    ),
    [
      'error operator InvalidNodeForceDrain spec.nodeDrainGracePeriod: NodeForceDrain appuio-openshift-upgrade-controller/workers is invalid and deletes nothing: spec.nodeDrainGracePeriod: time: unknown unit " minutes" in duration "15 minutes"',
      'error operator InvalidNodeForceDrain spec.namespaceSelector: NodeForceDrain appuio-openshift-upgrade-controller/workers is invalid and deletes nothing: spec.namespaceSelector: "Near" is not a valid label selector operator',
    ],
  );
  const r = await one(forceDrain({ podJQSelector: '.metadata | (' }));
  assert.equal(r.verdict, 'invalid');
  assert.equal(r.problems[0]?.field, 'spec.podJQSelector');
  assert.match(
    r.problems[0]?.message ?? '',
    /^NodeForceDrain appuio-openshift-upgrade-controller\/workers is invalid and deletes nothing: spec\.podJQSelector: syntax error/,
  );
});

// ---- Other objects ---------------------------------------------------------------------------

void test('other kinds are not checked; an unknown version of our groups and a missing kind are errors', async () => {
  const [secret, wrongVersion, noKind] = await judge([
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
    { apiVersion: 'managedupgrade.appuio.io/v1', kind: 'UpgradeJob', metadata: { name: 'j' } },
    { apiVersion: 'v1', metadata: { name: 'x' } },
  ]);
  assert.equal(secret?.verdict, 'not checked');
  assert.deepEqual(secret?.problems, []);
  assert.deepEqual(wrongVersion && lines(wrongVersion), [
    'error apiserver - -: no matches for kind "UpgradeJob" in version "managedupgrade.appuio.io/v1"',
  ]);
  assert.deepEqual(noKind && lines(noKind), ['error apiserver - kind: kind not set']);
});

void test('unknown fields are pruned with the API server’s warning', async () => {
  const r = await one({ ...forceDrain({}), spec: { ...(forceDrain({})['spec'] as JsonObject), drainHarder: true } });
  assert.equal(r.verdict, 'valid with warnings');
  assert.deepEqual(lines(r), ['warning apiserver - spec.drainHarder: unknown field "spec.drainHarder"']);
});
