import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCatalogue } from '../sim/releases/catalogue.js';
import { updatesFrom as simUpdatesFrom, type CincinnatiGraph } from '../sim/updateservice/graph.js';
import { startUpdateService, type UpdateService } from '../sim/updateservice/server.js';
import { NO_PROXY_CONFIG } from './http/proxy-env.js';
import { IntegrationError } from './integration-error.js';
import { UpdateServiceClient, parseGraph, updatesFrom, type UpdateGraph } from './update-service-client.js';

const CHANNELS = 'candidate-4.14,stable-4.15,fast-4.14,eus-4.14';
const node = (version: string, extra: Record<string, string> = {}): UpdateGraph['nodes'][number] => ({
  version,
  payload: `quay.io/openshift-release-dev/ocp-release@sha256:${version.replace(/\./g, '').padEnd(64, '0')}`,
  metadata: { [`io.openshift.upgrades.graph.release.channels`]: CHANNELS, url: `https://errata/${version}`, ...extra },
});
const promql = (q: string): { type: string; promql: { promql: string } } => ({ type: 'PromQL', promql: { promql: q } });

/** The sample graph (docs/design/cluster-model.md#the-sample-graph), abridged. */
function sample(): UpdateGraph {
  return {
    nodes: [
      node('4.14.10'),
      node('4.14.11'),
      node('4.14.12'),
      node('4.15.2'),
      node('4.15.3', { 'release.openshift.io/architecture': 'multi' }),
    ],
    edges: [
      [0, 1],
      [0, 2],
      [1, 2],
      [2, 4],
      [3, 4],
    ],
    conditionalEdges: [
      {
        edges: [
          { from: '4.14.10', to: '4.15.3' },
          { from: '4.14.11', to: '4.15.3' },
        ],
        risks: [
          {
            url: 'https://issues/OPRUN-3267',
            name: 'OLMOperatorsInFailedState',
            message: 'OLM',
            matchingRules: [promql('group(csv_succeeded)'), { type: 'Future' }],
          },
          {
            url: 'https://issues/MCO-1031',
            name: 'AWSCustomDomainNodesNotReady',
            message: 'AWS',
            matchingRules: [promql('group(x)')],
          },
        ],
      },
      {
        edges: [{ from: '4.14.10', to: '4.15.2' }],
        risks: [
          { url: 'https://issues/OTA-1599', name: 'PreRelease', message: 'pre', matchingRules: [{ type: 'Always' }] },
        ],
      },
    ],
  };
}

test('updatesFrom reads a graph as the CVO does', () => {
  const from10 = updatesFrom(sample(), '4.14.10');
  assert.ok(from10);
  assert.deepEqual(from10.current, {
    version: '4.14.10',
    image: sample().nodes[0]!.payload,
    url: 'https://errata/4.14.10',
    channels: ['candidate-4.14', 'eus-4.14', 'fast-4.14', 'stable-4.15'],
  });
  assert.deepEqual(
    from10.updates.map((u) => u.version),
    ['4.14.11', '4.14.12'],
  );
  assert.deepEqual(
    from10.conditionalUpdates.map((c) => [c.release.version, c.risks.map((r) => r.name)]),
    [
      ['4.15.3', ['OLMOperatorsInFailedState', 'AWSCustomDomainNodesNotReady']],
      ['4.15.2', ['PreRelease']],
    ],
  );
  assert.equal(from10.conditionalUpdates[0]?.release.architecture, 'Multi');
  // Unknown rule types are pruned.
  assert.deepEqual(from10.conditionalUpdates[0]?.risks[0]?.matchingRules, [
    { type: 'PromQL', promql: { promql: 'group(csv_succeeded)' } },
  ]);
  assert.deepEqual(
    updatesFrom(sample(), '4.14.12')?.updates.map((u) => u.version),
    ['4.15.3'],
  );
  assert.deepEqual(updatesFrom(sample(), '4.14.12')?.conditionalUpdates, []);
  assert.equal(updatesFrom(sample(), '4.13.0'), undefined);
});

