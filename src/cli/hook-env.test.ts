import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnvVar } from 'kubernetes-types/core/v1.js';
import { UPGRADE_EVENTS } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { ManualClock } from '../lib/clock.js';
import { hookEnvironment } from '../scheduled/hooks/hook-env.js';
import { hook, upgradeJob } from '../scheduled/hooks/hook-fixtures.test-support.js';
import { matchesDisruptiveHooks } from '../scheduled/hooks/hook-selection.js';
import {
  defaultEventReason,
  hookEnvFor,
  hookEnvPreview,
  renderDotenv,
  renderEnvJson,
  shellQuote,
  type HookEnvDeps,
} from './hook-env.js';
import { runBinary } from './binary.test-support.js';
import { UPGRADE_JOB_YAML } from './loaded-modules.test-support.js';

const NOW = Date.parse('2023-11-15T01:00:05Z');
const succeeded = upgradeJob({
  conditions: [{ type: 'Succeeded', status: 'True', reason: 'Succeeded', message: 'Upgrade succeeded' }],
});

function value(env: readonly EnvVar[], name: string): string | undefined {
  return env.find((e) => e.name === name)?.value;
}

void test('each event: EVENT_name and the reason the controller passes; the pool only for MachineConfigPoolUnpause', () => {
  const expected = {
    Create: '""',
    Start: '"Started"',
    UpgradeComplete: '"Completed"',
    MachineConfigPoolUnpause: '"Completed"',
    Finish: '"Succeeded"',
    Success: '"Succeeded"',
    Failure: '""',
  } as const;
  for (const event of UPGRADE_EVENTS) {
    const r = hookEnvPreview({
      job: succeeded,
      event,
      hooks: [],
      now: NOW,
      ...(event === 'MachineConfigPoolUnpause' ? { pool: 'worker' } : {}),
    });
    assert.ok(r.ok, event);
    assert.equal(value(r.preview.env, 'EVENT_name'), `"${event}"`);
    assert.equal(value(r.preview.env, 'EVENT_NAME'), `"${event}"`);
    assert.equal(value(r.preview.env, 'EVENT_reason'), expected[event], event);
    assert.equal(value(r.preview.env, 'EVENT_pool'), event === 'MachineConfigPoolUnpause' ? '"worker"' : undefined);
    assert.equal(value(r.preview.env, 'EVENT_time'), '"2023-11-15T01:00:05Z"');
  }
  const running = upgradeJob({ conditions: [{ type: 'Started', status: 'True', reason: 'Started' }] });
  assert.equal(defaultEventReason(running, 'MachineConfigPoolUnpause'), 'DelayReached');
  const failed = upgradeJob({ conditions: [{ type: 'Failed', status: 'True', reason: 'TimedOut' }] });
  assert.equal(defaultEventReason(failed, 'Failure'), 'TimedOut');
  assert.equal(defaultEventReason(failed, 'Finish'), 'TimedOut');

  assert.deepEqual(hookEnvPreview({ job: succeeded, event: 'MachineConfigPoolUnpause', hooks: [], now: NOW }), {
    ok: false,
    error: '--pool is required for MachineConfigPoolUnpause (it becomes EVENT_pool)',
  });
  assert.deepEqual(hookEnvPreview({ job: succeeded, event: 'Start', pool: 'worker', hooks: [], now: NOW }), {
    ok: false,
    error: '--pool applies to MachineConfigPoolUnpause only, not to Start',
  });
});

