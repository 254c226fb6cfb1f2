import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BenchResult, SideBySideRow } from './result.js';
import {
  describeSpeedup,
  embeddedSpeedup,
  pairFigures,
  renderSideBySideOfBench,
  renderSideBySideSection,
  sideBySideConsoleLines,
} from './side-by-side.js';

const ms = (embedded: number, external: number): SideBySideRow => ({ label: 't', unit: 'ms', embedded, external });
const rate = (embedded: number, external: number): SideBySideRow => ({ label: 'r', unit: 'per-s', embedded, external });

function bench(sideBySide?: BenchResult['sideBySide']): BenchResult {
  return {
    id: 'list',
    title: 'LIST of 10,000 objects',
    method: 'Lists.',
    target: '≤ 100 ms',
    result: '20 ms',
    pass: true,
    measurements: [],
    memory: [],
    notes: [],
    ...(sideBySide ? { sideBySide } : {}),
  };
}

test('pairFigures keeps the figures both runs have, in the embedded order, matched by label and unit', () => {
  assert.deepEqual(
    pairFigures(
      [
        { label: 'a', unit: 'ms', value: 1 },
        { label: 'b', unit: 'per-s', value: 10 },
        { label: 'only embedded', unit: 'ms', value: 3 },
      ],
      [
        { label: 'b', unit: 'per-s', value: 5 },
        { label: 'a', unit: 'ms', value: 4 },
        { label: 'a', unit: 'per-s', value: 99 },
      ],
    ),
    [
      { label: 'a', unit: 'ms', embedded: 1, external: 4 },
      { label: 'b', unit: 'per-s', embedded: 10, external: 5 },
    ],
  );
});

test('the speed-up is external ÷ embedded for times and embedded ÷ external for rates', () => {
  assert.equal(embeddedSpeedup(ms(10, 25)), 2.5);
  assert.equal(embeddedSpeedup(rate(6000, 2000)), 3);
  assert.equal(embeddedSpeedup(ms(20, 10)), 0.5);
  assert.equal(embeddedSpeedup(ms(0, 10)), undefined);
  assert.equal(embeddedSpeedup(rate(10, Number.NaN)), undefined);
  assert.equal(describeSpeedup(2.5), '2.5× faster');
  assert.equal(describeSpeedup(0.5), '2.0× slower');
  assert.equal(describeSpeedup(1.03), 'same');
  assert.equal(describeSpeedup(undefined), 'n/a');
});

test('without BENCH_KUBECONFIG the report says the side-by-side was not run, and how to run it', () => {
  const md = renderSideBySideSection([bench()], { state: 'not-requested' }).join('\n');
  assert.match(md, /## Side by side with an external API server/);
  assert.match(md, /Not run: `BENCH_KUBECONFIG` was not set/);
  assert.match(md, /`BENCH_KUBECONFIG=~\/\.kube\/config npm run bench`/);
  assert.deepEqual(renderSideBySideOfBench(bench()), []);
  assert.deepEqual(sideBySideConsoleLines(bench()), []);
});

test('a side-by-side that could not start is reported with its reason', () => {
  const md = renderSideBySideSection([bench()], {
    state: 'failed',
    kubeconfig: '/tmp/kc',
    error: 'cannot reach https://10.0.0.1:6443: connect ECONNREFUSED',
  }).join('\n');
  assert.match(
    md,
    /Asked for \(`BENCH_KUBECONFIG=\/tmp\/kc`\) but not run: cannot reach https:\/\/10\.0\.0\.1:6443: connect ECONNREFUSED\./,
  );
  assert.match(md, /The embedded results above stand\./);
});

test('the pairs go into the summary section and into the benchmark section, with their ratio', () => {
  const r = bench({
    method: 'Same GET.',
    rows: [{ label: 'HTTP list, full body (median)', unit: 'ms', embedded: 20, external: 50 }],
    notes: ['No RSS.'],
  });
  const failed = { ...bench({ method: '', rows: [], notes: [], error: 'HTTP 403' }), id: 'watch', title: 'Watch' };
  const md = renderSideBySideSection([r, failed], {
    state: 'used',
    kubeconfig: '~/.kube/config',
    server: 'https://api.example:6443',
    version: 'v1.31.2',
    namespace: 'upgrade-operator-bench-x',
  }).join('\n');
  assert.match(md, /against `https:\/\/api\.example:6443` \(version v1\.31\.2, from `~\/\.kube\/config`\)/);
  assert.match(
    md,
    /\| LIST of 10,000 objects \| HTTP list, full body \(median\) \| 20\.0 ms \| 50\.0 ms \| 2\.5× faster \|/,
  );
  assert.match(md, /\| Watch \| not measured: HTTP 403 \| \| \| \|/);
  const section = renderSideBySideOfBench(r).join('\n');
  assert.match(section, /\*\*Side by side with the external API server\.\*\* Same GET\./);
  assert.match(section, /\| HTTP list, full body \(median\) \| 20\.0 ms \| 50\.0 ms \| 2\.5× faster \|/);
  assert.match(section, /- No RSS\./);
  assert.match(renderSideBySideOfBench(failed).join('\n'), /not measured: HTTP 403\./);
  assert.deepEqual(sideBySideConsoleLines(r), [
    '    side by side: HTTP list, full body (median): embedded 20.0 ms, external 50.0 ms (embedded 2.5× faster)',
  ]);
});
