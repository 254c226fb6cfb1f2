import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replaceUrls, withPlaceholders } from './placeholders.js';

const P = [
  { url: 'http://127.0.0.1:80', placeholder: '{alertmanager}' },
  { url: 'http://127.0.0.1:8080', placeholder: '{update-service}' },
];

void test('replaceUrls: every occurrence, and a port is never cut in the middle', () => {
  assert.equal(
    replaceUrls('Get "http://127.0.0.1:8080/graph?x=1": refused; http://127.0.0.1:80/api and http://127.0.0.1:8081', P),
    'Get "{update-service}/graph?x=1": refused; {alertmanager}/api and http://127.0.0.1:8081',
  );
  assert.equal(
    replaceUrls('a.b(c)', [
      { url: 'a.b(c)', placeholder: 'X' },
      { url: '', placeholder: 'Y' },
    ]),
    'X',
  );
});

void test('withPlaceholders: strings at any depth, keys too; other values and the input unchanged', () => {
  const input = {
    labels: { upstream: 'http://127.0.0.1:8080/api' },
    n: 3,
    list: ['http://127.0.0.1:80', null, true],
    ['http://127.0.0.1:80']: 1,
  };
  assert.deepEqual(withPlaceholders(input, P), {
    labels: { upstream: '{update-service}/api' },
    n: 3,
    list: ['{alertmanager}', null, true],
    ['{alertmanager}']: 1,
  });
  assert.equal(input.labels.upstream, 'http://127.0.0.1:8080/api');
});
