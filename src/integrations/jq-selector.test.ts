import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCheckFilter, describeJqError, emitsTrue, JqSelector, selectorFilter } from './jq-selector.js';
import { STACK_BUDGET_BYTES, stackCost } from './jq-selector-worker.js';

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    namespace: 'shop',
    labels: { app: 'web', tier: 'frontend' },
    annotations: { 'example.com/evict': 'yes' },
  },
  spec: { nodeName: 'worker-1', containers: [{ name: 'main', image: 'registry.example/web:1' }] },
  status: { phase: 'Running' },
};

void test('pure helpers: the wrapper, true detection and error texts', () => {
  const wrapped =
    '$__upgrade_operator_pod | label $__upgrade_operator_first_true | (.a\n\n) | select(. == true) | ., break $__upgrade_operator_first_true';
  assert.equal(selectorFilter('.a'), wrapped);
  assert.equal(compileCheckFilter('.a'), `if false then (${wrapped}) else empty end`);
  assert.equal(emitsTrue('1\n"true"\nfalse'), false);
  assert.equal(emitsTrue('1\ntrue'), true);
  assert.equal(emitsTrue(''), false);
  assert.deepEqual(
    describeJqError(
      'jq: error: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1:\n$__upgrade_operator_pod | (.a[\njq: 1 compile error',
    ),
    {
      message: 'syntax error, unexpected end of file at <top-level>, line 1',
      compileError: true,
    },
  );
  assert.deepEqual(
    describeJqError(
      'jq: error: nope/0 is not defined at <top-level>, line 1:\nnope\njq: error: $x is not defined at <top-level>, line 1:\n$x\njq: 2 compile errors',
    ),
    {
      message: 'nope/0 is not defined at <top-level>, line 1; $x is not defined at <top-level>, line 1',
      compileError: true,
    },
  );
  assert.deepEqual(describeJqError('jq: error (at <unknown>): boom'), { message: 'boom', compileError: false });
  assert.deepEqual(describeJqError('jq: error (at <unknown>) (not a string): {"a":1}'), {
    message: '{"a":1}',
    compileError: false,
  });
  assert.deepEqual(describeJqError('halted here'), { message: 'halted here', compileError: false });
});

void test('the worker accounts for the stack jq-wasm leaks per call', () => {
  const small = stackCost(['-n', '-c'], 'true');
  assert.ok(small >= 4096 && small < 4400, String(small));
  assert.ok(stackCost(['--argjson', 'p', 'x'.repeat(10_000)], 'true') > small + 10_000);
  assert.ok(stackCost(['--argjson', 'p', 'x'.repeat(STACK_BUDGET_BYTES)], 'true') > STACK_BUDGET_BYTES);
});

void test('matching follows APPUiO: true counts, other outputs are ignored, errors and halt end the program', async (t) => {
  const jq = new JqSelector();
  t.after(() => jq.close());
  const cases: Array<[string, { matched: boolean; error?: string | RegExp }]> = [
    ['true', { matched: true }],
    ['false', { matched: false }],
    ['.metadata.labels.app == "web"', { matched: true }],
    ['.metadata.labels.app == "db"', { matched: false }],
    ['.metadata.annotations["example.com/evict"] == "yes"', { matched: true }],
    ['.metadata.name', { matched: false }],
    ['1, "true", {"a": true}, [true]', { matched: false }],
    ['"x", false, true', { matched: true }],
    ['true, error("later")', { matched: true }],
    ['error("first"), true', { matched: false, error: 'first' }],
    ['true, halt', { matched: true }],
    ['halt, true', { matched: false }],
    ['empty', { matched: false }],
    ['.spec.containers[] | .image | startswith("registry.example/")', { matched: true }],
    ['def evictable: .metadata.labels.tier == "frontend"; evictable', { matched: true }],
    ['.kind == "Pod" # a trailing comment', { matched: true }],
    ['.metadata.labels | has("app") # continued comment \\', { matched: true }],
    ['"stop" | halt_error', { matched: false, error: 'stop' }],
    ['true, repeat(1)', { matched: true }],
    ['repeat(false, true)', { matched: true }],
  ];
  for (const [program, want] of cases) {
    const got = await jq.matches(program, pod);
    assert.equal(got.matched, want.matched, program);
    if (want.error === undefined) assert.equal(got.error, undefined, `${program}: ${got.error ?? ''}`);
    else if (typeof want.error === 'string') assert.equal(got.error, want.error, program);
    else assert.match(got.error ?? '', want.error, program);
  }
});

