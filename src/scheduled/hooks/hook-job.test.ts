import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HOOK_JOB_TRACKER_FINALIZER } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { buildHookJob, hookJobLabels, hookJobName, hookJobsSelector, hookRunKeyOf, shortenTo63 } from './hook-job.js';
import { hook, upgradeJob } from './hook-fixtures.test-support.js';

const UJ = 'cluster-upgrade-4-15-3-1700000000';

test('the name is lowercase <job>-<hook>-<event>-hook', () => {
  assert.equal(hookJobName(UJ, 'notify', 'Create'), 'cluster-upgrade-4-15-3-1700000000-notify-create-hook');
  assert.equal(
    hookJobName('Cluster-Upgrade-4-15-3-1700000000', 'Notify', 'Create'),
    'cluster-upgrade-4-15-3-1700000000-notify-create-hook',
  );
  // Exactly 63 characters: kept whole.
  assert.equal(
    hookJobName(UJ, 'silence-alerts-now', 'Start'),
    'cluster-upgrade-4-15-3-1700000000-silence-alerts-now-start-hook',
  );
});

test('past 63 characters: the first 52, a dash and 10 hex digits of SHA-256 (values from Python hashlib)', () => {
  assert.equal(
    hookJobName(UJ, 'maintenance-silence', 'MachineConfigPoolUnpause'),
    'cluster-upgrade-4-15-3-1700000000-maintenance-silenc-4af9fed787',
  );
  // The cut may end in a dash, giving "--", as upstream.
  assert.equal(
    hookJobName(UJ, 'notify-the-team-a-slack', 'Finish'),
    'cluster-upgrade-4-15-3-1700000000-notify-the-team-a--8f9787a356',
  );
  assert.equal(shortenTo63('x'.repeat(70)), `${'x'.repeat(52)}-c71bd10922`);
});

test('a tracking key is part of the name, so two pools get two Jobs', () => {
  const worker = hookJobName(UJ, 'maintenance-silence', 'MachineConfigPoolUnpause', 'worker');
  const infra = hookJobName(UJ, 'maintenance-silence', 'MachineConfigPoolUnpause', 'infra');
  assert.equal(worker, 'cluster-upgrade-4-15-3-1700000000-maintenance-silenc-1e71bba5b9');
  assert.equal(infra, 'cluster-upgrade-4-15-3-1700000000-maintenance-silenc-f40ee75bfd');
  assert.equal(
    hookJobName('uj', 'h', 'MachineConfigPoolUnpause', 'worker'),
    'uj-h-machineconfigpoolunpause-worker-hook',
  );
  assert.equal(hookJobName('uj', 'h', 'MachineConfigPoolUnpause', ''), 'uj-h-machineconfigpoolunpause-hook');
});

