/**
 * The shipped alerts (src/api/deploy/alert-rules.ts) under the real `promtool test rules`: each
 * fires on its input at the right time, not before its `for`, and not on the inputs where it must
 * not (alert-cases.test-support.ts). Also: every alert has severity, summary, description and a
 * runbook_url whose anchor is a section of docs/runbooks.md; the committed promtool files and
 * rules files are what the builders give. Set WRITE_ALERT_TESTS=1 to rewrite the promtool files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  RUNBOOK_BASE_URL,
  isAlertRule,
  managedUpgradeRuleGroup,
  scheduledUpgradeRuleGroup,
  shippedRuleGroups,
} from '../../src/api/deploy/alert-rules.js';
import { renderRuleFiles } from '../../src/api/manifests.js';
import { MANAGED_CASES, SCHEDULED_CASES, renderPromtoolTests } from './alert-cases.test-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = join(ROOT, 'test/alerts');

const FILES = [
  { file: 'managed-upgrade.promtool.yaml', group: managedUpgradeRuleGroup(), cases: MANAGED_CASES },
  { file: 'scheduled-upgrade.promtool.yaml', group: scheduledUpgradeRuleGroup(), cases: SCHEDULED_CASES },
];

function rendered(f: (typeof FILES)[number]): string {
  return renderPromtoolTests(f.group, `../../deploy/prometheus/${f.group.name}.rules.yaml`, f.cases);
}

/** GitHub's heading anchors: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6} (.+)$/gm))
    out.add(
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  return out;
}

void test('the committed rules files and promtool test files are the generated ones', () => {
  for (const [name, text] of renderRuleFiles())
    assert.equal(
      readFileSync(join(ROOT, 'deploy/prometheus', name), 'utf8'),
      text,
      `deploy/prometheus/${name} is stale: run \`npm run manifests\``,
    );
  for (const f of FILES) {
    if (process.env['WRITE_ALERT_TESTS'] === '1') writeFileSync(join(HERE, f.file), rendered(f));
    assert.equal(
      readFileSync(join(HERE, f.file), 'utf8'),
      rendered(f),
      `test/alerts/${f.file} is stale: run WRITE_ALERT_TESTS=1 node scripts/run-tests.mjs test/alerts`,
    );
  }
});

void test('every alert has severity, summary, description and a runbook_url to its section of docs/runbooks.md, and test cases', () => {
  const runbooks = anchors(readFileSync(join(ROOT, 'docs/runbooks.md'), 'utf8'));
  const cases = new Map([...MANAGED_CASES, ...SCHEDULED_CASES].map((c) => [c.alert, c]));
  const seen = new Set<string>();
  for (const group of shippedRuleGroups())
    for (const rule of group.rules.filter(isAlertRule)) {
      assert.ok(!seen.has(rule.alert), `${rule.alert} is unique`);
      seen.add(rule.alert);
      assert.ok(['critical', 'warning', 'info'].includes(rule.labels.severity), rule.alert);
      assert.ok(rule.annotations.summary.length > 0 && rule.annotations.description.length > 0, rule.alert);
      const [base, anchor] = rule.annotations.runbook_url.split('#');
      assert.equal(base, RUNBOOK_BASE_URL, rule.alert);
      assert.ok(runbooks.has(anchor!), `docs/runbooks.md has a section #${anchor} for ${rule.alert}`);
      const c = cases.get(rule.alert);
      assert.ok(c, `${rule.alert} has test cases`);
      assert.ok(c.never.length > 0, `${rule.alert} has a case where it must not fire`);
    }
  assert.deepEqual([...cases.keys()].sort(), [...seen].sort(), 'a case for every alert and an alert for every case');
});

void test('promtool test rules passes for every shipped alert', () => {
  const r = spawnSync('promtool', ['test', 'rules', ...FILES.map((f) => join(HERE, f.file))], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /SUCCESS/);
});
