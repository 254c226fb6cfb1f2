import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { JqSelector } from '../integrations/jq-selector.js';
import { formatTime } from '../lib/clock.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';
import { runBinary } from './binary.test-support.js';
import { loadScenario, scenarioNames } from './scenarios/catalog.js';
import { expandTimes } from './scenarios/scenario-file.js';
import { validateObjects } from './validate-objects.js';
import {
  collectInputs,
  nodeValidateIo,
  parseClusterVersionFile,
  renderValidateJson,
  renderValidateText,
  validateInputs,
  type ValidateIo,
  type ValidateRun,
} from './validate.js';
import { parseLocalZone } from './commands/validate.js';

const jq = new JqSelector();
const dir = mkdtempSync(join(tmpdir(), 'validate-test-'));
after(async () => {
  await jq.close();
  rmSync(dir, { recursive: true, force: true });
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NOW = Date.parse('2026-11-01T00:00:00Z');

function run(extra: Partial<ValidateRun> = {}): ValidateRun {
  return { io: nodeValidateIo(), recursive: false, nowMs: NOW, localZoneId: 'Europe/Zurich', jq, ...extra };
}

const GOOD_HOOK = `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeJobHook
metadata: {name: notify, namespace: appuio-openshift-upgrade-controller}
spec:
  events: [Start]
  selector: {matchLabels: {upgrade-config: cluster-upgrade}}
  template: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: notify, image: "curlimages/curl:8.1.2"}]}}}}
`;

const BAD_SCHEDULE = `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeConfig
metadata: {name: nightly, namespace: appuio-openshift-upgrade-controller}
spec:
  schedule: {cron: "0 25 * * *", location: UTC}
  jobTemplate:
    spec:
      config:
        upgradeTimeout: 2h
        preUpgradeHealthChecks: {timeout: 30m}
        postUpgradeHealthChecks: {timeout: 30m}
`;

function write(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

void test('inputs: a directory’s manifests sorted, subdirectories only with -R, stdin, and unreadable paths as errors', () => {
  const d = join(dir, 'tree');
  write('tree/b.yaml', 'b');
  write('tree/a.json', '{}');
  write('tree/c.yml', 'c');
  write('tree/notes.txt', 'x');
  write('tree/sub/d.yaml', 'd');
  const io: ValidateIo = { ...nodeValidateIo(), readStdin: () => 'from stdin' };
  const flat = collectInputs([d, '-', join(dir, 'missing.yaml')], false, io);
  assert.deepEqual(
    flat.files.map((f) => [f.path.replace(`${dir}/`, ''), f.text]),
    [
      ['tree/a.json', '{}'],
      ['tree/b.yaml', 'b'],
      ['tree/c.yml', 'c'],
      ['-', 'from stdin'],
    ],
  );
  assert.equal(flat.errors.length, 1);
  assert.match(flat.errors[0]?.message ?? '', /^cannot read: ENOENT/);
  const deep = collectInputs([d], true, io);
  assert.deepEqual(
    deep.files.map((f) => f.path.replace(`${dir}/`, '')),
    ['tree/a.json', 'tree/b.yaml', 'tree/c.yml', 'tree/sub/d.yaml'],
  );
});

void test('multi-document files and Lists: each object with its document number; bad documents are errors, the rest still judged', async () => {
  const path = write(
    'multi.yaml',
    `${GOOD_HOOK}---\n# empty\n---\n- not an object\n---\nkey: [unclosed\n---\napiVersion: v1\nkind: List\nitems:\n- ${stringify(
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
    )
      .trimEnd()
      .replace(/\n/g, '\n  ')}\n- apiVersion: v1\n  kind: Namespace\n  metadata: {name: ns1}\n---\n${BAD_SCHEDULE}`,
  );
  const report = await validateInputs([path], run());
  assert.deepEqual(
    report.objects.map((o) => `${o.document} ${o.kind} ${o.name} ${o.verdict}`),
    [
      '1 UpgradeJobHook notify valid',
      '5 Secret s not checked',
      '5 Namespace ns1 not checked',
      '6 UpgradeConfig nightly invalid',
    ],
  );
  assert.deepEqual(
    report.errors.map((e) => [e.document, e.message.split(':')[0]]),
    [
      [3, 'document 3 is not an object'],
      [4, 'document 4 is not valid YAML'],
    ],
  );
  assert.equal(report.valid, false);

  const text = renderValidateText(report);
  assert.ok(
    text.includes(
      `${path}:1 UpgradeJobHook.managedupgrade.appuio.io appuio-openshift-upgrade-controller/notify: valid\n`,
    ),
  );
  assert.ok(
    text.includes(
      `${path}:6 UpgradeConfig.managedupgrade.appuio.io appuio-openshift-upgrade-controller/nightly: invalid\n`,
    ),
  );
  assert.ok(
    text.includes(
      '  error [operator InvalidCron] spec.schedule.cron: cannot parse cron schedule "0 25 * * *": end of range (25) above maximum (23): 25\n',
    ),
  );
  assert.ok(text.includes(`${path}:5 Secret s: not checked\n`));
  assert.ok(text.includes(`${path}: error: document 3 is not an object\n`));
  assert.ok(text.endsWith('4 object(s): 1 valid, 0 valid with warnings, 1 invalid, 2 not checked, 2 input error(s)\n'));
});

void test('-o json: objects with file, document, apiVersion, kind, namespace, name, verdict, problems and skipped; valid', async () => {
  const good = write('json/good.yaml', GOOD_HOOK);
  const managed = write(
    'json/managed.yaml',
    'apiVersion: upgrade.managed.openshift.io/v1alpha1\nkind: UpgradeConfig\nmetadata: {name: managed-upgrade-config, namespace: openshift-managed-upgrade-operator}\nspec: {type: OSD, upgradeAt: "2026-12-01T02:00:00Z", PDBForceDrainTimeout: 60, desired: {channel: stable-4.15, version: 4.15.3}}\n',
  );
  const parsed = JSON.parse(renderValidateJson(await validateInputs([good, managed], run()))) as {
    objects: JsonObject[];
    errors: unknown[];
    valid: boolean;
  };
  assert.equal(parsed.valid, true);
  assert.deepEqual(parsed.errors, []);
  assert.deepEqual(parsed.objects[0], {
    file: good,
    document: 1,
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJobHook',
    namespace: 'appuio-openshift-upgrade-controller',
    name: 'notify',
    verdict: 'valid',
    problems: [],
    skipped: [],
  });
  assert.equal((parsed.objects[1]?.['skipped'] as string[]).length, 2);

  const bad = JSON.parse(renderValidateJson(await validateInputs([write('json/bad.yaml', BAD_SCHEDULE)], run()))) as {
    objects: JsonObject[];
    valid: boolean;
  };
  assert.equal(bad.valid, false);
  assert.deepEqual(bad.objects[0]?.['problems'], [
    {
      source: 'operator',
      field: 'spec.schedule.cron',
      reason: 'InvalidCron',
      message: 'spec.schedule.cron: cannot parse cron schedule "0 25 * * *": end of range (25) above maximum (23): 25',
      severity: 'error',
    },
  ]);
});

const CLUSTER_VERSION_YAML = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata:
  name: version
  resourceVersion: "12345"
  uid: 0a1b2c3d-0000-4000-8000-000000000001
spec:
  clusterID: 6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31
  channel: stable-4.15
status:
  desired: {version: 4.15.1, image: "quay.io/openshift-release-dev/ocp-release@sha256:aaaa"}
  history:
  - {state: Completed, startedTime: "2026-10-01T00:00:00Z", completionTime: "2026-10-01T01:00:00Z", version: 4.15.1, image: "quay.io/openshift-release-dev/ocp-release@sha256:aaaa", verified: true}
  observedGeneration: 1
  versionHash: abc
  availableUpdates:
  - {version: 4.15.3, image: "quay.io/openshift-release-dev/ocp-release@sha256:bbbb"}
`;

void test('--cluster-version: read like oc writes it; the managed checks that need it run', async () => {
  const cvPath = write('cv.yaml', CLUSTER_VERSION_YAML);
  const cv = await parseClusterVersionFile(cvPath, CLUSTER_VERSION_YAML);
  assert.equal(cv.spec.channel, 'stable-4.15');
  await assert.rejects(
    () => parseClusterVersionFile('x.yaml', GOOD_HOOK),
    /^Error: x\.yaml: expected one ClusterVersion \(config\.openshift\.io\/v1\), found 0$/,
  );
  await assert.rejects(
    () =>
      parseClusterVersionFile(
        'x.yaml',
        CLUSTER_VERSION_YAML.replace('observedGeneration: 1', 'observedGeneration: one'),
      ),
    /x\.yaml: The ClusterVersion "version" is invalid:/,
  );
  const cr = (version: string): JsonObject => ({
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: 'managed-upgrade-config', namespace: 'openshift-managed-upgrade-operator' },
    spec: {
      type: 'OSD',
      upgradeAt: '2026-12-01T02:00:00Z',
      PDBForceDrainTimeout: 60,
      desired: { channel: 'stable-4.15', version },
    },
  });
  const [ok, same] = await validateObjects(
    [
      { file: 'f', document: 1, object: cr('4.15.3') },
      { file: 'f', document: 2, object: cr('4.15.1') },
    ],
    { ...run(), clusterVersion: cv },
  );
  assert.equal(ok?.verdict, 'valid');
  assert.deepEqual(ok?.skipped, []);
  assert.equal(same?.verdict, 'invalid');
  assert.deepEqual(
    same?.problems.map((p) => `${p.reason ?? ''}: ${p.message}`),
    ['SameVersion: desired version 4.15.1 matches the current version 4.15.1'],
  );
});

void test('--local-zone: a tz database name; anything else is a usage error', () => {
  assert.equal(parseLocalZone('Europe/Zurich'), 'Europe/Zurich');
  assert.throws(() => parseLocalZone('Mars/Olympus'), /unknown time zone Mars\/Olympus/);
  assert.throws(() => parseLocalZone('Local'), /must name a zone/);
});

void test('everything the project ships is valid: deploy/ (samples, operator manifests, CRDs) and every scenario’s manifests', async () => {
  // deploy/prometheus holds Prometheus rules files, not objects (promtool checks them: test/alerts).
  const deployDirs = readdirSync(join(ROOT, 'deploy'))
    .filter((d) => d !== 'prometheus')
    .map((d) => join(ROOT, 'deploy', d));
  const shipped = await validateInputs(deployDirs, run({ recursive: true }));
  assert.deepEqual(shipped.errors, []);
  const judged = shipped.objects.filter((o) => o.verdict !== 'not checked');
  assert.deepEqual(
    judged
      .filter((o) => o.verdict !== 'valid')
      .map((o) => `${o.file}:${o.document} ${o.kind} ${o.name}: ${o.verdict} ${JSON.stringify(o.problems)}`),
    [],
  );
  // One of each kind the operator reads, plus the managed operator's ConfigMap (in the samples and in deploy/managed).
  assert.deepEqual([...new Set(judged.map((o) => `${o.apiVersion} ${o.kind}`))].sort(), [
    'managedupgrade.appuio.io/v1beta1 ClusterVersion',
    'managedupgrade.appuio.io/v1beta1 NodeForceDrain',
    'managedupgrade.appuio.io/v1beta1 UpgradeConfig',
    'managedupgrade.appuio.io/v1beta1 UpgradeJob',
    'managedupgrade.appuio.io/v1beta1 UpgradeJobHook',
    'managedupgrade.appuio.io/v1beta1 UpgradeSuspensionWindow',
    'upgrade.managed.openshift.io/v1alpha1 UpgradeConfig',
    'v1 ConfigMap',
  ]);

  const names = scenarioNames();
  assert.ok(names.length > 0);
  for (const name of names) {
    const { file } = loadScenario(name);
    // `{{ +10m }}` times are relative to the scenario's start: judge them at that start.
    const manifests = (file.manifests ?? [])
      .map((m) => expandTimes(m as JsonObject, NOW, formatTime))
      .filter(isJsonObject);
    // The runner puts the simulated OCM's URL where the file says {{ ocmUrl }}.
    const config = file.operator?.config?.replaceAll('{{ ocmUrl }}', 'http://127.0.0.1:8080');
    const objects = [
      ...manifests,
      ...(config !== undefined
        ? [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'managed-upgrade-operator-config', namespace: 'openshift-managed-upgrade-operator' },
              data: { 'config.yaml': config },
            },
          ]
        : []),
    ];
    const verdicts = await validateObjects(
      objects.map((object, i) => ({ file: name, document: i + 1, object })),
      run(),
    );
    const bad = verdicts.filter((o) => o.verdict !== 'valid' && o.verdict !== 'not checked');
    assert.deepEqual(
      bad.map((o) => `${name}: ${o.kind} ${o.name}: ${o.verdict} ${JSON.stringify(o.problems)}`),
      [],
    );
  }
});

void test('the real binary: a good file exits 0, a bad one 1 with the message on stdout, -o json parses, usage errors exit 2', async () => {
  const good = write('bin/good.yaml', GOOD_HOOK);
  const bad = write('bin/bad.yaml', BAD_SCHEDULE);
  // jq's worker is started for the first podJQSelector only, and stopped at the end.
  const jqProgram = write(
    'bin/force-drain.yaml',
    `apiVersion: managedupgrade.appuio.io/v1beta1
kind: NodeForceDrain
metadata: {name: workers, namespace: appuio-openshift-upgrade-controller}
spec:
  nodeSelector: {matchLabels: {node-role.kubernetes.io/worker: ""}}
  nodeDrainGracePeriod: 15m
  podForceDeleteGracePeriod: 5m
  podJQSelector: ".metadata | ("
`,
  );
  const [ok, invalid, json, usage, jqInvalid] = await Promise.all([
    runBinary(['validate', '-f', good]),
    runBinary(['validate', '-f', bad]),
    runBinary(['validate', '-f', good, '-f', bad, '-o', 'json']),
    runBinary(['validate', '-f', good, '-o', 'yaml']),
    runBinary(['validate', '-f', jqProgram]),
  ]);
  assert.equal(jqInvalid.status, 1, jqInvalid.stderr);
  assert.match(
    jqInvalid.stdout,
    /error \[operator InvalidNodeForceDrain\] .* deletes nothing: spec\.podJQSelector: syntax error/,
  );
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /: valid\n/);
  assert.equal(invalid.status, 1, invalid.stderr);
  assert.match(
    invalid.stdout,
    /error \[operator InvalidCron\] spec\.schedule\.cron: cannot parse cron schedule "0 25 \* \* \*"/,
  );
  assert.equal(json.status, 1, json.stderr);
  const parsed = JSON.parse(json.stdout) as { objects: { verdict: string }[]; valid: boolean };
  assert.deepEqual(
    parsed.objects.map((o) => o.verdict),
    ['valid', 'invalid'],
  );
  assert.equal(parsed.valid, false);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /argument 'yaml' is invalid/);
});
