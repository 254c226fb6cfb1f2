/**
 * The Cincinnati graph for one request, computed from the release catalogue (pure). Nodes are the
 * releases in the requested channel and architecture at a time; edges come from the releases'
 * `previous` lists between nodes of the channel; blocked edges with rules turn edges into
 * conditional edges (removed from `edges`, grouped by identical risk sets), blocked edges without
 * rules remove them (docs/design/cluster-model.md#request-and-response,
 * docs/design/cluster-model.md#channels-and-blocked-edges).
 */
import semver from 'semver';
import {
  blockedEdgesFor,
  inChannel,
  releaseChannelsAt,
  riskOf,
  type Catalogue,
  type MatchingRule,
  type Release,
  type Risk,
} from '../releases/catalogue.js';

/** A graph node as served. */
export interface GraphNode {
  version: string;
  payload: string;
  metadata: Record<string, string>;
}

/** One group of conditional edges sharing a risk set. */
export interface ConditionalEdgeGroup {
  edges: Array<{ from: string; to: string }>;
  risks: Risk[];
}

/** The response body; `conditionalEdges` only when there are some (like the real serializer). */
export interface CincinnatiGraph {
  nodes: GraphNode[];
  edges: Array<[number, number]>;
  conditionalEdges?: ConditionalEdgeGroup[];
}

export interface GraphQuery {
  channel: string;
  /** Default `amd64`. */
  arch?: string;
  /** Evaluate channel membership at this instant (epoch ms); undefined: everything promoted. */
  at?: number;
  /** Leave these versions out of the nodes (the "version missing from channel" fault). */
  omitVersions?: readonly string[];
}

export const CHANNELS_KEY = 'io.openshift.upgrades.graph.release.channels';
export const MANIFESTREF_KEY = 'io.openshift.upgrades.graph.release.manifestref';

/** Computes the graph a client of the update service receives. */
export function buildGraph(catalogue: Catalogue, query: GraphQuery): CincinnatiGraph {
  const arch = query.arch ?? 'amd64';
  const omit = new Set(query.omitVersions ?? []);
  const releases: Release[] = catalogue.architectures.includes(arch)
    ? catalogue.releases.filter((r) => !omit.has(r.version) && inChannel(catalogue, r, query.channel, query.at))
    : [];
  const index = new Map(releases.map((r, i) => [r.version, i]));

  const nodes: GraphNode[] = releases.map((r) => ({
    version: r.version,
    payload: r.pullSpec,
    metadata: {
      [CHANNELS_KEY]: releaseChannelsAt(catalogue, r, query.at).join(','),
      [MANIFESTREF_KEY]: r.digest,
      url: r.url,
    },
  }));

  const edges: Array<[number, number]> = [];
  const groups = new Map<string, ConditionalEdgeGroup>();
  for (const [to, target] of releases.entries()) {
    for (const fromVersion of target.previous) {
      const from = index.get(fromVersion);
      if (from === undefined) continue;
      const blocks = blockedEdgesFor(catalogue, fromVersion, target.version);
      if (blocks.length === 0) {
        edges.push([from, to]);
        continue;
      }
      if (blocks.some((b) => !b.matchingRules || b.matchingRules.length === 0)) continue;
      const risks = blocks
        .map((b) => riskOf({ ...b, matchingRules: b.matchingRules as MatchingRule[] }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const key = risks.map((r) => r.name).join('\u0000');
      let group = groups.get(key);
      if (!group) {
        group = { edges: [], risks };
        groups.set(key, group);
      }
      group.edges.push({ from: fromVersion, to: target.version });
    }
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const graph: CincinnatiGraph = { nodes, edges };
  if (groups.size > 0) {
    graph.conditionalEdges = [...groups.values()].map((g) => ({
      edges: g.edges.sort((a, b) => semver.compare(a.from, b.from) || semver.compare(a.to, b.to)),
      risks: g.risks,
    }));
  }
  return graph;
}

/**
 * What a cluster at `version` would be offered by a graph: unconditional targets (newest first)
 * and conditional targets with their risks. A helper for tests and scenario authors; the CVO
 * does its own reading.
 */
export function updatesFrom(
  graph: CincinnatiGraph,
  version: string,
): { available: string[]; conditional: Array<{ to: string; risks: string[] }> } | undefined {
  const at = graph.nodes.findIndex((n) => n.version === version);
  if (at < 0) return undefined;
  const available = graph.edges
    .filter(([f]) => f === at)
    .map(([, t]) => graph.nodes[t]!.version)
    .sort(semver.rcompare);
  const conditional: Array<{ to: string; risks: string[] }> = [];
  for (const g of graph.conditionalEdges ?? []) {
    for (const e of g.edges) if (e.from === version) conditional.push({ to: e.to, risks: g.risks.map((r) => r.name) });
  }
  conditional.sort((a, b) => semver.rcompare(a.to, b.to));
  return { available, conditional };
}
