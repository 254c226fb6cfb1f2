import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_UPGRADE_SPEC_SOURCE } from '../cluster-version/cluster-version-state.js';
import { configName, desiredVersion } from './step-context.js';
import { CLUSTER_ID, CONFIG_NAME, DESIRED, T0, clusterVersion, fakeStepContext } from './step-context.test-support.js';
import { commenced, stamp } from './step-support.js';

const IMAGE = 'quay.io/openshift-release-dev/ocp-release@sha256:0123';

void test('commenced: false without a cached ClusterVersion, and while the CVO is told another version', () => {
  assert.equal(commenced(fakeStepContext({ cluster: { clusterVersion: undefined } }).ctx), false);
  assert.equal(commenced(fakeStepContext().ctx), false, 'desiredUpdate is still the running version');
  assert.equal(
    commenced(
      fakeStepContext({ cluster: { clusterVersion: clusterVersion({ desiredUpdate: { version: '4.15.37' } }) } }).ctx,
    ),
    false,
  );
});

void test('commenced: version mode is true once the CVO’s desiredUpdate names the desired version', () => {
  const cv = clusterVersion({ desiredUpdate: { version: DESIRED } });
  assert.equal(commenced(fakeStepContext({ cluster: { clusterVersion: cv } }).ctx), true);
});

void test('commenced: image mode compares the image only, whatever the version says', () => {
  const spec = { desired: { image: IMAGE, version: DESIRED, channel: 'stable-4.15' } };
  const byVersion = clusterVersion({ desiredUpdate: { version: DESIRED, image: 'quay.io/other@sha256:9' } });
  assert.equal(commenced(fakeStepContext({ spec, cluster: { clusterVersion: byVersion } }).ctx), false);
  const byImage = clusterVersion({ desiredUpdate: { version: '', image: IMAGE } });
  assert.equal(commenced(fakeStepContext({ spec, cluster: { clusterVersion: byImage } }).ctx), true);
});

void test('commenced: a spec with a version but no channel (and no image) throws MUO’s error', () => {
  const { ctx } = fakeStepContext({ spec: { desired: { version: DESIRED } } });
  assert.throws(() => commenced(ctx), { message: NO_UPGRADE_SPEC_SOURCE });
});

void test('stamp: sets the lifecycle gauge to the clock’s whole second, labelled with cluster ID, name and version', async () => {
  const fake = fakeStepContext({ now: T0 + 1_999 });
  stamp(fake.ctx, 'controlplane_upgrade_started');
  assert.deepEqual(await fake.series('upgradeoperator_controlplane_upgrade_started_timestamp'), [
    { labels: { _id: CLUSTER_ID, upgradeconfig_name: CONFIG_NAME, version: DESIRED }, value: T0 / 1000 + 1 },
  ]);
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_started_timestamp'), [], 'only the kind named');
});

void test('stamp: without a cached ClusterVersion the cluster ID is `unknown`', async () => {
  const fake = fakeStepContext({ cluster: { clusterVersion: undefined } });
  stamp(fake.ctx, 'upgrade_completed');
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_completed_timestamp'), [
    { labels: { _id: 'unknown', upgradeconfig_name: CONFIG_NAME, version: DESIRED }, value: T0 / 1000 },
  ]);
});

void test('configName and desiredVersion read the UpgradeConfig; an image-only spec has no desired version', () => {
  const { ctx } = fakeStepContext();
  assert.deepEqual([configName(ctx), desiredVersion(ctx)], [CONFIG_NAME, DESIRED]);
  assert.equal(desiredVersion(fakeStepContext({ spec: { desired: { image: IMAGE } } }).ctx), '');
});
