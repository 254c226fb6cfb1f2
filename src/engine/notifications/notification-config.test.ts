import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_WAITING_LONGER_THAN_MS, parseNotificationConfig } from './notification-config.js';

const SECRET = {
  sre: 'https://hooks.example.com/events?token=s3cr3t',
  chat: 'https://hooks.slack.com/services/T000/B000/XXXX',
  teams: 'https://prod.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=zzz',
};

void test('a full configuration: source, cluster, three receivers with their filters and thresholds', () => {
  const config = parseNotificationConfig(
    [
      'source: /clusters/prod-1',
      'cluster: prod-1',
      'receivers:',
      '  - {name: sre, type: webhook}',
      '  - {name: chat, type: slack, events: [started, completed, failed]}',
      '  - {name: teams, type: teams, events: [waiting, failed], waitingLongerThan: 30m}',
    ].join('\n'),
    SECRET,
  );
  assert.deepEqual(config.problems, []);
  assert.equal(config.source, '/clusters/prod-1');
  assert.equal(config.cluster, 'prod-1');
  assert.deepEqual(
    config.receivers.map((r) => [r.name, r.type, [...r.events], r.waitingLongerThanMs, r.url]),
    [
      [
        'sre',
        'webhook',
        ['scheduled', 'started', 'stepFailed', 'waiting', 'completed', 'failed'],
        DEFAULT_WAITING_LONGER_THAN_MS,
        SECRET.sre,
      ],
      ['chat', 'slack', ['started', 'completed', 'failed'], DEFAULT_WAITING_LONGER_THAN_MS, SECRET.chat],
      ['teams', 'teams', ['waiting', 'failed'], 30 * 60_000, SECRET.teams],
    ],
  );
});

void test('a bad receiver is left out with a problem naming it; the others keep working; no problem shows a URL', () => {
  const config = parseNotificationConfig(
    [
      'colour: blue',
      'receivers:',
      '  - {name: sre, type: webhook, events: [started, exploded]}',
      '  - {name: chat, type: discord}',
      '  - {name: teams, type: teams, waitingLongerThan: soon}',
      '  - {name: Bad_Name, type: slack}',
      '  - {name: missing, type: slack}',
      '  - {name: notaurl, type: webhook}',
      '  - {name: ok, type: webhook, extra: 1}',
      '  - {name: ok, type: slack}',
    ].join('\n'),
    { ...SECRET, notaurl: 'ftp://files.example.com/secret-path', ok: 'http://127.0.0.1:8080/' },
  );
  assert.deepEqual(
    config.receivers.map((r) => r.name),
    ['ok'],
  );
  assert.deepEqual(config.problems, [
    'colour: unknown key, ignored',
    'receivers[0].events: must be a list of scheduled, started, stepFailed, waiting, completed, failed; receiver sre left out',
    'receivers[1].type: must be one of webhook, slack, teams; receiver chat left out',
    'receivers[2].waitingLongerThan: must be a positive duration such as 30m or 2h; receiver teams left out',
    "receivers[3].name: must be a DNS label (lower case letters, digits, '-'); left out",
    'receivers[4]: receiver missing left out: the Secret upgrade-operator-notifications has no key missing',
    "receivers[5]: receiver notaurl left out: the Secret's key notaurl is not an http(s) URL (value not shown)",
    'receivers[6].extra: unknown key, ignored',
    'receivers[7]: receiver ok is defined twice; the second is left out',
  ]);
  assert.ok(!config.problems.join(' ').includes('secret-path'));
});

void test('missing pieces: no config key, not YAML, no receivers list, no Secret', () => {
  assert.deepEqual(parseNotificationConfig(undefined, SECRET).problems, [
    'config.yaml: missing or empty; no receivers',
  ]);
  assert.match(parseNotificationConfig('receivers: [', SECRET).problems[0] ?? '', /^config\.yaml: not YAML/);
  assert.deepEqual(parseNotificationConfig('- a', SECRET).problems, [
    'config.yaml: must be a mapping with a receivers list; no receivers',
  ]);
  assert.deepEqual(parseNotificationConfig('receivers: {}', SECRET).problems, [
    'receivers: must be a list; no receivers',
  ]);
  const noSecret = parseNotificationConfig('receivers: [{name: sre, type: webhook}]', undefined);
  assert.deepEqual(noSecret.receivers, []);
  assert.deepEqual(noSecret.problems, [
    'receivers[0]: receiver sre left out: the Secret upgrade-operator-notifications does not exist',
  ]);
});
