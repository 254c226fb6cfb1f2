import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { ManagedClusterVersion } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import { silentLogger } from '../../lib/log.js';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';
import {
  ClusterVersionCollector,
  ClusterVersionMetricName as N,
  clusterVersionSeries,
} from './cluster-version-metrics.js';

const ID = '9f6e0f0e-5c1d-4a4c-8d0b-0e6a2b0c0f11';

function managed(): ManagedClusterVersion {
  return {
    metadata: { name: 'version', namespace: 'appuio-openshift-upgrade-controller' },
    spec: { template: { spec: { clusterID: ID, channel: 'stable-4.15' } } },
    status: {
      current: {
        clusterID: ID,
        channel: 'stable-4.15',
        upstream: 'https://updates.example.com/graph',
        capabilities: { baselineCapabilitySet: 'v4.14' },
      },
      overlays: [
        {
          from: '2024-06-01T00:00:00+02:00',
          preview: { spec: { clusterID: ID, channel: 'stable-4.16', upstream: 'https://updates.example.com/graph' } },
        },
        { from: 'never', preview: { spec: { clusterID: ID, channel: 'stable-4.17' } } },
        { from: '2024-09-01T12:00:00.75Z', preview: {} },
      ],
    },
  };
}

void test('series: info from status.current, one overlay series per parsable from, valued at from', () => {
  const s = clusterVersionSeries(managed());
  assert.deepEqual(s.get(N.info), [
    {
      labels: {
        cluster_version: 'version',
        baseline_capability_set: 'v4.14',
        channel: 'stable-4.15',
        cluster_id: ID,
        upstream: 'https://updates.example.com/graph',
      },
      value: 1,
    },
  ]);
  assert.deepEqual(s.get(N.overlay), [
    {
      labels: {
        cluster_version: 'version',
        from: '2024-05-31T22:00:00Z',
        baseline_capability_set: '',
        channel: 'stable-4.16',
        cluster_id: ID,
        upstream: 'https://updates.example.com/graph',
      },
      value: 1717192800,
    },
    {
      labels: {
        cluster_version: 'version',
        from: '2024-09-01T12:00:00Z',
        baseline_capability_set: '',
        channel: '',
        cluster_id: '',
        upstream: '',
      },
      value: 1725192000,
    },
  ]);
});

void test('series: no object, no series; an object without status, empty spec labels', () => {
  const none = clusterVersionSeries(undefined);
  assert.deepEqual(none.get(N.info), []);
  assert.deepEqual(none.get(N.overlay), []);
  const bare = clusterVersionSeries({ metadata: { name: 'version' } });
  assert.deepEqual(bare.get(N.info), [
    {
      labels: { cluster_version: 'version', baseline_capability_set: '', channel: '', cluster_id: '', upstream: '' },
      value: 1,
    },
  ]);
  assert.deepEqual(bare.get(N.overlay), []);
});

void test('collector: the two families at scrape time; a throwing source gives no series', async () => {
  const registry = new Registry();
  let cv: ManagedClusterVersion | undefined = managed();
  let broken = false;
  new ClusterVersionCollector(
    registry,
    () => {
      if (broken) throw new Error('not found');
      return cv;
    },
    { log: silentLogger() },
  );
  const f = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) {
    assert.equal(f.get(name)?.type, 'gauge', name);
    assert.notEqual(f.get(name)?.help ?? '', '', name);
  }
  assert.equal(
    valueOf(f, N.info, {
      cluster_version: 'version',
      baseline_capability_set: 'v4.14',
      channel: 'stable-4.15',
      cluster_id: ID,
      upstream: 'https://updates.example.com/graph',
    }),
    1,
  );
  assert.equal(samplesOf(f, N.overlay).length, 2);

  cv = undefined;
  const gone = parseExposition(await registry.metrics());
  assert.deepEqual(samplesOf(gone, N.info), []);

  cv = managed();
  broken = true;
  const failed = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) assert.deepEqual(samplesOf(failed, name), [], name);
});
