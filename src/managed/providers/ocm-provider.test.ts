import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntegrationError } from '../../integrations/integration-error.js';
import type { OcmApi } from '../../integrations/ocm-client.js';
import type { OcmPolicyState, OcmUpgradePolicy } from '../../integrations/ocm-model.js';
import { OcmPolicyProvider, PolicyProviderError } from './ocm-provider.js';

function fakeOcm(
  policies: OcmUpgradePolicy[],
  states: Record<string, string>,
  options: { cluster?: boolean; fail?: IntegrationError } = {},
): OcmApi & { stateReads: string[] } {
  const stateReads: string[] = [];
  return {
    api: 'ocm',
    stateReads,
    findCluster: async () =>
      options.cluster === false
        ? undefined
        : {
            id: 'c1',
            externalId: 'e1',
            version: '4.14.10',
            channelGroup: 'eus',
            nodeDrainGracePeriod: { value: 2, unit: 'hours' },
          },
    upgradePolicies: async () => {
      if (options.fail) throw options.fail;
      return policies;
    },
    policyState: async (_c, id): Promise<OcmPolicyState> => {
      stateReads.push(id);
      return { value: states[id] ?? 'scheduled', description: '' };
    },
    setPolicyState: async (_c, _p, s) => s,
    postServiceLog: async () => undefined,
    close: async () => undefined,
  };
}

const p = (id: string, version: string, nextRun: string): OcmUpgradePolicy => ({
  id,
  version,
  nextRun,
  scheduleType: 'manual',
  upgradeType: 'OSD',
});
const signal = new AbortController().signal;

test('the earliest actionable policy wins; later ones are not even read', async () => {
  const ocm = fakeOcm(
    [
      p('late', '4.15.9', '2026-05-01T00:00:00Z'),
      p('done', '4.14.11', '2026-03-01T00:00:00Z'),
      p('next', '4.15.3', '2026-04-01T00:00:00Z'),
      p('empty', '', '2026-02-01T00:00:00Z'),
    ],
    { done: 'completed' },
  );
  const provider = new OcmPolicyProvider({ ocm, externalId: async () => 'e1', upgradeType: 'ARO' });
  assert.deepEqual(await provider.specs(undefined, signal), [
    {
      desired: { version: '4.15.3', channel: 'eus-4.16' },
      upgradeAt: '2026-04-01T00:00:00Z',
      PDBForceDrainTimeout: 120,
      type: 'ARO',
      capacityReservation: true,
    },
  ]);
  assert.deepEqual(ocm.stateReads, ['done', 'next']);
});

test('no actionable policy: no spec; unknown cluster: ClusterNotFound; OCM failure: ProviderUnavailable', async () => {
  const none = new OcmPolicyProvider({
    ocm: fakeOcm([p('x', '4.15.3', '2026-04-01T00:00:00Z')], { x: 'pending' }),
    externalId: async () => 'e1',
    upgradeType: 'OSD',
  });
  assert.deepEqual(await none.specs(undefined, signal), []);
  const lost = new OcmPolicyProvider({
    ocm: fakeOcm([], {}, { cluster: false }),
    externalId: async () => 'e1',
    upgradeType: 'OSD',
  });
  await assert.rejects(
    lost.specs(undefined, signal),
    (e: unknown) =>
      e instanceof PolicyProviderError &&
      e.reason === 'ClusterNotFound' &&
      /pull-secret may be invalid/.test(e.message),
  );
  const down = new OcmPolicyProvider({
    ocm: fakeOcm([], {}, { fail: new IntegrationError('ocm', 'HttpStatus', 'GET x: HTTP 503', { status: 503 }) }),
    externalId: async () => 'e1',
    upgradeType: 'OSD',
  });
  await assert.rejects(
    down.specs(undefined, signal),
    (e: unknown) =>
      e instanceof PolicyProviderError && e.reason === 'ProviderUnavailable' && e.message === 'ocm: GET x: HTTP 503',
  );
});

test('the earliest actionable policy with a version that is not semantic: no spec, InvalidPolicy saying why (as MUO)', async () => {
  const ocm = fakeOcm(
    [p('later', '4.15.3', '2026-05-01T00:00:00Z'), p('crash', 'crashme', '2026-04-01T00:00:00Z')],
    {},
  );
  const provider = new OcmPolicyProvider({ ocm, externalId: async () => 'e1', upgradeType: 'OSD' });
  await assert.rejects(
    provider.specs(undefined, signal),
    (e: unknown) =>
      e instanceof PolicyProviderError &&
      e.reason === 'InvalidPolicy' &&
      e.message.startsWith(
        "unable to determine channel from channel group 'eus' and version 'crashme' for policy ID 'crash': \"crashme\" is not a semantic version",
      ),
  );
  // A policy that asks for nothing is not looked at (MUO checks actionability first).
  const done = fakeOcm([p('crash', 'crashme', '2026-04-01T00:00:00Z')], { crash: 'completed' });
  const idle = new OcmPolicyProvider({ ocm: done, externalId: async () => 'e1', upgradeType: 'OSD' });
  assert.deepEqual(await idle.specs(undefined, signal), []);
});
