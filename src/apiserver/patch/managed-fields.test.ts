import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import type { KubeObject } from '../types.js';
import { updateManagedFields } from './managed-fields.js';

const T1 = '2024-05-01T10:00:00Z';
const T2 = '2024-05-01T10:01:00Z';
const T3 = '2024-05-01T10:02:00Z';

function deployment(spec: JsonObject, metadata: JsonObject = {}, managedFields?: JsonValue[]): KubeObject {
  const md: JsonObject = { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '1', ...metadata };
  if (managedFields) md.managedFields = managedFields;
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: md, spec };
}

function write(
  old: KubeObject | undefined,
  updated: KubeObject,
  manager: string,
  time: string,
  subresource?: string,
): KubeObject {
  const args = subresource
    ? { old, updated, manager, operation: 'Update' as const, time, subresource }
    : { old, updated, manager, operation: 'Update' as const, time };
  return { ...updated, metadata: { ...updated.metadata, managedFields: updateManagedFields(args) } };
}

function entries(o: KubeObject): JsonObject[] {
  return o.metadata.managedFields as JsonObject[];
}

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] } };

void describe('updateManagedFields', () => {
  const created = write(undefined, deployment({ replicas: 1, template }, { labels: { app: 'web' } }), 'A', T1);

  void it("records a create as the creator's Update entry, in kube's encoding", () => {
    assert.deepEqual(entries(created), [
      {
        manager: 'A',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            '.': {},
            'f:replicas': {},
            'f:template': {
              '.': {},
              'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                '.': {},
                'f:containers': { '.': {}, 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
              },
            },
          },
        },
      },
    ]);
  });

  const scaled = write(
    created,
    deployment({ replicas: 3, template }, { labels: { app: 'web' } }, entries(created)),
    'B',
    T2,
  );

  void it('moves a changed field to the writer and takes it from its previous owner', () => {
    const [a, b] = entries(scaled);
    assert.equal(a?.manager, 'A');
    assert.equal(
      (a?.fieldsV1 as JsonObject)['f:spec'] && 'f:replicas' in ((a?.fieldsV1 as JsonObject)['f:spec'] as JsonObject),
      false,
    );
    assert.deepEqual(b, {
      manager: 'B',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: T2,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
  });

  void it('leaves managedFields alone when a write changes nothing', () => {
    const again = write(
      scaled,
      deployment({ replicas: 3, template }, { labels: { app: 'web' } }, entries(scaled)),
      'C',
      T3,
    );
    assert.deepEqual(entries(again), entries(scaled));
  });

  void it('keeps one entry per manager and restamps it', () => {
    const rescaled = write(
      scaled,
      deployment({ replicas: 5, template }, { labels: { app: 'web' } }, entries(scaled)),
      'B',
      T3,
    );
    const bs = entries(rescaled).filter((e) => e.manager === 'B');
    assert.equal(bs.length, 1);
    assert.equal(bs[0]?.time, T3);
  });

  void it('drops removed fields from every entry and drops empty entries', () => {
    const unlabelled = write(scaled, deployment({ template }, { labels: { app: 'web' } }, entries(scaled)), 'A', T3);
    assert.deepEqual(
      entries(unlabelled).map((e) => e.manager),
      ['A'],
    );
  });

  void it('tracks /status writes separately and ignores status on main-resource writes', () => {
    const withStatus = write(
      scaled,
      {
        ...deployment({ replicas: 3, template }, { labels: { app: 'web' } }, entries(scaled)),
        status: { replicas: 3 },
      },
      'ctrl',
      T3,
      'status',
    );
    const ctrl = entries(withStatus).find((e) => e.manager === 'ctrl');
    assert.deepEqual(ctrl, {
      manager: 'ctrl',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: T3,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { '.': {}, 'f:replicas': {} } },
      subresource: 'status',
    });
    const mainWrite = write(
      scaled,
      {
        ...deployment({ replicas: 3, template }, { labels: { app: 'web' } }, entries(scaled)),
        status: { replicas: 3 },
      },
      'D',
      T3,
    );
    assert.equal(
      entries(mainWrite).find((e) => e.manager === 'D'),
      undefined,
    );
  });

  void it('lets a client reset managedFields with [{}] and replace them with a valid list', () => {
    const reset = write(scaled, deployment({ replicas: 3, template }, { labels: { app: 'web' } }, [{}]), 'E', T3);
    assert.deepEqual(entries(reset), []);
    const replacement: JsonValue[] = [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ];
    const replaced = write(
      scaled,
      deployment({ replicas: 3, template }, { labels: { app: 'web' } }, replacement),
      'E',
      T3,
    );
    assert.deepEqual(entries(replaced), replacement);
  });

  void it('sorts Apply entries first, then by time', () => {
    const mf: JsonValue[] = [
      {
        manager: 'z',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:paused': {} } },
      },
      {
        manager: 'y',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T2,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:minReadySeconds': {} } },
      },
    ];
    const old = deployment({ replicas: 1, paused: false, minReadySeconds: 1 }, {}, mf);
    const out = write(old, deployment({ replicas: 2, paused: false, minReadySeconds: 1 }, {}, mf), 'x', T3);
    assert.deepEqual(
      entries(out).map((e) => e.manager),
      ['y', 'z', 'x'],
    );
  });
});
