/**
 * docs/metrics.md stays true: its rules block is valid for Prometheus' own parser, and every
 * family it documents exists with that name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { ManagedUpgradeMetrics } from './managed-upgrade-metrics.js';
import { ManagedUpgradeCollector } from './managed-upgrade-collector.js';
import { parseExposition } from './exposition.test-support.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/metrics.md', import.meta.url)), 'utf8');

test('the alerting examples in docs/metrics.md pass promtool check rules', () => {
  const block = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'rules block present');
  const dir = mkdtempSync(join(tmpdir(), 'metrics-doc-'));
  try {
    const file = join(dir, 'rules.yaml');
    writeFileSync(file, block);
    const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every family exposed is documented, and every documented family is exposed', async () => {
  const gauges = new Registry();
  const custom = new Registry();
  new ManagedUpgradeMetrics(gauges);
  new ManagedUpgradeCollector(custom, () => ({}));
  const exposed = [...parseExposition(await gauges.metrics()).keys(), ...parseExposition(await custom.metrics()).keys()];
  for (const name of exposed) {
    const conditionX = /^managed_upgrade_condition_(.+)_timestamp$/.exec(name)?.[1];
    if (conditionX) assert.ok(doc.includes(`\`${conditionX}\``), name);
    else assert.ok(doc.includes(`\`${name}\``), name);
  }
  const documented = new Set([...doc.matchAll(/^\| `((?:upgradeoperator|upgrade|managed_upgrade)_[a-z_]+)`/gm)].map((m) => m[1]!));
  for (const name of documented) {
    if (name !== 'managed_upgrade_condition_') assert.ok(exposed.includes(name), name);
  }
  assert.ok(documented.size >= 20);
});
