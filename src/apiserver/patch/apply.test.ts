import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import type { KubeObject } from '../types.js';
import { LAST_APPLIED_ANNOTATION, serverSideApply } from './apply.js';
import { ApplyConflictError, PatchError } from './errors.js';
import { updateManagedFields } from './managed-fields.js';
import { patchMetaFor } from './builtin-patch-meta.js';
import { patchMetaFromSchema } from './patch-meta.js';

const meta = patchMetaFor('apps', 'Deployment');
const T1 = '2024-05-01T10:00:00Z';
const T2 = '2024-05-01T10:01:00Z';
const T3 = '2024-05-01T10:02:00Z';

function config(spec: JsonObject, metadata: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', ...metadata },
    spec,
  };
}

function apply(
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  time: string,
  force = false,
): KubeObject {
  return serverSideApply({ live, applied, manager, force, time, meta });
}

function update(old: KubeObject, change: (o: KubeObject) => KubeObject, manager: string, time: string): KubeObject {
  const updated = change(structuredClone(old));
  return {
    ...updated,
    metadata: {
      ...updated.metadata,
      managedFields: updateManagedFields({ old, updated, manager, operation: 'Update', time }),
    },
  };
}

function entry(o: KubeObject, manager: string): JsonObject | undefined {
  return (o.metadata.managedFields as JsonObject[]).find((e) => e.manager === manager);
}

function spec(o: KubeObject): JsonObject {
  return o.spec as JsonObject;
}

const containers = (...names: string[]): JsonValue[] => names.map((n) => ({ name: n, image: `${n}:1` }));

