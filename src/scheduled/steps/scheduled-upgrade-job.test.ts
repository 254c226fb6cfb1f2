import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { buildScheduledUpgradeJob, upgradeJobName } from './scheduled-upgrade-job.js';

const T = Date.parse('2024-03-05T21:00:00Z');

void test('names are <config>-<x-y-z>-<unix> or <config>-noop-<unix>', () => {
  assert.equal(upgradeJobName('cluster-upgrade', '4.15.3', T), `cluster-upgrade-4-15-3-${T / 1000}`);
  assert.equal(upgradeJobName('cluster-upgrade', undefined, T + 999), `cluster-upgrade-noop-${T / 1000}`);
  assert.equal(upgradeJobName('c', '4.16.0-rc.1', T), `c-4-16-0-rc-1-${T / 1000}`);
  // Characters a Kubernetes name refuses become dashes (APPUiO would fail to create these).
  assert.equal(upgradeJobName('c', '4.16.0-RC.1+build', T), `c-4-16-0-rc-1-build-${T / 1000}`);
});

const config: ScheduledUpgradeConfig = {
  apiVersion: 'managedupgrade.appuio.io/v1beta1',
  kind: 'UpgradeConfig',
  metadata: { name: 'weekly', namespace: 'appuio-upgrade', uid: 'uid-1', labels: { ignored: 'yes' } },
  spec: {
    schedule: { cron: '0 22 * * 2', location: 'Europe/Zurich' },
    maxSchedulingDelay: '1h',
    maxUpgradeStartDelay: '2h',
    jobTemplate: {
      metadata: { name: 'ignored', labels: { team: 'ops' }, annotations: { note: 'x' }, finalizers: ['ignored'] },
      spec: {
        config: {
          upgradeTimeout: '12h',
          preUpgradeHealthChecks: { timeout: '1h' },
          postUpgradeHealthChecks: { timeout: '1h', skipDegradedOperatorsCheck: true },
        },
      },
    },
  },
};

void test('the job: owner, template labels and annotations only, times, desired version and config', () => {
  const job = buildScheduledUpgradeJob(config, {
    startAfterMs: T,
    startBeforeMs: T + 2 * 3_600_000,
    release: { version: '4.15.3', image: 'quay.io/r@sha256:1', url: 'https://x', channels: ['stable-4.15'] },
  });
  assert.deepEqual(job, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: {
      name: `weekly-4-15-3-${T / 1000}`,
      namespace: 'appuio-upgrade',
      labels: { team: 'ops' },
      annotations: { note: 'x' },
      ownerReferences: [
        {
          apiVersion: 'managedupgrade.appuio.io/v1beta1',
          kind: 'UpgradeConfig',
          name: 'weekly',
          uid: 'uid-1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      startAfter: '2024-03-05T21:00:00Z',
      startBefore: '2024-03-05T23:00:00Z',
      desiredVersion: { version: '4.15.3', image: 'quay.io/r@sha256:1' },
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '1h' },
        postUpgradeHealthChecks: { timeout: '1h', skipDegradedOperatorsCheck: true },
      },
    },
  });
  assert.notEqual(job.spec?.config, config.spec.jobTemplate.spec.config, 'the config is copied, not shared');
});

void test('a noop job has no desiredVersion; no template metadata means no labels', () => {
  const bare = { ...config, spec: { ...config.spec, jobTemplate: { spec: config.spec.jobTemplate.spec } } };
  const job = buildScheduledUpgradeJob(bare, { startAfterMs: T, startBeforeMs: T + 3_600_000 });
  assert.equal(job.metadata?.name, `weekly-noop-${T / 1000}`);
  assert.equal(job.spec?.desiredVersion, undefined);
  assert.equal(job.metadata?.labels, undefined);
  assert.equal(job.metadata?.annotations, undefined);
});
