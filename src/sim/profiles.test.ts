import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haCloudProfile } from './profiles.js';

test('ha-cloud profile: 3 masters and 3 workers over three zones, one worker MachineSet per zone', () => {
  const p = haCloudProfile();
  assert.equal(p.nodes.filter((n) => n.role === 'master').length, 3);
  assert.equal(p.nodes.filter((n) => n.role === 'worker').length, 3);
  assert.deepEqual(new Set(p.nodes.map((n) => n.zone)).size, 3);
  for (const n of p.nodes) {
    assert.equal(n.labels[`node-role.kubernetes.io/${n.role}`], '');
    assert.equal(n.labels['kubernetes.io/hostname'], n.name);
    assert.equal(n.labels['topology.kubernetes.io/zone'], n.zone);
  }
  assert.deepEqual(p.machineSets.map((m) => m.zone).sort(), p.nodes.filter((n) => n.role === 'worker').map((n) => n.zone).sort());
});
