import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readUpgradeReport } from './upgrade-report.js';
import { ms, sampleReport } from './report-fixture.test-support.js';

void test('a simulate report reads with its origin from the transitions and its end from virtualMinutes', () => {
  const read = readUpgradeReport(sampleReport());
  assert.ok(read.ok);
  assert.equal(read.report.originMs, ms(0));
  assert.equal(read.report.endMs, ms(60));
  assert.equal(read.report.scenario, 'sample');
  assert.equal(read.report.seed, 3);
  assert.equal(read.report.operatorStates.length, 4);
  assert.equal(read.report.final.nodes.length, 1);
});

void test('a report of before operatorStates and windows still reads: those lanes are empty', () => {
  const { operatorStates: _s, windows: _w, conditions: _c, ...older } = sampleReport();
  const read = readUpgradeReport(older);
  assert.ok(read.ok);
  assert.deepEqual(read.report.operatorStates, []);
  assert.deepEqual(read.report.windows, []);
});

void test('what is not a simulate report is refused with what is wrong', () => {
  assert.deepEqual(readUpgradeReport([1, 2]), {
    ok: false,
    problem: 'the report must be a JSON object (simulate -o json)',
  });
  const list = readUpgradeReport({ scenarios: [{ name: 'x' }] });
  assert.ok(!list.ok && list.problem.includes('no "transitions" array and "final" object'), JSON.stringify(list));
  const bad = readUpgradeReport({
    ...sampleReport(),
    alerts: 'none',
    virtualMinutes: 'long',
    final: { nodes: [null], machineConfigPools: {} },
  });
  assert.ok(!bad.ok);
  assert.match(bad.problem, /"alerts" must be an array/);
  assert.match(bad.problem, /"virtualMinutes" must be a number of minutes/);
  assert.match(
    bad.problem,
    /"final\.machineConfigPools" must be an array of objects; "final\.nodes" must be an array of objects/,
  );
  const timeless = readUpgradeReport({ ...sampleReport(), transitions: [], operatorStates: [] });
  assert.ok(!timeless.ok && timeless.problem.includes('has an "at" time and an "elapsedMs"'));
});