test('updatesFrom: conditional targets win over unconditional ones; unevaluable and repeated targets are dropped', () => {
  const g = sample();
  g.edges.push([0, 4]);
  g.conditionalEdges.push({
    edges: [{ from: '4.14.10', to: '4.15.3' }],
    risks: [{ url: 'u', name: 'Again', message: 'm', matchingRules: [{ type: 'Always' }] }],
  });
  g.conditionalEdges.push({
    edges: [{ from: '4.14.10', to: '4.14.11' }],
    risks: [{ url: 'u', name: 'OnlyUnknown', message: 'm', matchingRules: [{ type: 'Future' }] }],
  });
  const r = updatesFrom(g, '4.14.10');
  assert.deepEqual(
    r?.updates.map((u) => u.version),
    ['4.14.11', '4.14.12'],
  );
  assert.deepEqual(
    r?.conditionalUpdates.map((c) => [c.release.version, c.risks.length]),
    [
      ['4.15.3', 2],
      ['4.15.2', 1],
    ],
  );
  g.conditionalEdges.push({ edges: [{ from: '4.14.10', to: '4.16.0' }], risks: [] });
  assert.throws(
    () => updatesFrom(g, '4.14.10'),
    (e: unknown) => e instanceof IntegrationError && e.reason === 'BadResponse' && /4\.16\.0/.test(e.message),
  );
});

test('parseGraph rejects what is not a graph', () => {
  assert.deepEqual(parseGraph({ nodes: [], edges: [] }), { nodes: [], edges: [], conditionalEdges: [] });
  for (const [body, re] of [
    [[], /not an object/],
    [{ nodes: {} }, /nodes is not a list/],
    [{ nodes: [{ version: '1' }] }, /nodes\[0\]\.payload/],
    [{ nodes: [], edges: [[0, 1]] }, /edges\[0\]/],
    [{ nodes: [], edges: [], conditionalEdges: [{ edges: [] }] }, /conditionalEdges\[0\]/],
  ] as Array<[unknown, RegExp]>) {
    assert.throws(
      () => parseGraph(body),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'BadResponse' && re.test(e.message),
    );
  }
});

test('the request carries the CVO parameters in sorted order and Accept: application/json', async () => {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ nodes: [], edges: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new UpdateServiceClient({ proxy: NO_PROXY_CONFIG });
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/upgrades_info/v1/graph`;
    await client.graph({
      upstream: url,
      version: '4.14.10',
      id: '6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31',
      channel: 'stable-4.15',
      arch: 'amd64',
    });
    assert.equal(
      seen[0]?.url,
      '/api/upgrades_info/v1/graph?arch=amd64&channel=stable-4.15&id=6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31&version=4.14.10',
    );
    assert.equal(seen[0]?.headers.accept, 'application/json');
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function withService(fn: (svc: UpdateService, client: UpdateServiceClient) => Promise<void>): Promise<void> {
  const svc = await startUpdateService({ catalogue: buildCatalogue() });
  const client = new UpdateServiceClient({ proxy: NO_PROXY_CONFIG });
  try {
    await fn(svc, client);
  } finally {
    await client.close();
    await svc.close();
  }
}

test('against the simulated update service: the graph and the updates from a version', async () => {
  await withService(async (svc, client) => {
    const graph = await client.graph({
      upstream: svc.graphUrl,
      channel: 'stable-4.15',
      arch: 'amd64',
      version: '4.14.10',
    });
    const mine = updatesFrom(graph, '4.14.10');
    const theirs = simUpdatesFrom(JSON.parse(JSON.stringify(graph)) as CincinnatiGraph, '4.14.10');
    assert.ok(mine && theirs);
    const conditional = new Set(theirs.conditional.map((c) => c.to));
    assert.deepEqual(
      mine.updates.map((u) => u.version).sort(),
      theirs.available.filter((v) => !conditional.has(v)).sort(),
    );
    assert.deepEqual(mine.conditionalUpdates.map((c) => c.release.version).sort(), [...conditional].sort());
    assert.ok(mine.conditionalUpdates.length > 0);
    assert.ok(mine.updates.every((u) => u.image.startsWith('quay.io/') && (u.channels ?? []).includes('stable-4.15')));
  });
});

test('against the simulated update service: errors carry their reason', async () => {
  await withService(async (svc, client) => {
    const fails = async (reason: string, re: RegExp, channel = 'stable-4.15'): Promise<void> => {
      await assert.rejects(
        client.graph({ upstream: svc.graphUrl, channel }),
        (e: unknown) => e instanceof IntegrationError && e.reason === reason && re.test(e.message),
      );
    };
    await fails(
      'HttpStatus',
      /HTTP 400: invalid_params: invalid client parameters: channel 'Stable-4\.15'/,
      'Stable-4.15',
    );
    await svc.setFault({ kind: 'server-error' });
    await fails('HttpStatus', /HTTP 500: failed_upstream_fetch/);
    await svc.setFault({ kind: 'unavailable' });
    await fails('HttpStatus', /HTTP 503/);
    await svc.setFault({ kind: 'bad-json' });
    await fails('BadResponse', /not JSON/);
    await svc.setFault({ kind: 'refused' });
    // (a pooled keep-alive connection may see the close as a reset instead)
    await fails('Unreachable', /connection (refused|reset)/);
    await svc.setFault(undefined);
  });
});
