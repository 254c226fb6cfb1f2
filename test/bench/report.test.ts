import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReport, type MachineFacts } from './report.js';
import { verdictLine, type BenchResult } from './result.js';

const machine: MachineFacts = {
  date: '2025-01-06T09:00:00.000Z',
  node: 'v20.19.0',
  platform: 'linux x64',
  cpuModel: 'Test CPU',
  cores: 2,
  totalMemoryBytes: 4 * 2 ** 30,
  durationS: 42,
  loadStart: [0.5, 0.4, 0.3],
  loadEnd: [1, 0.5, 0.25],
};

function result(pass: boolean): BenchResult {
  return {
    id: 'list',
    title: 'List 10,000 objects',
    method: 'Lists things.',
    target: '≤ 100 ms',
    result: '23.1 ms median',
    pass,
    measurements: [{ label: 'a | b', value: '1' }],
    memory: [
      {
        process: 'API server',
        when: 'after',
        memory: { rss: 100 * 2 ** 20, heapUsed: 50 * 2 ** 20, maxRss: 120 * 2 ** 20, gc: true },
      },
    ],
    notes: ['a note'],
  };
}

test('verdict line', () => {
  assert.equal(verdictLine(result(true)), 'PASS list: 23.1 ms median (target ≤ 100 ms)');
  assert.equal(verdictLine(result(false)), 'FAIL list: 23.1 ms median (target ≤ 100 ms)');
});

test('report: machine facts, summary, sections, escaped cells', () => {
  const md = renderReport([result(true)], machine);
  assert.match(md, /^# Benchmarks/);
  assert.match(md, /\| Node\.js \| v20\.19\.0 \|/);
  assert.match(md, /\| Cores \| 2 \|/);
  assert.match(md, /\| Memory \| 4\.0 GiB \|/);
  assert.match(md, /Every target is met\./);
  assert.match(md, /\| List 10,000 objects \| ≤ 100 ms \| 23\.1 ms median \| PASS \|/);
  assert.match(md, /\| a \\\| b \| 1 \|/);
  assert.match(
    md,
    /RSS of API server, after \| 100\.0 MiB \(heap used 50\.0 MiB, peak RSS 120\.0 MiB, after full GC\)/,
  );
  assert.match(md, /- a note/);
  assert.match(md, /\| Load average \(1 \/ 5 \/ 15 min\), end \| 1\.00 \/ 0\.50 \/ 0\.25 \|/);
  assert.doesNotMatch(md, /busy with other work/);
});

test('report: the hand-written analysis is appended when given', () => {
  assert.match(
    renderReport([result(false)], machine, 'The cause is X.\n'),
    /## Analysis\n\n_Written by hand[^\n]*\n\nThe cause is X\.\n/,
  );
  assert.doesNotMatch(renderReport([result(false)], machine, '  '), /Analysis/);
});

test('report: a busy machine is called out', () => {
  const md = renderReport([result(true)], { ...machine, loadEnd: [5.5, 3, 2] });
  assert.match(md, /busy with other work during this run \(1-minute load average up to 5\.5 on 2 cores\)/);
});

test('report: a missed target is called out', () => {
  const md = renderReport([result(true), { ...result(false), id: 'watch', title: 'Watch' }], machine);
  assert.match(md, /\*\*1 target\(s\) missed\.\*\*/);
  assert.match(md, /\| Watch \| ≤ 100 ms \| 23\.1 ms median \| \*\*FAIL\*\* \|/);
});

test('report: the side-by-side with an external API server has its section, "not run" by default', () => {
  assert.match(
    renderReport([result(true)], machine),
    /## Side by side with an external API server\n\nNot run: `BENCH_KUBECONFIG` was not set/,
  );
  const md = renderReport(
    [
      {
        ...result(true),
        sideBySide: { method: 'Same.', rows: [{ label: 'm', unit: 'ms', embedded: 1, external: 3 }], notes: [] },
      },
    ],
    machine,
    undefined,
    { state: 'used', kubeconfig: 'kc', server: 'https://k:6443', version: 'v1.31.0', namespace: 'ns' },
  );
  assert.match(md, /\| List 10,000 objects \| m \| 1\.0 ms \| 3\.0 ms \| 3\.0× faster \|/);
  assert.match(md, /## List 10,000 objects[\s\S]*\*\*Side by side with the external API server\.\*\* Same\./);
});
