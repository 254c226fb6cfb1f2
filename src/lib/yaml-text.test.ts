import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readGoYaml, readGoYamlDocuments } from './yaml-text.js';

void test('go-yaml v2 reading: YAML 1.1 scalars, dates kept as text', () => {
  assert.deepEqual(readGoYaml('a: yes\nb: 2024-01-01\nc: 0o7\nd: 010\n'), {
    ok: true,
    value: { a: true, b: '2024-01-01', c: '0o7', d: 8 },
  });
});

void test('nothing throws: syntax errors, unresolved aliases and alias bombs are reasons', () => {
  const bomb = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}*a]\nc: [${'*b, '.repeat(9)}*b]`;
  for (const [text, why] of [
    ['a: [', /^Flow sequence in block collection/],
    ['a: *nowhere', /^Unresolved alias/],
    [bomb, /^Excessive alias count/],
  ] as const) {
    const read = readGoYaml(text);
    assert.equal(read.ok, false, text);
    assert.match(read.ok ? '' : read.error, why);
    assert.doesNotMatch(read.ok ? '' : read.error, /\n/);
  }
});

void test('documents are read one by one: a bad one does not hide the others; an empty text has none', () => {
  const docs = readGoYamlDocuments('a: 1\n---\nb: *x\n---\nc: 3\n');
  assert.deepEqual(
    docs.map((d) => d.ok),
    [true, false, true],
  );
  assert.deepEqual(readGoYamlDocuments(''), []);
});
