import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { poolFullyUpdated, poolPending, poolUpgrading, workerRollout } from './worker-pools.js';

function pool(
  name: string,
  machines: number,
  updated: number,
  options: {
    paused?: boolean;
    target?: string;
    current?: string;
    updatedCond?: boolean;
    gen?: number;
    observed?: number;
  } = {},
): MachineConfigPool {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name, generation: options.gen ?? 2 },
    spec: { paused: options.paused ?? false, configuration: { name: options.target ?? `rendered-${name}-b` } },
    status: {
      observedGeneration: options.observed ?? 2,
      configuration: { name: options.current ?? `rendered-${name}-b` },
      machineCount: machines,
      updatedMachineCount: updated,
      readyMachineCount: updated,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
      conditions: [
        {
          type: 'Updated',
          status: (options.updatedCond ?? machines === updated) ? 'True' : 'False',
          lastTransitionTime: null,
          reason: '',
          message: '',
        },
      ],
    },
  };
}

void test('MUO counts: upgrading and pending', () => {
  assert.equal(poolUpgrading(pool('worker', 3, 1)), true);
  assert.equal(poolPending(pool('worker', 3, 1)), 2);
  assert.equal(poolUpgrading(pool('worker', 3, 3)), false);
});

void test('fully updated needs the observed generation, the target config and Updated=True', () => {
  assert.equal(poolFullyUpdated(pool('worker', 3, 3)), true);
  assert.equal(poolFullyUpdated(pool('worker', 3, 3, { observed: 1 })), false, 'MCO has not seen the new target');
  assert.equal(poolFullyUpdated(pool('worker', 3, 3, { current: 'rendered-worker-a' })), false);
  assert.equal(poolFullyUpdated(pool('worker', 3, 3, { updatedCond: false })), false);
});

void test('worker rollout waits for every unpaused non-master pool', () => {
  const pools = [
    pool('master', 3, 3),
    pool('worker', 3, 3),
    pool('infra', 2, 1),
    pool('paused', 2, 0, { paused: true }),
  ];
  assert.deepEqual(workerRollout(pools), { done: false, pending: 1, notUpdated: ['infra'] });
  assert.deepEqual(workerRollout([pool('master', 3, 0), pool('worker', 2, 2)]), {
    done: true,
    pending: 0,
    notUpdated: [],
  });
});
