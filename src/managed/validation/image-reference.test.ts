import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseImageReference } from './image-reference.js';

const D = `sha256:${'0123456789abcdef'.repeat(4)}`;

test('pull specs split into registry, namespace, name, tag and digest like library-go', () => {
  const cases: [string, { registry: string; namespace: string; name: string; tag: string; id: string }][] = [
    [
      `quay.io/openshift-release-dev/ocp-release@${D}`,
      { registry: 'quay.io', namespace: 'openshift-release-dev', name: 'ocp-release', tag: '', id: D },
    ],
    [
      `quay.io/openshift-release-dev/ocp-release:4.15.3-x86_64`,
      { registry: 'quay.io', namespace: 'openshift-release-dev', name: 'ocp-release', tag: '4.15.3-x86_64', id: '' },
    ],
    [`localhost/ns/img:v1@${D}`, { registry: 'localhost', namespace: 'ns', name: 'img', tag: 'v1', id: D }],
    [
      `registry.example:5000/a/b/c@${D}`,
      { registry: 'registry.example:5000', namespace: 'a', name: 'b/c', tag: '', id: D },
    ],
    [
      `openshift-release-dev/ocp-release@${D}`,
      { registry: '', namespace: 'openshift-release-dev', name: 'ocp-release', tag: '', id: D },
    ],
    [`quay.io/ocp-release@${D}`, { registry: 'quay.io', namespace: '', name: 'ocp-release', tag: '', id: D }],
    ['busybox', { registry: '', namespace: '', name: 'busybox', tag: '', id: '' }],
  ];
  for (const [spec, ref] of cases) {
    const got = parseImageReference(spec);
    assert.ok(got.ok, spec);
    assert.deepEqual(got.ref, ref, spec);
  }
});

test('malformed pull specs are refused with the distribution error text', () => {
  const cases: [string, string][] = [
    ['', 'invalid reference format'],
    ['quay.io/x y', 'invalid reference format'],
    ['quay.io/ns/img@sha256:abc', 'invalid reference format'],
    [`quay.io/ns/img@sha256:${'a'.repeat(63)}0a`, 'invalid checksum digest length'],
    ['quay.io/NS/img:latest', 'repository name must be lowercase'],
    [`quay.io/${'a'.repeat(260)}/img`, 'repository name must not be more than 255 characters'],
  ];
  for (const [spec, error] of cases) {
    const got = parseImageReference(spec);
    assert.equal(got.ok, false, spec);
    if (!got.ok) assert.equal(got.error, error, spec);
  }
});
