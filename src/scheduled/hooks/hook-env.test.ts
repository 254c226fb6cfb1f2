import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UPGRADE_EVENTS } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import {
  eventMessage,
  flattenInto,
  hookEnvironment,
  hookEnvRoots,
  sanitizeEnvKey,
  type HookEventInput,
} from './hook-env.js';
import { upgradeJob } from './hook-fixtures.test-support.js';

const NOW = Date.parse('2023-11-14T20:13:21Z');

function envOf(input: Partial<HookEventInput> = {}): Map<string, string> {
  const { env } = hookEnvironment({
    job: upgradeJob(),
    event: 'Create',
    reason: '',
    now: NOW,
    matchesDisruptiveHooks: false,
    ...input,
  });
  return new Map(env.map((e) => [e.name, e.value ?? '']));
}

test('EVENT_name is the JSON string of the event, quotes included', () => {
  const env = envOf();
  assert.equal(env.get('EVENT_name'), '"Create"');
  assert.equal(env.get('EVENT_name')?.length, 8);
  assert.equal(env.get('EVENT_reason'), '""');
  assert.equal(env.get('EVENT_time'), '"2023-11-14T20:13:21Z"');
  assert.equal(env.get('EVENT_message'), '""');
  assert.equal(env.get('EVENT_NAME'), '"Create"');
  assert.equal(env.get('EVENT'), '{"message":"","name":"Create","reason":"","time":"2023-11-14T20:13:21Z"}');
  assert.equal(env.has('EVENT_pool'), false);
});

test('JOB_* flattens metadata, labels with sanitised keys, spec and the desired version', () => {
  const env = envOf();
  assert.equal(env.get('JOB_metadata_name'), '"cluster-upgrade-4-15-3-1700000000"');
  assert.equal(env.get('JOB_metadata_namespace'), '"appuio-openshift-upgrade-controller"');
  assert.equal(env.get('JOB_metadata_labels_app_kubernetes_io_name'), '"upgrade"');
  assert.equal(env.get('JOB_metadata_labels_upgrade_config'), '"cluster-upgrade"');
  assert.equal(env.get('JOB_spec_desiredVersion_version'), '"4.15.3"');
  assert.equal(env.get('JOB_spec_desiredVersion_image'), '"quay.io/openshift-release-dev/ocp-release@sha256:abc"');
  assert.equal(env.get('JOB_spec_desiredVersion_force'), 'false');
  assert.equal(env.get('JOB_spec_desiredVersion_architecture'), '""');
  assert.equal(env.get('JOB_spec_startAfter'), '"2023-11-14T22:13:20Z"');
  assert.equal(env.get('JOB_spec_config_upgradeTimeout'), '"12h0m0s"');
  assert.equal(env.get('JOB_spec_config_preUpgradeHealthChecks_timeout'), '"1h0m0s"');
  assert.equal(env.get('JOB_spec_config_preUpgradeHealthChecks_skipDegradedOperatorsCheck'), 'false');
  assert.equal(env.get('JOB_apiVersion'), '"managedupgrade.appuio.io/v1beta1"');
  assert.equal(env.get('META_matchesDisruptiveHooks'), 'false');
  assert.equal(env.get('META'), '{"matchesDisruptiveHooks":false}');
});

test('a noop job has no JOB_spec_desiredVersion_* variables', () => {
  const env = envOf({ job: upgradeJob({ noop: true }) });
  assert.deepEqual(
    [...env.keys()].filter((k) => k.startsWith('JOB_spec_desiredVersion')),
    [],
  );
});

test('managedFields are left out; JOB holds the whole (Go-shaped) job as sorted JSON', () => {
  const env = envOf();
  assert.deepEqual(
    [...env.keys()].filter((k) => k.includes('managedFields')),
    [],
  );
  const job = JSON.parse(env.get('JOB') ?? '') as JsonObject;
  assert.equal((job['metadata'] as JsonObject)['managedFields'], undefined);
  assert.ok(
    (env.get('JOB') ?? '').startsWith(
      '{"apiVersion":"managedupgrade.appuio.io/v1beta1","kind":"UpgradeJob","metadata":{"creationTimestamp":',
    ),
  );
});