void test('the environment is the controller’s, byte for byte: same function, same reason, same META over the hooks', () => {
  const hooks = [
    hook('notify', { disruptive: true, events: ['Create'] }),
    hook('other', { selector: { matchLabels: { nope: 'x' } }, disruptive: true }),
  ];
  for (const event of ['Create', 'Finish'] as const) {
    const r = hookEnvPreview({ job: succeeded, event, hooks, now: NOW });
    assert.ok(r.ok);
    const controller = hookEnvironment({
      job: succeeded,
      event,
      reason: event === 'Create' ? '' : 'Succeeded',
      now: NOW,
      matchesDisruptiveHooks: matchesDisruptiveHooks(succeeded, hooks),
    });
    assert.deepEqual(r.preview.env, controller.env);
    assert.equal(value(r.preview.env, 'META_matchesDisruptiveHooks'), 'true');
  }
  const none = hookEnvPreview({ job: succeeded, event: 'Create', hooks: [], now: NOW });
  assert.ok(none.ok);
  assert.equal(value(none.preview.env, 'META'), '{"matchesDisruptiveHooks":false}');
  // A hook file without a namespace counts as in the job's namespace (kubectl would apply both to one namespace).
  const bare = hook('bare', { disruptive: true });
  delete bare.metadata?.namespace;
  const r = hookEnvPreview({ job: succeeded, event: 'Create', hooks: [bare], now: NOW, reason: 'custom' });
  assert.ok(r.ok);
  assert.equal(value(r.preview.env, 'META_matchesDisruptiveHooks'), 'true');
  assert.equal(value(r.preview.env, 'EVENT_reason'), '"custom"');
});

void test('notes: a final event the job has not reached, hooks that would not run, a job the API server has not stored', () => {
  const running = upgradeJob({ conditions: [{ type: 'Started', status: 'True', reason: 'Started' }] });
  const hooks = [
    hook('finish-only', { events: ['Finish'] }),
    hook('picky', { events: ['Success'], selector: { matchLabels: { nope: 'x' } } }),
  ];
  const r = hookEnvPreview({ job: running, event: 'Success', hooks, now: NOW });
  assert.ok(r.ok);
  assert.deepEqual(r.preview.notes, [
    'the controller fires Success hooks only for a job with Succeeded=True; this job has neither',
    'hook finish-only does not run on Success (its events: Finish)',
    'hook picky does not run for this job on Success: selectorMismatch',
  ]);
  const job = upgradeJob();
  const unstored = { ...job, metadata: { ...job.metadata, uid: '' } };
  const u = hookEnvPreview({ job: unstored, event: 'Create', hooks: [], now: NOW });
  assert.ok(u.ok);
  assert.deepEqual(u.preview.notes, [
    'the UpgradeJob has no metadata.uid: the API server sets them, so the hook Job sees other values',
  ]);
});

