import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { capacityReservationUnknown, checkCapacityReservation, isWorkerPoolMachineSet } from './capacity.js';

function ms(name: string, namespace: string, pool?: string): MachineSet {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace, ...(pool ? { labels: { 'hive.openshift.io/machine-pool': pool } } : {}) },
    spec: { selector: {} },
  };
}

test('checkCapacityReservation: a worker-pool MachineSet in openshift-machine-api passes', () => {
  assert.equal(isWorkerPoolMachineSet(ms('w', 'openshift-machine-api', 'worker')), true);
  assert.deepEqual(
    checkCapacityReservation([
      ms('infra', 'openshift-machine-api', 'infra'),
      ms('w', 'openshift-machine-api', 'worker'),
    ]),
    {
      check: 'capacity-reservation',
      healthy: true,
    },
  );
});

test('checkCapacityReservation: none (other pools, other namespace, unlabelled) fails with MUO reason and text', () => {
  const r = checkCapacityReservation([
    ms('a', 'openshift-machine-api', 'non-serving-a'),
    ms('b', 'elsewhere', 'worker'),
    ms('c', 'openshift-machine-api'),
  ]);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'capacity-reservation',
    metricReason: 'default_worker_machinepool_not_found',
    muoText: 'CapacityReservationHealthcheckFailed',
    message:
      'capacity reservation is requested but no MachineSet in openshift-machine-api is labelled hive.openshift.io/machine-pool=worker, so no extra worker can be added',
    blocking: false,
  });
  const u = capacityReservationUnknown(new Error('boom'));
  assert.ok(!u.healthy);
  assert.deepEqual(
    [u.failure.metricReason, u.failure.message],
    ['default_worker_machinepool_not_found', 'unable to list MachineSets: boom'],
  );
});
