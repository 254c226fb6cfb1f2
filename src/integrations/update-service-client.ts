/**
 * The OpenShift Update Service (Cincinnati) client: `GET <upstream>?arch=&channel=&id=&version=`
 * with `Accept: application/json`, as the CVO's `pkg/cincinnati` sends it (MUO reuses that package
 * to check channel-change targets, docs/design/managed-flow.md#validation step 5), and the pure
 * reading of a graph into available and conditional updates
 * (docs/design/cluster-model.md#request-and-response,
 * docs/design/cluster-model.md#how-the-cvo-reads-the-graph).
 *
 * The release types here mirror `config.openshift.io/v1` `Release` / `ConditionalUpdate`
 * structurally: `integrations/` may not import `api/` (same layer).
 */
import { HttpClient, bodyExcerpt, type HttpTransportOptions } from './http/http-client.js';
import { IntegrationError } from './integration-error.js';

const API = 'update-service';

/** Red Hat's public update service. */
export const DEFAULT_UPSTREAM = 'https://api.openshift.com/api/upgrades_info/v1/graph';
export const CHANNELS_METADATA_KEY = 'io.openshift.upgrades.graph.release.channels';
export const ARCHITECTURE_METADATA_KEY = 'release.openshift.io/architecture';

/** A graph node as served. */
export interface GraphNode {
  version: string;
  /** Pull spec by digest. */
  payload: string;
  metadata: Record<string, string>;
}

/** One matching rule of a risk (`Always`, `PromQL`, or a type this client does not know). */
export interface GraphMatchingRule {
  type: string;
  promql?: { promql: string };
}

/** A known risk of conditional edges. */
export interface GraphRisk {
  url: string;
  name: string;
  message: string;
  matchingRules: GraphMatchingRule[];
}

/** Conditional edges sharing one risk set. */
export interface GraphConditionalEdges {
  edges: Array<{ from: string; to: string }>;
  risks: GraphRisk[];
}

/** The graph as returned. */
export interface UpdateGraph {
  nodes: GraphNode[];
  /** Unconditional updates as index pairs `[from, to]` into `nodes`. */
  edges: Array<[number, number]>;
  conditionalEdges: GraphConditionalEdges[];
}

/** A release as ClusterVersion lists it (`configv1.Release`). */
export interface Release {
  version: string;
  image: string;
  url?: string;
  channels?: string[];
  architecture?: 'Multi';
}

/** A risk with only the rule types a cluster can evaluate (`configv1.ConditionalUpdateRisk`). */
export interface ConditionalUpdateRisk {
  url: string;
  name: string;
  message: string;
  matchingRules: Array<{ type: 'Always' } | { type: 'PromQL'; promql: { promql: string } }>;
}

/** An update recommended only to some clusters. */
export interface ConditionalUpdate {
  release: Release;
  risks: ConditionalUpdateRisk[];
}

/** The updates from one version. */
export interface GraphUpdates {
  current: Release;
  updates: Release[];
  conditionalUpdates: ConditionalUpdate[];
}

/** The request of {@link UpdateServiceClient.graph}. */
export interface GraphRequest {
  /** The graph URL (`ClusterVersion.spec.upstream`, default {@link DEFAULT_UPSTREAM}). */
  upstream?: string;
  channel: string;
  /** GOARCH (`amd64`, `arm64`, …) or `multi`. */
  arch?: string;
  /** The cluster ID. */
  id?: string;
  /** The current version. */
  version?: string;
  signal?: AbortSignal;
}

/** Options of an {@link UpdateServiceClient}. */
export type UpdateServiceClientOptions = HttpTransportOptions;

/** Fetches update graphs. */
export class UpdateServiceClient {
  readonly #http: HttpClient;

  constructor(options: UpdateServiceClientOptions = {}) {
    this.#http = new HttpClient({ ...options, api: API, timeoutMs: options.timeoutMs ?? 30_000 });
  }