test('the Job: name, namespace, the four labels over the template labels, annotations, finalizer, owner', () => {
  const h = hook('notify', {
    template: {
      metadata: {
        labels: { team: 'ops', [`upgradejobs.managedupgrade.appuio.io/event`]: 'overridden' },
        annotations: { note: 'x' },
        name: 'ignored',
      },
      spec: {
        backoffLimit: 3,
        ttlSecondsAfterFinished: 43200,
        template: {
          spec: {
            containers: [{ name: 'notify', image: 'curl', env: [{ name: 'OWN', value: '1' }] }],
            initContainers: [{ name: 'init', image: 'busybox' }],
            restartPolicy: 'Never',
          },
        },
      },
    },
  });
  const env = [
    { name: 'EVENT', value: '{}' },
    { name: 'EVENT_name', value: '"Create"' },
  ];
  const job = buildHookJob({ upgradeJob: upgradeJob(), hook: h, event: 'Create', env });
  assert.deepEqual(job.metadata, {
    name: 'cluster-upgrade-4-15-3-1700000000-notify-create-hook',
    namespace: 'appuio-openshift-upgrade-controller',
    labels: {
      team: 'ops',
      'upgradejobs.managedupgrade.appuio.io/upgradejobhook': 'notify',
      'upgradejobs.managedupgrade.appuio.io/upgradejobk': UJ,
      'upgradejobs.managedupgrade.appuio.io/event': 'Create',
      'upgradejobs.managedupgrade.appuio.io/tracking-key': '',
    },
    annotations: { note: 'x' },
    finalizers: [HOOK_JOB_TRACKER_FINALIZER],
    ownerReferences: [
      {
        apiVersion: 'managedupgrade.appuio.io/v1beta1',
        kind: 'UpgradeJob',
        name: UJ,
        uid: 'uid-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  });
  assert.equal(HOOK_JOB_TRACKER_FINALIZER, 'upgradejobs.managedupgrade.appuio.io/hook-job-tracker');
  assert.equal(job.apiVersion, 'batch/v1');
  assert.equal(job.kind, 'Job');
  assert.equal(job.spec?.backoffLimit, 3);
  assert.equal(job.spec?.ttlSecondsAfterFinished, 43200);
  const pod = job.spec?.template.spec;
  assert.deepEqual(pod?.containers[0]?.env, [{ name: 'OWN', value: '1' }, ...env]);
  assert.deepEqual(pod?.initContainers?.[0]?.env, env);
  assert.equal(pod?.restartPolicy, 'Never');
  // The hook's template is not touched.
  assert.deepEqual(h.spec?.template?.spec?.template.spec?.containers[0]?.env, [{ name: 'OWN', value: '1' }]);
});

test('no annotations and no initContainers in the template: none on the Job', () => {
  const job = buildHookJob({
    upgradeJob: upgradeJob(),
    hook: hook('notify'),
    event: 'Start',
    env: [{ name: 'A', value: '1' }],
  });
  assert.equal(job.metadata?.annotations, undefined);
  assert.equal(job.spec?.template.spec?.initContainers, undefined);
  assert.deepEqual(job.spec?.template.spec?.containers[0]?.env, [{ name: 'A', value: '1' }]);
});

test('the pool is the tracking-key label and part of the name', () => {
  const job = buildHookJob({
    upgradeJob: upgradeJob({ name: 'cu-1700000000' }),
    hook: hook('h'),
    event: 'MachineConfigPoolUnpause',
    trackingKey: 'worker',
    env: [],
  });
  assert.equal(job.metadata?.name, 'cu-1700000000-h-machineconfigpoolunpause-worker-hook');
  assert.equal(job.metadata?.labels?.['upgradejobs.managedupgrade.appuio.io/tracking-key'], 'worker');
});

test('names longer than 63 characters: shortened label values, full values in annotations, read back whole', () => {
  const longJob = `a-very-long-upgrade-config-name-for-the-production-cluster-4-15-3-1700000000`;
  const longHook = `h-${'x'.repeat(70)}`;
  const job = buildHookJob({
    upgradeJob: upgradeJob({ name: longJob }),
    hook: hook(longHook),
    event: 'Create',
    env: [],
  });
  const labels = job.metadata?.labels ?? {};
  for (const v of Object.values(labels)) assert.ok(v.length <= 63, v);
  assert.equal(labels['upgradejobs.managedupgrade.appuio.io/upgradejobk'], shortenTo63(longJob));
  assert.deepEqual(job.metadata?.annotations, {
    'upgradejobs.managedupgrade.appuio.io/upgradejobhook': longHook,
    'upgradejobs.managedupgrade.appuio.io/upgradejobk': longJob,
  });
  assert.deepEqual(hookRunKeyOf(job), { upgradeJob: longJob, hook: longHook, event: 'Create', trackingKey: '' });
  assert.equal(hookJobsSelector(longJob), `upgradejobs.managedupgrade.appuio.io/upgradejobk=${shortenTo63(longJob)}`);
  assert.equal(hookJobsSelector(UJ), `upgradejobs.managedupgrade.appuio.io/upgradejobk=${UJ}`);
});

test('hookRunKeyOf: missing tracking-key label reads as empty; missing other labels → undefined', () => {
  const labels = hookJobLabels({ upgradeJob: UJ, hook: 'h', event: 'Start', trackingKey: '' });
  delete labels['upgradejobs.managedupgrade.appuio.io/tracking-key'];
  assert.deepEqual(hookRunKeyOf({ metadata: { labels } }), {
    upgradeJob: UJ,
    hook: 'h',
    event: 'Start',
    trackingKey: '',
  });
  assert.equal(
    hookRunKeyOf({ metadata: { labels: { 'upgradejobs.managedupgrade.appuio.io/upgradejobk': UJ } } }),
    undefined,
  );
  assert.equal(hookRunKeyOf({}), undefined);
});

const dnsName = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,80}[a-z0-9])?$/);

test('property: names are deterministic, at most 63 characters, and distinct per tracking key', () => {
  fc.assert(
    fc.property(
      dnsName,
      dnsName,
      fc.constantFrom<('Create' | 'Start' | 'MachineConfigPoolUnpause')[]>(
        'Create',
        'Start',
        'MachineConfigPoolUnpause',
      ),
      dnsName,
      dnsName,
      (uj, h, event, k1, k2) => {
        const a = hookJobName(uj, h, event, k1);
        assert.ok(a.length <= 63);
        assert.equal(hookJobName(uj, h, event, k1), a);
        if (k1 !== k2) assert.notEqual(hookJobName(uj, h, event, k2), a);
      },
    ),
  );
});