void describe('serverSideApply', () => {
  const created = apply(
    undefined,
    config({ replicas: 1, template: { spec: { containers: containers('app') } } }, { labels: { a: '1', b: '2' } }),
    'C',
    T1,
  );

  void it("creates an object owned by the applier's Apply entry, holding exactly what it applied", () => {
    assert.deepEqual(spec(created), { replicas: 1, template: { spec: { containers: containers('app') } } });
    assert.deepEqual(entry(created, 'C'), {
      manager: 'C',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      time: T1,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:template': {
            'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
          },
        },
      },
    });
  });

  void it('removes fields the applier no longer applies when nobody else owns them', () => {
    const again = apply(
      created,
      config({ replicas: 1, template: { spec: { containers: containers('app') } } }, { labels: { a: '1' } }),
      'C',
      T2,
    );
    assert.deepEqual(again.metadata.labels, { a: '1' });
  });

  void it('keeps omitted fields another manager owns, and merges list-maps by key', () => {
    const sidecar = update(
      created,
      (o) => ({
        ...o,
        spec: {
          ...spec(o),
          template: { spec: { containers: [...containers('app'), { name: 'side', image: 'side:1' }] } },
        },
      }),
      'B',
      T2,
    );
    const reapplied = apply(
      sidecar,
      config(
        { replicas: 1, template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } },
        { labels: { a: '1', b: '2' } },
      ),
      'C',
      T3,
    );
    assert.deepEqual((spec(reapplied).template as JsonObject).spec, {
      containers: [
        { name: 'app', image: 'app:2' },
        { name: 'side', image: 'side:1' },
      ],
    });
  });

  const scaled = update(created, (o) => ({ ...o, spec: { ...spec(o), replicas: 3 } }), 'A', T2);

  void it('conflicts when the applied value differs from one another manager owns', () => {
    assert.throws(
      () =>
        apply(
          scaled,
          config(
            { replicas: 5, template: { spec: { containers: containers('app') } } },
            { labels: { a: '1', b: '2' } },
          ),
          'C',
          T3,
        ),
      (e: unknown) => {
        assert.ok(e instanceof ApplyConflictError);
        assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "A" using apps/v1: .spec.replicas');
        assert.deepEqual(e.causes(), [
          { reason: 'FieldManagerConflict', message: 'conflict with "A" using apps/v1', field: '.spec.replicas' },
        ]);
        return true;
      },
    );
  });

  void it('shares ownership when the applied value equals the live one', () => {
    const shared = apply(
      scaled,
      config({ replicas: 3, template: { spec: { containers: containers('app') } } }, { labels: { a: '1', b: '2' } }),
      'C',
      T3,
    );
    assert.ok(JSON.stringify(entry(shared, 'A')).includes('f:replicas'));
    assert.ok(JSON.stringify(entry(shared, 'C')).includes('f:replicas'));
  });

  void it('takes ownership with force', () => {
    const forced = apply(
      scaled,
      config({ replicas: 5, template: { spec: { containers: containers('app') } } }, { labels: { a: '1', b: '2' } }),
      'C',
      T3,
      true,
    );
    assert.equal(spec(forced).replicas, 5);
    assert.equal(entry(forced, 'A'), undefined);
    assert.equal(entry(forced, 'C')?.time, T3);
  });

  void it('lists several conflicts by manager', () => {
    const twice = update(scaled, (o) => ({ ...o, spec: { ...spec(o), paused: true, minReadySeconds: 5 } }), 'B', T3);
    assert.throws(
      () => apply(twice, config({ replicas: 5, paused: false, minReadySeconds: 1 }), 'C', T3),
      (e: unknown) =>
        e instanceof ApplyConflictError &&
        e.message ===
          'Apply failed with 3 conflicts: conflicts with "A" using apps/v1:\n- .spec.replicas\nconflicts with "B" using apps/v1:\n- .spec.minReadySeconds\n- .spec.paused',
    );
  });

  void it('lets kubectl take over fields from client-side apply and keeps the annotation in sync', () => {
    const lastApplied = JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2 },
    });
    const csa: KubeObject = config({ replicas: 2 }, { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } });
    const live = {
      ...csa,
      metadata: {
        ...csa.metadata,
        managedFields: updateManagedFields({
          old: undefined,
          updated: csa,
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          time: T1,
        }),
      },
    };
    const applied = config({ replicas: 4 });
    assert.throws(
      () => serverSideApply({ live, applied, manager: 'other', force: false, time: T2, meta }),
      (e: unknown) =>
        e instanceof ApplyConflictError &&
        e.message ===
          'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    const out = serverSideApply({ live, applied, manager: 'kubectl', force: false, time: T2, meta });
    assert.equal(spec(out).replicas, 4);
    assert.equal(
      (out.metadata.annotations as JsonObject)[LAST_APPLIED_ANNOTATION],
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":4}}\n',
    );
    assert.ok(!JSON.stringify(entry(out, 'kubectl-client-side-apply')).includes('f:replicas'));
  });

  void it('gives the fields of an unmanaged object to before-first-apply', () => {
    const bare = config({ replicas: 2 });
    assert.throws(
      () => apply(bare, config({ replicas: 4 }), 'C', T2),
      (e: unknown) => e instanceof ApplyConflictError && e.conflicts[0]?.manager === 'before-first-apply',
    );
  });

  void it('rejects managedFields in the configuration and a wrong apiVersion', () => {
    const withMf = config({ replicas: 1 }, { managedFields: [] });
    assert.throws(
      () => apply(created, withMf, 'C', T2),
      (e: unknown) => e instanceof PatchError && e.code === 400 && e.message === 'metadata.managedFields must be nil',
    );
    const wrong = { ...config({ replicas: 1 }), apiVersion: 'apps/v1beta1' };
    assert.throws(
      () => apply(created, wrong, 'C', T2),
      (e: unknown) =>
        e instanceof PatchError &&
        e.message ===
          'Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1',
    );
  });

  void it('rejects a list-map item without its key', () => {
    assert.throws(
      () => apply(created, config({ template: { spec: { containers: [{ image: 'x' }] } } }), 'C', T2),
      (e: unknown) =>
        e instanceof PatchError &&
        e.code === 400 &&
        e.message.includes(
          '.spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name"',
        ),
    );
  });

  void it('does not take status through the main resource', () => {
    const out = apply(
      created,
      {
        ...config(
          { replicas: 1, template: { spec: { containers: containers('app') } } },
          { labels: { a: '1', b: '2' } },
        ),
        status: { replicas: 9 },
      },
      'C',
      T2,
    );
    assert.equal(out.status, undefined);
  });

  void it('uses a CRD schema for list-maps of custom resources', () => {
    const crMeta = patchMetaFromSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            hooks: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: { type: 'object', properties: { name: { type: 'string' }, image: { type: 'string' } } },
            },
          },
        },
      },
    });
    const cr = (hooks: JsonValue[]): KubeObject => ({
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't' },
      spec: { hooks },
    });
    const one = serverSideApply({
      live: undefined,
      applied: cr([{ name: 'a', image: 'a' }]),
      manager: 'x',
      force: false,
      time: T1,
      meta: crMeta,
    });
    const two = serverSideApply({
      live: one,
      applied: cr([{ name: 'b', image: 'b' }]),
      manager: 'y',
      force: false,
      time: T2,
      meta: crMeta,
    });
    assert.deepEqual((two.spec as JsonObject).hooks, [
      { name: 'a', image: 'a' },
      { name: 'b', image: 'b' },
    ]);
  });
});