void test('dotenv quoting survives a POSIX shell: set -a; . file gives back every value byte for byte', () => {
  const env: EnvVar[] = [
    { name: 'A', value: '"it\'s <fine> & done"' },
    { name: 'B', value: `'quoted' $HOME \`id\` \\n "x" ; echo pwned` },
    { name: 'C', value: '' },
    { name: 'D', value: '{"a":[1,2],"b":"\\u003c"}' },
  ];
  assert.equal(shellQuote("a'b"), `'a'\\''b'`);
  const dir = mkdtempSync(join(tmpdir(), 'hook-env-test-'));
  try {
    const file = join(dir, 'env');
    writeFileSync(file, renderDotenv(env));
    const script = `set -a; . "$1"; printf '%s\\0' ${env.map((e) => `"$${e.name}"`).join(' ')}`;
    const out = spawnSync('/bin/sh', ['-c', script, 'sh', file], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(
      out.stdout.split('\0').slice(0, -1),
      env.map((e) => e.value),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(JSON.parse(renderEnvJson(env)), Object.fromEntries(env.map((e) => [e.name, e.value])));
});

const HOOK_YAML = `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeJobHook
metadata: {name: notify, namespace: appuio-openshift-upgrade-controller}
spec:
  events: [Create]
  disruptive: true
  template: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
`;

function deps(files: Record<string, string>, warnings: string[] = []): HookEnvDeps {
  return {
    clock: new ManualClock(NOW),
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
    warn: (text) => void warnings.push(text),
  };
}

void test('files: the job as the API server stores it (CRD defaults, Go durations and times), EVENT.time from the clock', () => {
  const { env } = hookEnvFor(
    { job: 'job.yaml', event: 'Create', hook: ['hook.yaml'], output: 'dotenv' },
    deps({ 'job.yaml': UPGRADE_JOB_YAML, 'hook.yaml': HOOK_YAML }),
  );
  assert.equal(value(env, 'JOB_spec_config_upgradeTimeout'), '"12h0m0s"');
  assert.equal(value(env, 'JOB_spec_config_preUpgradeHealthChecks_timeout'), '"1h0m0s"');
  assert.equal(value(env, 'JOB_spec_config_postUpgradeHealthChecks_timeout'), '"1h30m0s"');
  assert.equal(value(env, 'JOB_spec_startAfter'), '"2023-11-14T22:13:20Z"');
  assert.equal(value(env, 'JOB_spec_desiredVersion_version'), undefined);
  assert.equal(value(env, 'EVENT_time'), '"2023-11-15T01:00:05Z"');
  assert.equal(value(env, 'META_matchesDisruptiveHooks'), 'true');
});

void test('files: invalid or missing objects are refused with the API server’s field errors', () => {
  const bad = UPGRADE_JOB_YAML.replace('    postUpgradeHealthChecks: {timeout: 90m}\n', '    upgradeTimeout: soon\n');
  assert.throws(() => hookEnvFor({ job: 'job.yaml', event: 'Create', output: 'dotenv' }, deps({ 'job.yaml': bad })), {
    message:
      'job.yaml: document 1: The UpgradeJob "cluster-upgrade-4-15-3-1700000000" is invalid:\n' +
      '* spec.config.upgradeTimeout: Invalid value: "soon": spec.config.upgradeTimeout in body must be of type duration: "soon"\n' +
      '* spec.config.postUpgradeHealthChecks: Required value\n' +
      // The UpgradeJob CRD has CEL rules; kube-apiserver says this when earlier errors stop them.
      '* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  });
  assert.throws(
    () =>
      hookEnvFor(
        { job: 'job.yaml', event: 'Create', output: 'dotenv' },
        deps({ 'job.yaml': `${UPGRADE_JOB_YAML}---\n${UPGRADE_JOB_YAML}` }),
      ),
    /job\.yaml: expected one UpgradeJob \(managedupgrade\.appuio\.io\/v1beta1\), found 2/,
  );
  assert.throws(
    () =>
      hookEnvFor(
        { job: 'job.yaml', event: 'Create', hook: ['job.yaml'], output: 'dotenv' },
        deps({ 'job.yaml': UPGRADE_JOB_YAML }),
      ),
    /job\.yaml: no UpgradeJobHook/,
  );
});

/** Runs `upgrade-operator <args>` from the source tree, as `node --import tsx src/main.ts`. */

void test('the real binary: a job file gives the environment (exit 0); an unknown event is refused (exit 1)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-env-test-'));
  try {
    const file = join(dir, 'job.yaml');
    writeFileSync(file, UPGRADE_JOB_YAML);
    const [good, bad] = await Promise.all([
      runBinary(['hook-env', '--job', file, '--event', 'Start', '--time', '2023-11-15T01:00:05Z', '-o', 'json']),
      runBinary(['hook-env', '--job', file, '--event', 'Started']),
    ]);
    assert.equal(good.status, 0, good.stderr);
    assert.equal(good.stderr, '');
    const env = JSON.parse(good.stdout) as Record<string, string>;
    assert.equal(env['EVENT'], '{"message":"","name":"Start","reason":"Started","time":"2023-11-15T01:00:05Z"}');
    assert.equal(env['JOB_metadata_labels_upgrade_config'], '"cluster-upgrade"');
    assert.equal(env['META'], '{"matchesDisruptiveHooks":false}');
    assert.deepEqual(Object.keys(env), Object.keys(env).sort());
    assert.equal(bad.status, 1);
    assert.equal(bad.stdout, '');
    assert.match(
      bad.stderr,
      /^error: option '--event <name>' argument 'Started' is invalid\. must be one of Create, Start, UpgradeComplete, MachineConfigPoolUnpause, Finish, Success, Failure\n/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
