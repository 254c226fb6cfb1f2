import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import semver from 'semver';
import {
  blockedEdgesFor,
  buildCatalogue,
  channelVersions,
  findRelease,
  findReleaseByDigest,
  inChannel,
  parseChannel,
  releaseChannelsAt,
} from './catalogue.js';

const catalogue = buildCatalogue();

test('releases cover 4.13–4.16 with realistic z-streams, ascending', () => {
  const byMinor = new Map<number, number[]>();
  for (const r of catalogue.releases) byMinor.set(r.minor, [...(byMinor.get(r.minor) ?? []), r.patch]);
  assert.deepEqual([...byMinor.keys()], [13, 14, 15, 16]);
  assert.ok(Math.max(...byMinor.get(13)!) >= 50);
  assert.ok(Math.max(...byMinor.get(14)!) >= 40);
  assert.ok(Math.max(...byMinor.get(15)!) >= 30);
  assert.ok(Math.max(...byMinor.get(16)!) >= 20);
  for (let i = 1; i < catalogue.releases.length; i++) {
    assert.equal(semver.lt(catalogue.releases[i - 1]!.version, catalogue.releases[i]!.version), true);
  }
});

test('digests are sha256 of the version and pull specs point at ocp-release by digest', () => {
  for (const r of catalogue.releases) {
    assert.equal(r.digest, `sha256:${createHash('sha256').update(r.version).digest('hex')}`);
    assert.match(r.pullSpec, /^quay\.io\/openshift-release-dev\/ocp-release@sha256:[0-9a-f]{64}$/);
    assert.match(r.url, /^https:\/\/access\.redhat\.com\/errata\/RH[SB]A-20\d\d:\d{4}$/);
    assert.equal(findReleaseByDigest(catalogue, r.digest), r);
  }
  assert.equal(findRelease(catalogue, '4.14.10')?.url, 'https://access.redhat.com/errata/RHSA-2024:0290');
});

test('previous edges only go forward: earlier z of the minor or late z of the previous minor', () => {
  for (const r of catalogue.releases) {
    for (const p of r.previous) {
      const source = findRelease(catalogue, p);
      assert.ok(source, `${r.version} previous ${p} exists`);
      assert.ok(semver.lt(p, r.version), `${p} -> ${r.version} goes forward`);
      assert.ok(source.minor === r.minor || source.minor === r.minor - 1);
      if (source.minor !== r.minor) assert.ok(source.fastAt <= r.fastAt, `${p} shipped before ${r.version}`);
    }
  }
  const first414 = findRelease(catalogue, '4.14.0')!;
  assert.ok(first414.previous.every((p) => semver.gte(p, '4.13.15')));
  assert.ok(first414.previous.length > 0);
  assert.ok(findRelease(catalogue, '4.15.3')!.previous.includes('4.14.10'));
});

test("every channel's versions exist and belong to the channel's minors", () => {
  for (const channel of catalogue.channels) {
    const parsed = parseChannel(channel)!;
    const versions = channelVersions(catalogue, channel);
    assert.ok(versions.length > 0, channel);
    for (const v of versions) {
      const r = findRelease(catalogue, v)!;
      const lowest = parsed.kind === 'eus' ? parsed.minor - 2 : parsed.minor - 1;
      assert.ok(r.minor >= lowest && r.minor <= parsed.minor, `${v} in ${channel}`);
    }
  }
});

test('eus channels exist for even minors only and carry two minors back', () => {
  const eus = catalogue.channels.filter((c) => c.startsWith('eus-'));
  assert.deepEqual(eus, ['eus-4.14', 'eus-4.16']);
  const minors = new Set(channelVersions(catalogue, 'eus-4.16').map((v) => semver.minor(v)));
  assert.deepEqual([...minors].sort(), [14, 15, 16]);
  assert.deepEqual(findRelease(catalogue, '4.14.10')!.channels, [
    'candidate-4.14',
    'candidate-4.15',
    'eus-4.14',
    'eus-4.16',
    'fast-4.14',
    'fast-4.15',
    'stable-4.14',
    'stable-4.15',
  ]);
  assert.deepEqual(findRelease(catalogue, '4.15.2')!.channels, [
    'candidate-4.15',
    'candidate-4.16',
    'eus-4.16',
    'fast-4.15',
    'fast-4.16',
    'stable-4.15',
    'stable-4.16',
  ]);
});

