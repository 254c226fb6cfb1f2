import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactText } from './must-gather.js';

void test('redactText: secret-named keys, JWTs, sha256~ tokens and Authorization values; the rest untouched', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlLXZhbHVl';
  assert.equal(
    redactText(
      [
        'configManager:',
        '  source: OCM',
        '  ocmBaseUrl: https://api.openshift.com',
        '  accessToken: abc123',
        '  "client_secret": "s3cr3t"',
        'password=hunter2',
        `{"level":"info","msg":"using ${jwt}"}`,
        'oauth sha256~AbCdEfGhIjKlMnOpQrStUvWxYz0123',
        'Authorization: Bearer abcdefghijkl',
      ].join('\n'),
    ),
    [
      'configManager:',
      '  source: OCM',
      '  ocmBaseUrl: https://api.openshift.com',
      '  accessToken: [redacted]',
      '  "client_secret": [redacted]',
      'password=[redacted]',
      '{"level":"info","msg":"using [redacted]"}',
      'oauth [redacted]',
      'Authorization: [redacted]',
    ].join('\n'),
  );
});