  /**
   * Fetches the graph of a channel. Error statuses reject with `HttpStatus` carrying
   * Cincinnati's `kind: value`; a body that is not a graph rejects with `BadResponse`.
   */
  async graph(req: GraphRequest): Promise<UpdateGraph> {
    const url = new URL(req.upstream ?? DEFAULT_UPSTREAM);
    const params = new URLSearchParams(url.search);
    // Go's url.Values.Encode sorts the parameters: arch, channel, id, version.
    if (req.arch !== undefined) params.set('arch', req.arch);
    params.set('channel', req.channel);
    if (req.id !== undefined) params.set('id', req.id);
    if (req.version !== undefined) params.set('version', req.version);
    params.sort();
    url.search = params.toString();
    const res = await this.#http.request({
      path: url.toString(),
      headers: { accept: 'application/json' },
      acceptErrorStatus: true,
      ...(req.signal ? { signal: req.signal } : {}),
    });
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch (err) {
      if (res.status >= 400)
        throw new IntegrationError(API, 'HttpStatus', `GET ${res.url}: HTTP ${res.status}: ${bodyExcerpt(res.text)}`, {
          status: res.status,
        });
      throw new IntegrationError(
        API,
        'BadResponse',
        `GET ${res.url}: the answer is not JSON: ${bodyExcerpt(res.text)}`,
        { status: res.status, cause: err },
      );
    }
    if (res.status !== 200) {
      const e = body as { kind?: unknown; value?: unknown } | null;
      const detail =
        typeof e?.kind === 'string'
          ? `${e.kind}: ${typeof e.value === 'string' ? e.value : ''}`
          : bodyExcerpt(res.text);
      throw new IntegrationError(API, 'HttpStatus', `GET ${res.url}: HTTP ${res.status}: ${detail}`, {
        status: res.status,
      });
    }
    return parseGraph(body, res.url);
  }

  /** Closes the connection pools. */
  async close(): Promise<void> {
    await this.#http.close();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates a graph body; `BadResponse` naming the first problem. */
export function parseGraph(body: unknown, where = 'graph'): UpdateGraph {
  const bad = (what: string): IntegrationError =>
    new IntegrationError(API, 'BadResponse', `${where}: malformed graph: ${what}`);
  const str = (options: Record<string, unknown>, key: string, ctx: string): string => {
    const v = options[key];
    if (typeof v !== 'string') throw bad(`${ctx}.${key} is not a string`);
    return v;
  };
  if (!isRecord(body)) throw bad('not an object');
  if (!Array.isArray(body['nodes'])) throw bad('nodes is not a list');
  const nodes = body['nodes'].map((node: unknown, index): GraphNode => {
    if (!isRecord(node)) throw bad(`nodes[${index}] is not an object`);
    const metadata: Record<string, string> = {};
    if (node['metadata'] !== undefined && node['metadata'] !== null) {
      if (!isRecord(node['metadata'])) throw bad(`nodes[${index}].metadata is not an object`);
      for (const [k, v] of Object.entries(node['metadata'])) if (typeof v === 'string') metadata[k] = v;
    }
    return {
      version: str(node, 'version', `nodes[${index}]`),
      payload: str(node, 'payload', `nodes[${index}]`),
      metadata,
    };
  });
  const rawEdges = body['edges'] ?? [];
  if (!Array.isArray(rawEdges)) throw bad('edges is not a list');
  const edges = rawEdges.map((error: unknown, index): [number, number] => {
    const ok = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < nodes.length;
    if (!Array.isArray(error) || error.length !== 2 || !ok(error[0]) || !ok(error[1]))
      throw bad(`edges[${index}] is not a pair of node indexes`);
    return [error[0], error[1]];
  });
  const rawConditional = body['conditionalEdges'] ?? [];
  if (!Array.isArray(rawConditional)) throw bad('conditionalEdges is not a list');
  const conditionalEdges = rawConditional.map((edges: unknown, index): GraphConditionalEdges => {
    const ctx = `conditionalEdges[${index}]`;
    if (!isRecord(edges) || !Array.isArray(edges['edges']) || !Array.isArray(edges['risks']))
      throw bad(`${ctx} needs edges and risks lists`);
    return {
      edges: edges['edges'].map((error: unknown, index) => {
        if (!isRecord(error)) throw bad(`${ctx}.edges[${index}] is not an object`);
        return { from: str(error, 'from', `${ctx}.edges[${index}]`), to: str(error, 'to', `${ctx}.edges[${index}]`) };
      }),
      risks: edges['risks'].map((risk: unknown, index): GraphRisk => {
        const rctx = `${ctx}.risks[${index}]`;
        if (!isRecord(risk)) throw bad(`${rctx} is not an object`);
        const rules = Array.isArray(risk['matchingRules']) ? risk['matchingRules'] : [];
        return {
          url: str(risk, 'url', rctx),
          name: str(risk, 'name', rctx),
          message: str(risk, 'message', rctx),
          matchingRules: rules.filter(isRecord).map((rule): GraphMatchingRule => {
            const promql =
              isRecord(rule['promql']) && typeof rule['promql']['promql'] === 'string'
                ? { promql: { promql: rule['promql']['promql'] } }
                : {};
            return { type: typeof rule['type'] === 'string' ? rule['type'] : '', ...promql };
          }),
        };
      }),
    };
  });
  return { nodes, edges, conditionalEdges };
}

/** A graph node as ClusterVersion lists it (the CVO's `convertRetrievedUpdateToRelease`). */
export function releaseOf(node: GraphNode): Release {
  const release: Release = { version: node.version, image: node.payload };
  const url = node.metadata['url'];
  if (url !== undefined) release.url = url;
  const channels = node.metadata[CHANNELS_METADATA_KEY];
  if (channels !== undefined && channels !== '') release.channels = channels.split(',').sort();
  if (node.metadata[ARCHITECTURE_METADATA_KEY] === 'multi') release.architecture = 'Multi';
  return release;
}

/** The rules a cluster can evaluate (the CVO prunes the others). */
function pruneRules(rules: readonly GraphMatchingRule[]): ConditionalUpdateRisk['matchingRules'] {
  const out: ConditionalUpdateRisk['matchingRules'] = [];
  for (const r of rules) {
    if (r.type === 'Always') out.push({ type: 'Always' });
    else if (r.type === 'PromQL' && r.promql && r.promql.promql !== '')
      out.push({ type: 'PromQL', promql: { promql: r.promql.promql } });
  }
  return out;
}

/**
 * The updates from `version`, as the CVO reads a graph: unconditional edges from its node, the
 * conditional edges from it (targets whose risks lose every rule to pruning, and repeated
 * targets, dropped), and unconditional targets that are also conditional removed. Undefined when
 * `version` is not a node of the graph (the CVO's `VersionNotFound`). Throws `BadResponse` for a
 * conditional edge to a version that is not a node.
 */
export function updatesFrom(graph: UpdateGraph, version: string): GraphUpdates | undefined {
  const index = graph.nodes.findIndex((n) => n.version === version);
  const currentNode = graph.nodes[index];
  if (currentNode === undefined) return undefined;
  const updates = graph.edges.filter(([from]) => from === index).map(([, to]) => releaseOf(graph.nodes[to]!));
  const conditionalUpdates: ConditionalUpdate[] = [];
  const seen = new Set<string>();
  for (const group of graph.conditionalEdges) {
    for (const edge of group.edges) {
      if (edge.from !== version) continue;
      const target = graph.nodes.find((n) => n.version === edge.to);
      if (!target) throw new IntegrationError(API, 'BadResponse', `no node for conditional update ${edge.to}`);
      const risks = group.risks.map((r) => ({
        url: r.url,
        name: r.name,
        message: r.message,
        matchingRules: pruneRules(r.matchingRules),
      }));
      if (risks.some((r) => r.matchingRules.length === 0) || seen.has(edge.to)) continue;
      seen.add(edge.to);
      conditionalUpdates.push({ release: releaseOf(target), risks });
    }
  }
  const conditionalImages = new Set(conditionalUpdates.map((c) => c.release.image));
  return {
    current: releaseOf(currentNode),
    updates: updates.filter((u) => !conditionalImages.has(u.image)),
    conditionalUpdates,
  };
}
