import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localZoneSource, zoneFileCandidates, zoneNameOfPath } from './zoneinfo.js';

test('zone files are looked for where Go looks, $ZONEINFO first when it is a directory', () => {
  const platform = [
    '/usr/share/zoneinfo/Europe/Zurich',
    '/usr/share/lib/zoneinfo/Europe/Zurich',
    '/usr/lib/locale/TZ/Europe/Zurich',
    '/etc/zoneinfo/Europe/Zurich',
  ];
  assert.deepEqual(zoneFileCandidates('Europe/Zurich', {}), platform);
  assert.deepEqual(zoneFileCandidates('Europe/Zurich', { ZONEINFO: '' }), platform);
  assert.deepEqual(zoneFileCandidates('Europe/Zurich', { ZONEINFO: '/opt/tz' }), [
    '/opt/tz/Europe/Zurich',
    ...platform,
  ]);
  assert.deepEqual(zoneFileCandidates('Europe/Zurich', { ZONEINFO: '/opt/tz/' }), [
    '/opt/tz/Europe/Zurich',
    ...platform,
  ]);
  // Go's zoneinfo.zip is not read: the platform directories remain.
  assert.deepEqual(zoneFileCandidates('Europe/Zurich', { ZONEINFO: '/go/lib/time/zoneinfo.zip' }), platform);
});

test('Local is decided from $TZ as Go decides it', () => {
  assert.deepEqual(localZoneSource({}), { kind: 'file', path: '/etc/localtime' });
  assert.deepEqual(localZoneSource({ TZ: '' }), { kind: 'utc' });
  assert.deepEqual(localZoneSource({ TZ: ':' }), { kind: 'utc' });
  assert.deepEqual(localZoneSource({ TZ: 'UTC' }), { kind: 'utc' });
  assert.deepEqual(localZoneSource({ TZ: ':UTC' }), { kind: 'utc' });
  assert.deepEqual(localZoneSource({ TZ: 'Europe/Zurich' }), { kind: 'name', name: 'Europe/Zurich' });
  assert.deepEqual(localZoneSource({ TZ: ':Europe/Zurich' }), { kind: 'name', name: 'Europe/Zurich' });
  assert.deepEqual(localZoneSource({ TZ: '/etc/localtime' }), { kind: 'file', path: '/etc/localtime' });
  assert.deepEqual(localZoneSource({ TZ: ':/opt/zone' }), { kind: 'file', path: '/opt/zone' });
  assert.deepEqual(localZoneSource({ TZ: 'CET-1CEST' }), { kind: 'name', name: 'CET-1CEST' });
});

test('a zone file’s name comes from its path or its link target under a zoneinfo directory', () => {
  assert.equal(zoneNameOfPath('/etc/localtime', '/usr/share/zoneinfo/Europe/Zurich'), 'Europe/Zurich');
  assert.equal(zoneNameOfPath('/etc/localtime', '../usr/share/zoneinfo/America/New_York'), 'America/New_York');
  assert.equal(zoneNameOfPath('/usr/share/zoneinfo/Asia/Kolkata', undefined), 'Asia/Kolkata');
  assert.equal(zoneNameOfPath('/etc/localtime', undefined), undefined);
  assert.equal(zoneNameOfPath('/etc/localtime', '/opt/zones/Zurich'), undefined);
  assert.equal(zoneNameOfPath('/etc/localtime', '/usr/share/zoneinfo/../../etc/passwd'), undefined);
  assert.equal(zoneNameOfPath('/usr/share/zoneinfo/', undefined), undefined);
});
