import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SecretResource } from '../../api/builtin.js';
import { EXTERNAL_ID, OCM_TOKEN } from '../../integrations/ocm-sim.test-support.js';
import { startOcmCluster } from './ocm-cluster.test-support.js';
import { ClusterCredentials, CREDENTIALS_TTL_MS, PULL_SECRET } from './ocm-credentials.js';

test('the credential comes from ClusterVersion and the pull-secret, is reused for a minute, and says what is missing', async (t) => {
  const f = await startOcmCluster(t);
  const { client, clock } = f.cluster;
  const creds = new ClusterCredentials(client, clock);
  assert.deepEqual(await creds.get(), { clusterId: EXTERNAL_ID, token: OCM_TOKEN });
  const rotated = Buffer.from(JSON.stringify({ auths: { 'cloud.openshift.com': { auth: 'rotated-token' } } })).toString(
    'base64',
  );
  await client.patch(
    SecretResource,
    PULL_SECRET.namespace,
    PULL_SECRET.name,
    { data: { '.dockerconfigjson': rotated } },
    { type: 'merge' },
  );
  assert.equal((await creds.get()).token, OCM_TOKEN, 'cached');
  await clock.run({ until: clock.now() + CREDENTIALS_TTL_MS });
  assert.equal((await creds.get()).token, 'rotated-token', 'a rotated pull-secret is picked up');
  await client.delete(SecretResource, PULL_SECRET.namespace, PULL_SECRET.name);
  creds.invalidate();
  await assert.rejects(creds.get(), /Secret openshift-config\/pull-secret not found/);
});