void test('a compile error is reported, cached and never matches', async (t) => {
  const jq = new JqSelector();
  t.after(() => jq.close());
  assert.deepEqual(await jq.compile('.metadata.labels.app == "web"'), { ok: true });
  assert.deepEqual(await jq.compile('.metadata | nosuchfn'), {
    ok: false,
    error: 'nosuchfn/0 is not defined at <top-level>, line 1',
    compileError: true,
  });
  assert.deepEqual(await jq.compile('.metadata.labels['), {
    ok: false,
    error: 'syntax error, unexpected end of file at <top-level>, line 1',
    compileError: true,
  });
  // A program that would never end compiles fine: the check does not run it.
  assert.deepEqual(await jq.compile('repeat(1)'), { ok: true });
  assert.deepEqual(await jq.matches('.metadata | nosuchfn', pod), {
    matched: false,
    error: 'nosuchfn/0 is not defined at <top-level>, line 1',
  });
  // Also found when matches() meets it first.
  assert.deepEqual(await jq.matches('$undefined', pod), {
    matched: false,
    error: '$undefined is not defined at <top-level>, line 1',
  });
  assert.deepEqual(await jq.compile('$undefined'), {
    ok: false,
    error: '$undefined is not defined at <top-level>, line 1',
    compileError: true,
  });
});

void test('an endless program times out, and the selector keeps working with a new worker', async (t) => {
  // Long enough for a fresh worker's first program (jq's WebAssembly compiled as it runs) on a
  // loaded machine, short enough to keep the test quick.
  const jq = new JqSelector({ timeoutMs: 500 });
  t.after(() => jq.close());
  assert.deepEqual(await jq.matches('true', pod), { matched: true });
  assert.deepEqual(await jq.matches('repeat(1)', pod), {
    matched: false,
    error: 'the jq program did not finish within 500ms',
  });
  assert.deepEqual(await jq.matches('def f: f; f', pod), {
    matched: false,
    error: 'the jq program did not finish within 500ms',
  });
  assert.deepEqual(await jq.matches('.metadata.labels.app == "web"', pod), { matched: true });
  // Calls queued behind a stuck one run after it.
  const results = await Promise.all([
    jq.matches('repeat(true)', pod),
    jq.matches('true', pod),
    jq.matches('false', pod),
  ]);
  assert.deepEqual(results, [{ matched: true }, { matched: true }, { matched: false }]);
});

void test("evaluations outlive jq-wasm's per-instance stack leak (about 40 of these would exhaust one instance)", async (t) => {
  const jq = new JqSelector();
  t.after(() => jq.close());
  const big = { ...pod, metadata: { ...pod.metadata, annotations: { blob: 'x'.repeat(20_000) } } };
  let matched = 0;
  for (let i = 0; i < 150; i++) {
    const r = await jq.matches('.metadata.annotations.blob | length == 20000', big);
    assert.equal(r.error, undefined, `evaluation ${i}: ${r.error ?? ''}`);
    if (r.matched) matched++;
  }
  assert.equal(matched, 150);
  const huge = { ...pod, metadata: { ...pod.metadata, annotations: { blob: 'x'.repeat(STACK_BUDGET_BYTES) } } };
  assert.match((await jq.matches('true', huge)).error ?? '', /^the input is too large for jq-wasm/);
  assert.deepEqual(await jq.matches('true', pod), { matched: true });
});

void test('after close() every call answers with an error', async () => {
  const jq = new JqSelector();
  assert.deepEqual(await jq.matches('true', pod), { matched: true });
  await jq.close();
  assert.deepEqual(await jq.matches('true', pod), { matched: false, error: 'the jq selector is closed' });
  assert.deepEqual(await jq.compile('true'), { ok: false, error: 'the jq selector is closed', compileError: false });
});
