import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../lib/json.js';
import type { KubeObject, ResourceType } from '../types.js';
import { humanDuration } from './human-duration.js';
import { evaluatePrinterColumn } from './jsonpath.js';
import { goPrintNumber, toTable } from './table.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

void describe('humanDuration', () => {
  const cases: [number, string][] = [
    [-5 * S, '<invalid>'],
    [-1 * S, '0s'],
    [0, '0s'],
    [5 * S, '5s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [3 * M + 20 * S, '3m20s'],
    [9 * M + 59 * S, '9m59s'],
    [15 * M + 30 * S, '15m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 10 * M, '5h10m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [2 * D + 4 * H, '2d4h'],
    [8 * D, '8d'],
    [400 * D, '400d'],
    [730 * D, '2y'],
    [3 * 365 * D + 20 * D, '3y20d'],
    [9 * 365 * D, '9y'],
  ];
  for (const [ms, want] of cases) void it(`${ms}ms is ${want}`, () => assert.equal(humanDuration(ms), want));
});

void describe('evaluatePrinterColumn', () => {
  const obj: JsonObject = {
    metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'x' } },
    status: {
      conditions: [
        { type: 'Started', status: 'True' },
        { type: 'Succeeded', status: 'False', reason: 'Failed' },
      ],
      history: [{ version: '4.14' }, { version: '4.15' }],
    },
  };
  const cases: [string, unknown][] = [
    ['.metadata.name', 'a'],
    ['{.metadata.name}', 'a'],
    [".metadata.labels['app.kubernetes.io/name']", 'x'],
    ['.status.history[0].version', '4.14'],
    ['.status.history[-1].version', '4.15'],
    ['.status.history[*].version', '4.14'],
    ['.status.conditions[?(@.type=="Succeeded")].reason', 'Failed'],
    [".status.conditions[?(@.type=='Started')].status", 'True'],
    ['.status.missing', undefined],
    ['.status.history[9]', undefined],
    ['not a path', undefined],
  ];
  for (const [path, want] of cases) void it(path, () => assert.deepEqual(evaluatePrinterColumn(obj, path), want));
});

function rt(p: Partial<ResourceType>): ResourceType {
  return {
    group: '',
    version: 'v1',
    versions: ['v1'],
    resource: 'x',
    singular: 'x',
    kind: 'X',
    listKind: 'XList',
    namespaced: true,
    shortNames: [],
    categories: [],
    subresources: [],
    custom: false,
    ...p,
  };
}

function obj(name: string, extra: JsonObject = {}, created = '2024-05-01T11:55:00Z'): KubeObject {
  return { apiVersion: 'v1', kind: 'X', metadata: { name, namespace: 'ns', creationTimestamp: created }, ...extra };
}

