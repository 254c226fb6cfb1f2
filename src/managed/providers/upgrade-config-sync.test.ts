import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  ManagedUpgradeConfig,
  ManagedUpgradeConfigSpec,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { SeededRandom } from '../../lib/random.js';
import { decideSync, nextSyncDelayMs, nominalSyncDelayMs } from './upgrade-config-sync.js';

const spec = (version: string, upgradeAt = '2026-04-01T12:00:00Z'): ManagedUpgradeConfigSpec => ({
  desired: { version, channel: 'stable-4.15' },
  upgradeAt,
  PDBForceDrainTimeout: 60,
  type: 'OSD',
  capacityReservation: true,
});
const cr = (s: ManagedUpgradeConfigSpec, phase?: UpgradeHistory['phase']): ManagedUpgradeConfig => ({
  metadata: { name: 'managed-upgrade-config', namespace: 'ns' },
  spec: s,
  ...(phase ? { status: { history: [{ version: s.desired.version ?? '', phase }] } } : {}),
});

test('decideSync: create, update in place, nothing when equal, delete when no policy', () => {
  assert.deepEqual(decideSync('OCM', undefined, [spec('4.15.3')]), { kind: 'create', spec: spec('4.15.3') });
  assert.equal(decideSync('OCM', cr(spec('4.15.3'), 'Pending'), [spec('4.15.3')]).kind, 'none');
  assert.deepEqual(decideSync('OCM', cr(spec('4.15.3'), 'Pending'), [spec('4.15.3', '2026-04-02T12:00:00Z')]), {
    kind: 'update',
    spec: spec('4.15.3', '2026-04-02T12:00:00Z'),
  });
  assert.equal(decideSync('OCM', cr(spec('4.15.3'), 'Failed'), [spec('4.15.4')]).kind, 'update');
  assert.deepEqual(decideSync('OCM', cr(spec('4.15.3'), 'New'), []), { kind: 'delete' });
  assert.deepEqual(decideSync('OCM', cr(spec('4.15.3')), []), { kind: 'delete' });
  assert.equal(decideSync('OCM', undefined, []).kind, 'none');
});

test('decideSync: an Upgrading or Upgraded UpgradeConfig is never removed; an Upgraded one takes the next policy in place', () => {
  for (const phase of ['Upgrading', 'Upgraded'] as const) {
    const d = decideSync('OCM', cr(spec('4.15.3'), phase), []);
    assert.equal(d.kind, 'keep', phase);
  }
  assert.equal(decideSync('OCM', cr(spec('4.15.3'), 'Upgrading'), [spec('4.15.4')]).kind, 'keep');
  assert.equal(decideSync('OCM', cr(spec('4.15.3'), 'Upgraded'), [spec('4.15.4')]).kind, 'update');
});

test('decideSync: LOCAL never writes', () => {
  assert.equal(decideSync('LOCAL', cr(spec('4.15.3'), 'Upgraded'), []).kind, 'none');
  assert.equal(decideSync('LOCAL', undefined, [spec('4.15.3')]).kind, 'none');
});

test('sync delays: 1 min first, then the watch interval, backoff 1 min doubling to 1 h; all ±10 %', () => {
  assert.equal(nominalSyncDelayMs({ kind: 'first' }), 60_000);
  assert.equal(nominalSyncDelayMs({ kind: 'succeeded', watchIntervalMs: 3_600_000 }), 3_600_000);
  assert.deepEqual(
    [1, 2, 3, 6, 7, 50].map((failures) => nominalSyncDelayMs({ kind: 'failed', failures })),
    [60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000],
  );
  assert.equal(nominalSyncDelayMs({ kind: 'notConfigured' }), 60_000);
  const random = new SeededRandom(9);
  const draws = Array.from({ length: 500 }, () =>
    nextSyncDelayMs({ kind: 'succeeded', watchIntervalMs: 600_000 }, random),
  );
  assert.ok(draws.every((d) => d >= 540_000 && d <= 660_000));
  assert.ok(Math.min(...draws) < 550_000 && Math.max(...draws) > 650_000, 'the jitter spans the range');
  const a = new SeededRandom(4);
  const b = new SeededRandom(4);
  assert.equal(nextSyncDelayMs({ kind: 'first' }, a), nextSyncDelayMs({ kind: 'first' }, b), 'seeded: reproducible');
});