test('a release reaches candidate, then fast, then stable (48 h later)', () => {
  const r = findRelease(catalogue, '4.15.3')!;
  assert.ok(r.candidateAt < r.fastAt && r.fastAt < r.stableAt);
  assert.equal(r.stableAt - r.fastAt, 48 * 3600_000);
  assert.equal(inChannel(catalogue, r, 'candidate-4.15', r.candidateAt), true);
  assert.equal(inChannel(catalogue, r, 'fast-4.15', r.candidateAt), false);
  assert.equal(inChannel(catalogue, r, 'fast-4.15', r.fastAt), true);
  assert.equal(inChannel(catalogue, r, 'stable-4.15', r.fastAt), false);
  // stable-4.15 opens four weeks after 4.15.0: 4.15.3 is promoted but waits for the channel.
  const opens = catalogue.channelOpensAt['stable-4.15']!;
  assert.ok(opens > r.stableAt);
  assert.equal(inChannel(catalogue, r, 'stable-4.15', r.stableAt), false);
  assert.equal(inChannel(catalogue, r, 'stable-4.15', opens), true);
  assert.deepEqual(releaseChannelsAt(catalogue, r, r.fastAt), ['candidate-4.15', 'fast-4.15']);
  assert.deepEqual(releaseChannelsAt(catalogue, r), r.channels);
  // stable-4.16 opens weeks after 4.16.0: before that, no 4.15 release is in it.
  const ga416 = findRelease(catalogue, '4.16.0')!.fastAt;
  assert.deepEqual(channelVersions(catalogue, 'stable-4.16', ga416), []);
  assert.ok(channelVersions(catalogue, 'fast-4.16', ga416).includes('4.16.0'));
});

test('blocked edges: the §4.5 risks apply to the sample edges only', () => {
  assert.deepEqual(
    blockedEdgesFor(catalogue, '4.14.10', '4.15.3')
      .map((b) => b.name)
      .sort(),
    ['AWSCustomDomainNodesNotReady', 'OLMOperatorsInFailedState'],
  );
  assert.deepEqual(blockedEdgesFor(catalogue, '4.14.12', '4.15.3'), []);
  assert.deepEqual(
    blockedEdgesFor(catalogue, '4.14.10', '4.15.2').map((b) => b.name),
    ['PreRelease'],
  );
  // from is a whole-version match: 4.14.100 would not match 4[.]14[.]10.
  assert.deepEqual(blockedEdgesFor(catalogue, '4.14.100', '4.15.2'), []);
});

test('overrides add, change and remove releases and risks', () => {
  const c = buildCatalogue({
    releases: [
      { version: '4.16.29', fastAt: '2025-02-01T00:00:00Z' },
      { version: '4.16.28', remove: true },
      { version: '4.15.3', url: 'https://example.com/errata/1', previous: ['4.15.2'] },
      { version: '4.16.2', channels: ['candidate-4.16'] },
    ],
    blockedEdges: [
      {
        to: '4.16.29',
        from: '4[.]16[.]27',
        name: 'Example',
        url: 'https://example.com',
        message: 'm',
        matchingRules: [{ type: 'Always' }],
      },
    ],
    registryHost: 'registry.example.com',
  });
  const added = findRelease(c, '4.16.29')!;
  assert.equal(added.fastAt, Date.parse('2025-02-01T00:00:00Z'));
  assert.ok(added.previous.includes('4.16.27'));
  assert.ok(!added.previous.includes('4.16.28'));
  assert.equal(findRelease(c, '4.16.28'), undefined);
  assert.equal(findRelease(c, '4.15.3')!.url, 'https://example.com/errata/1');
  assert.deepEqual(findRelease(c, '4.15.3')!.previous, ['4.15.2']);
  assert.deepEqual(channelVersions(c, 'stable-4.16').includes('4.16.2'), false);
  assert.match(added.pullSpec, /^registry\.example\.com\/openshift-release-dev\/ocp-release@sha256:/);
  assert.equal(c.blockedEdges.length, catalogue.blockedEdges.length + 1);
  assert.equal(buildCatalogue({ replaceBlockedEdges: true }).blockedEdges.length, 0);
  assert.throws(() => buildCatalogue({ releases: [{ version: '5.0.0' }] }), /4\.y\.z/);
  assert.throws(() =>
    buildCatalogue({ blockedEdges: [{ to: '4.16.2', from: '(', name: 'Bad', url: '', message: '' }] }),
  );
});

test('the catalogue is deterministic', () => {
  assert.deepEqual(buildCatalogue().releases, catalogue.releases);
});