void describe('toTable', () => {
  void it('custom resources without printer columns get Name and Age, rows carry PartialObjectMetadata', () => {
    const t = toTable(rt({ group: 'g.io', custom: true, kind: 'UpgradeConfig' }), [obj('a')], {
      listMeta: { resourceVersion: '7' },
      now: NOW,
    });
    assert.equal(t['kind'], 'Table');
    assert.equal(t['apiVersion'], 'meta.k8s.io/v1');
    assert.deepEqual(t['metadata'], { resourceVersion: '7' });
    const cols = t['columnDefinitions'] as JsonObject[];
    assert.deepEqual(
      cols.map((c) => [c['name'], c['type'], c['format'], c['priority']]),
      [
        ['Name', 'string', 'name', 0],
        ['Age', 'date', '', 0],
      ],
    );
    const rows = t['rows'] as JsonObject[];
    assert.deepEqual(rows[0]!['cells'], ['a', '5m']);
    assert.deepEqual(rows[0]!['object'], {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'a', namespace: 'ns', creationTimestamp: '2024-05-01T11:55:00Z' },
    });
  });

  void it('custom resources use their printer columns with typed cells', () => {
    const columns: JsonObject[] = [
      { name: 'Desired', type: 'string', jsonPath: '.spec.desired.version' },
      { name: 'Retries', type: 'integer', jsonPath: '.status.retries', priority: 1 },
      { name: 'Ratio', type: 'number', jsonPath: '.status.ratio' },
      { name: 'Forced', type: 'boolean', jsonPath: '.spec.force' },
      { name: 'Started', type: 'date', jsonPath: '.status.startedAt', description: 'When it started' },
      { name: 'Missing', type: 'string', jsonPath: '.status.nothing' },
    ];
    const o = obj('a', {
      spec: { desired: { version: '4.15.1' }, force: true },
      status: { retries: 2.7, ratio: 0.5, startedAt: '2024-04-29T12:00:00Z' },
    });
    const t = toTable(rt({ group: 'g.io', custom: true }), [o], {
      printerColumns: columns,
      includeObject: 'None',
      listMeta: {},
      now: NOW,
    });
    const cols = t['columnDefinitions'] as JsonObject[];
    assert.deepEqual(
      cols.map((c) => c['name']),
      ['Name', 'Desired', 'Retries', 'Ratio', 'Forced', 'Started', 'Missing'],
    );
    assert.equal(
      cols[1]!['description'],
      'Custom resource definition column (in JSONPath format): .spec.desired.version',
    );
    assert.equal(cols[2]!['priority'], 1);
    assert.equal(cols[5]!['description'], 'When it started');
    const row = (t['rows'] as JsonObject[])[0]!;
    assert.deepEqual(row['cells'], ['a', '4.15.1', 2, 0.5, true, '2d', null]);
    assert.equal(row['object'], undefined);
  });

  void it("a string column over an array or object prints compact JSON, as kube-apiserver's jsonpath does; numbers as Go prints them", () => {
    const columns: JsonObject[] = [
      { name: 'Events', type: 'string', jsonPath: '.spec.events' },
      { name: 'Selector', type: 'string', jsonPath: '.spec.selector' },
      { name: 'Count', type: 'string', jsonPath: '.spec.count' },
      { name: 'Ratio', type: 'string', jsonPath: '.spec.ratio' },
      { name: 'Flag', type: 'string', jsonPath: '.spec.flag' },
    ];
    const o = obj('a', {
      spec: {
        events: ['Create', 'Start', 'Finish'],
        selector: { z: '<b>', a: [1, 2.5] },
        count: 100000000,
        ratio: 0.00001,
        flag: false,
      },
    });
    const t = toTable(rt({ group: 'g.io', custom: true }), [o], {
      printerColumns: columns,
      includeObject: 'None',
      listMeta: {},
      now: NOW,
    });
    assert.deepEqual((t['rows'] as JsonObject[])[0]!['cells'], [
      'a',
      '["Create","Start","Finish"]',
      '{"a":[1,2.5],"z":"\\u003cb\\u003e"}',
      '100000000',
      '1e-05',
      'false',
    ]);
  });

  void it('Go prints a decoded JSON number: int64 whole numbers, %v floats', () => {
    assert.deepEqual([3, -7, 1e15, 1.5, 0.0001, 0.00001, 123456.5, 1234567.5, -2.5e-7].map(goPrintNumber), [
      '3',
      '-7',
      '1000000000000000',
      '1.5',
      '0.0001',
      '1e-05',
      '123456.5',
      '1.2345675e+06',
      '-2.5e-07',
    ]);
  });

  void it('pods print NAME READY STATUS RESTARTS AGE and the wide columns', () => {
    const pod = obj('web-1', {
      spec: { containers: [{ name: 'a' }, { name: 'b' }], nodeName: 'worker-0' },
      status: {
        phase: 'Running',
        podIP: '10.0.0.5',
        containerStatuses: [
          {
            name: 'a',
            ready: true,
            restartCount: 2,
            state: { running: {} },
            lastState: { terminated: { finishedAt: '2024-05-01T11:58:00Z' } },
          },
          { name: 'b', ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    });
    const t = toTable(rt({ kind: 'Pod', resource: 'pods' }), [pod], {
      listMeta: {},
      now: NOW,
      includeObject: 'Object',
    });
    const cols = t['columnDefinitions'] as JsonObject[];
    assert.deepEqual(
      cols.map((c) => `${c['name'] as string}:${c['priority'] as number}`),
      [
        'Name:0',
        'Ready:0',
        'Status:0',
        'Restarts:0',
        'Age:0',
        'IP:1',
        'Node:1',
        'Nominated Node:1',
        'Readiness Gates:1',
      ],
    );
    const row = (t['rows'] as JsonObject[])[0]!;
    assert.deepEqual(row['cells'], [
      'web-1',
      '1/2',
      'CrashLoopBackOff',
      '2 (2m ago)',
      '5m',
      '10.0.0.5',
      'worker-0',
      '<none>',
      '<none>',
    ]);
    assert.deepEqual(row['object'], pod);
  });

  void it('nodes, namespaces, configmaps, leases, events and CRDs print their kube columns', () => {
    const names = (r: ResourceType): string[] =>
      (toTable(r, [], { listMeta: {}, now: NOW })['columnDefinitions'] as JsonObject[])
        .filter((c) => c['priority'] === 0)
        .map((c) => c['name'] as string);
    assert.deepEqual(names(rt({ kind: 'Node', namespaced: false })), ['Name', 'Status', 'Roles', 'Age', 'Version']);
    assert.deepEqual(names(rt({ kind: 'Namespace', namespaced: false })), ['Name', 'Status', 'Age']);
    assert.deepEqual(names(rt({ group: 'apps', kind: 'Deployment' })), [
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
    ]);
    assert.deepEqual(names(rt({ group: 'batch', kind: 'Job' })), ['Name', 'Completions', 'Duration', 'Age']);
    assert.deepEqual(names(rt({ group: 'policy', kind: 'PodDisruptionBudget' })), [
      'Name',
      'Min Available',
      'Max Unavailable',
      'Allowed Disruptions',
      'Age',
    ]);
    assert.deepEqual(names(rt({ kind: 'Event' })), ['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    assert.deepEqual(names(rt({ kind: 'ConfigMap' })), ['Name', 'Data', 'Age']);
    assert.deepEqual(names(rt({ kind: 'Secret' })), ['Name', 'Type', 'Data', 'Age']);
    assert.deepEqual(names(rt({ group: 'coordination.k8s.io', kind: 'Lease' })), ['Name', 'Holder', 'Age']);
    assert.deepEqual(
      names(rt({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', namespaced: false })),
      ['Name', 'Created At'],
    );
    assert.deepEqual(names(rt({ group: 'other.io', kind: 'Thing' })), ['Name', 'Created At']);
  });

  void it('computes node, configmap and event cells', () => {
    const node = obj('w0', {
      metadata: {
        name: 'w0',
        creationTimestamp: '2024-04-01T12:00:00Z',
        labels: { 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/infra': '' },
      },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.29.5' } },
    });
    const nodeRow = (
      toTable(rt({ kind: 'Node', namespaced: false }), [node], { listMeta: {}, now: NOW })['rows'] as JsonObject[]
    )[0]!;
    assert.deepEqual((nodeRow['cells'] as unknown[]).slice(0, 5), [
      'w0',
      'Ready,SchedulingDisabled',
      'infra,worker',
      '30d',
      'v1.29.5',
    ]);
    const cm = obj('c', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } });
    assert.deepEqual(
      (toTable(rt({ kind: 'ConfigMap' }), [cm], { listMeta: {}, now: NOW })['rows'] as JsonObject[])[0]!['cells'],
      ['c', 3, '5m'],
    );
    const ev = obj('e1', {
      type: 'Normal',
      reason: 'Started',
      message: 'upgrade started',
      involvedObject: { kind: 'UpgradeConfig', name: 'osd' },
      lastTimestamp: '2024-05-01T11:59:30Z',
      count: 2,
    });
    const evCells = (toTable(rt({ kind: 'Event' }), [ev], { listMeta: {}, now: NOW })['rows'] as JsonObject[])[0]![
      'cells'
    ] as unknown[];
    assert.deepEqual(evCells.slice(0, 4), ['30s', 'Normal', 'Started', 'upgradeconfig/osd']);
    assert.equal(evCells[6], 'upgrade started');
    assert.equal(evCells[9], 'e1');
  });
});