test('arrays are indexed from 0; empty objects and arrays give no variable', () => {
  const job = upgradeJob({
    conditions: [
      { type: 'Started', status: 'True', reason: 'Started', message: 'Upgrade started at 2023-11-14T22:13:20Z' },
    ],
  });
  if (job.metadata) job.metadata.annotations = {};
  if (job.metadata) job.metadata.finalizers = [];
  const env = envOf({ job, event: 'Start', reason: 'Started' });
  assert.equal(env.get('JOB_status_conditions_0_type'), '"Started"');
  assert.equal(env.get('JOB_status_conditions_0_message'), '"Upgrade started at 2023-11-14T22:13:20Z"');
  assert.equal(env.get('EVENT_message'), '"Upgrade started at 2023-11-14T22:13:20Z"');
  assert.equal(env.get('EVENT_reason'), '"Started"');
  assert.equal(env.has('JOB_metadata_annotations'), false);
  assert.equal(env.has('JOB_metadata_finalizers'), false);
  assert.equal(env.has('JOB_status'), false);
});

test('values are JSON-encoded the Go way: HTML characters escaped, numbers and null', () => {
  const job = upgradeJob();
  if (job.metadata)
    job.metadata = {
      ...job.metadata,
      annotations: { 'note/x': 'a<b>&c', n: null as unknown as string },
      generation: 3,
    };
  const env = envOf({ job });
  assert.equal(env.get('JOB_metadata_annotations_note_x'), '"a\\u003cb\\u003e\\u0026c"');
  assert.equal(env.get('JOB_metadata_annotations_n'), 'null');
  assert.equal(env.get('JOB_metadata_generation'), '3');
  assert.ok((env.get('JOB') ?? '').includes('"note/x":"a\\u003cb\\u003e\\u0026c"'));
});

test('MachineConfigPoolUnpause carries the pool', () => {
  const env = envOf({ event: 'MachineConfigPoolUnpause', reason: 'DelayReached', pool: 'worker' });
  assert.equal(env.get('EVENT_pool'), '"worker"');
  assert.equal(env.get('EVENT_reason'), '"DelayReached"');
  assert.equal(
    env.get('EVENT'),
    '{"message":"","name":"MachineConfigPoolUnpause","pool":"worker","reason":"DelayReached","time":"2023-11-14T20:13:21Z"}',
  );
});

test('final events take the message of the final condition', () => {
  const failed = upgradeJob({
    conditions: [{ type: 'Failed', status: 'True', reason: 'TimedOut', message: 'Upgrade timed out after 12h0m0s' }],
  });
  assert.equal(eventMessage(failed, 'Failure'), 'Upgrade timed out after 12h0m0s');
  assert.equal(eventMessage(failed, 'Finish'), 'Upgrade timed out after 12h0m0s');
  assert.equal(eventMessage(failed, 'Success'), '');
  const ok = upgradeJob({
    conditions: [
      { type: 'Succeeded', status: 'True', reason: 'Succeeded', message: 'Upgrade succeeded' },
      { type: 'PostHealthCheckDone', status: 'True', message: 'Health checks ok' },
    ],
  });
  assert.equal(eventMessage(ok, 'Finish'), 'Upgrade succeeded');
  assert.equal(eventMessage(ok, 'UpgradeComplete'), 'Health checks ok');
  assert.equal(eventMessage(ok, 'Create'), '');
  assert.equal(
    envOf({ job: ok, event: 'Success', reason: 'Succeeded', message: 'custom' }).get('EVENT_message'),
    '"custom"',
  );
});

test('variables are sorted by name and unique', () => {
  const { env } = hookEnvironment({
    job: upgradeJob(),
    event: 'Start',
    reason: 'Started',
    now: NOW,
    matchesDisruptiveHooks: true,
  });
  const names = env.map((e) => e.name);
  assert.deepEqual(names, [...names].sort());
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(names.slice(0, 3), ['EVENT', 'EVENT_NAME', 'EVENT_message']);
});

test('sanitising replaces each character outside [A-Za-z0-9_] by one _', () => {
  assert.equal(sanitizeEnvKey('app.kubernetes.io/name'), 'app_kubernetes_io_name');
  assert.equal(sanitizeEnvKey('my-var.io/info'), 'my_var_io_info');
  assert.equal(sanitizeEnvKey('Grüße😀'), 'Gr__e_');
  assert.equal(sanitizeEnvKey('Keep_Case_09'), 'Keep_Case_09');
});

test('keys that sanitise to one name resolve deterministically: the literal key wins', () => {
  const job = upgradeJob({ labels: { a_b: 'literal', 'a.b': 'dotted', 'a-b': 'dashed' } });
  const { env, shadowed } = hookEnvironment({
    job,
    event: 'Create',
    reason: '',
    now: NOW,
    matchesDisruptiveHooks: false,
  });
  assert.equal(env.find((e) => e.name === 'JOB_metadata_labels_a_b')?.value, '"literal"');
  assert.deepEqual(shadowed, ['JOB_metadata_labels_a_b', 'JOB_metadata_labels_a_b']);
});

test('flattenInto walks nested objects and arrays', () => {
  const into = new Map<string, JsonValue>();
  flattenInto('X', { a: { b: [1, { c: true }], e: {} }, 'd.e': null }, into);
  assert.deepEqual(
    [...into.entries()],
    [
      ['X_a_b_0', 1],
      ['X_a_b_1_c', true],
      ['X_d_e', null],
    ],
  );
});

const jsonTree = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 4 }),
  ),
})).value as fc.Arbitrary<JsonValue>;

function jobWith(labels: Record<string, string>, annotations: JsonObject): UpgradeJob {
  const job = upgradeJob({ labels });
  if (job.metadata) job.metadata.annotations = annotations as unknown as Record<string, string>;
  return job;
}

test('property: every name is a valid environment variable name', () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.string()),
      fc.dictionary(fc.string(), jsonTree),
      fc.constantFrom(...UPGRADE_EVENTS),
      (labels, annotations, event) => {
        const { env } = hookEnvironment({
          job: jobWith(labels, annotations),
          event,
          reason: 'r',
          pool: 'p',
          now: NOW,
          matchesDisruptiveHooks: true,
        });
        for (const e of env) assert.match(e.name, /^[A-Za-z_][A-Za-z0-9_]*$/);
      },
    ),
  );
});

test('property: flattening is deterministic, whatever the key order', () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.string()),
      fc.dictionary(fc.string(), jsonTree),
      (labels, annotations) => {
        const input = { event: 'Create' as const, reason: '', now: NOW, matchesDisruptiveHooks: false };
        const a = hookEnvironment({ ...input, job: jobWith(labels, annotations) });
        const reversed = (o: Record<string, unknown>): Record<string, unknown> =>
          Object.fromEntries(Object.entries(o).reverse());
        const b = hookEnvironment({
          ...input,
          job: jobWith(reversed(labels) as Record<string, string>, reversed(annotations) as JsonObject),
        });
        assert.deepEqual(a, b);
        assert.deepEqual(hookEnvironment({ ...input, job: jobWith(labels, annotations) }), a);
      },
    ),
  );
});

test('property: each value is the JSON of what it names; roots parse back to the documents', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), jsonTree), (annotations) => {
      const input: HookEventInput = {
        job: jobWith({}, annotations),
        event: 'Start',
        reason: 'Started',
        now: NOW,
        matchesDisruptiveHooks: false,
      };
      const roots = hookEnvRoots(input);
      const { env } = hookEnvironment(input);
      for (const e of env) {
        const parsed = JSON.parse(e.value ?? '') as JsonValue;
        if (e.name === 'JOB' || e.name === 'EVENT' || e.name === 'META')
          assert.ok(jsonEqual(parsed, roots[e.name]), e.name);
        else assert.ok(parsed === null || typeof parsed !== 'object', e.name);
      }
    }),
  );
});
