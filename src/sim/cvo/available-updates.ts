/**
 * How the CVO turns a Cincinnati graph into `availableUpdates` and `conditionalUpdates`
 * (`pkg/cincinnati/cincinnati.go`, `pkg/cvo/availableupdates.go`;
 * docs/design/cluster-model.md#available-and-conditional-updates,
 * docs/design/cluster-model.md#how-the-cvo-reads-the-graph): find the current version, take its
 * unconditional and conditional edges, evaluate each risk through a scenario risk table (instead of
 * PromQL) with a one-hour cache, and set the `Recommended` condition. Pure, except for the cache
 * the caller owns.
 */
import semver from 'semver';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type {
  ConditionalUpdate,
  ConditionalUpdateRisk,
  Release,
} from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';

/** A risk's evaluation: applies, does not apply, or cannot be evaluated (optionally with the error text). */
export type RiskMatch = boolean | 'error' | { error: string };
/** Risk name → match, fixed or as a function of virtual time. Unlisted PromQL risks do not apply; `Always` risks always do. */
export type RiskTable = Readonly<Record<string, RiskMatch | ((now: number) => RiskMatch)>>;

/** Successful evaluations are reused for an hour (`MinForCondition`). */
export const RISK_CACHE_MS = 60 * 60_000;
const CHANNELS_KEY = 'io.openshift.upgrades.graph.release.channels';
const RISK_REASON_RE = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const DEFAULT_EVALUATION_ERROR = 'invalid PromQL result length must be one, but is 0';

/** The CVO's retrieval error: a RetrievedUpdates reason and the detail after `Unable to retrieve available updates: `. */
export interface RetrievalError {
  reason: string;
  message: string;
}

/** A risk evaluation cache entry. */
export interface CachedMatch {
  applies: boolean;
  at: number;
}

interface GraphNodeJson {
  version: string;
  payload: string;
  metadata?: Record<string, string>;
}

interface ParsedGraph {
  nodes: GraphNodeJson[];
  edges: Array<[number, number]>;
  conditionalEdges: Array<{ edges: Array<{ from: string; to: string }>; risks: ConditionalUpdateRisk[] }>;
}

/** Checks the JSON shape the CVO unmarshals; a wrong shape is ResponseInvalid. */
export function parseGraph(body: string): ParsedGraph | RetrievalError {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (err) {
    return {
      reason: 'ResponseInvalid',
      message: err instanceof SyntaxError ? 'unexpected end of JSON input' : String(err),
    };
  }
  const g = raw as Partial<ParsedGraph> | null;
  if (!g || typeof g !== 'object' || !Array.isArray(g.nodes))
    return { reason: 'ResponseInvalid', message: 'json: cannot unmarshal graph: missing nodes' };
  return {
    nodes: g.nodes,
    edges: Array.isArray(g.edges) ? g.edges : [],
    conditionalEdges: Array.isArray(g.conditionalEdges) ? g.conditionalEdges : [],
  };
}

/** A graph node as a `Release` (url and sorted channels from the node metadata). */
export function releaseOfNode(node: GraphNodeJson): Release {
  const r: Release = { version: node.version, image: node.payload };
  const url = node.metadata?.url;
  if (url) r.url = url;
  const channels = node.metadata?.[CHANNELS_KEY];
  if (channels)
    r.channels = channels
      .split(',')
      .filter((c) => c !== '')
      .sort();
  return r;
}

function byVersionDesc(left: { version: string }, right: { version: string }): number {
  return semver.valid(left.version) && semver.valid(right.version)
    ? semver.rcompare(left.version, right.version)
    : left.version < right.version
      ? 1
      : -1;
}

/** Evaluates one risk (cached for an hour when it could be evaluated). */
export function evaluateRisk(
  risk: ConditionalUpdateRisk,
  table: RiskTable,
  cache: Map<string, CachedMatch>,
  now: number,
): boolean | { error: string } {
  if (risk.matchingRules.some((r) => r.type === 'Always')) return true;
  const hit = cache.get(risk.name);
  if (hit && now - hit.at < RISK_CACHE_MS) return hit.applies;
  const entry = table[risk.name];
  const match = typeof entry === 'function' ? entry(now) : (entry ?? false);
  if (match === 'error') return { error: DEFAULT_EVALUATION_ERROR };
  if (typeof match === 'object') return match;
  cache.set(risk.name, { applies: match, at: now });
  return match;
}

/** The `Recommended` condition of a conditional update (metav1.Condition shape). */
export function recommendedCondition(
  risks: readonly ConditionalUpdateRisk[],
  evaluate: (risk: ConditionalUpdateRisk) => boolean | { error: string },
  previous: Condition | undefined,
  now: number,
): Condition {
  const applying: ConditionalUpdateRisk[] = [];
  const failed: Array<{ risk: ConditionalUpdateRisk; error: string }> = [];
  for (const risk of risks) {
    const r = evaluate(risk);
    if (r === true) applying.push(risk);
    else if (typeof r === 'object') failed.push({ risk, error: r.error });
  }
  let c: Pick<Condition, 'status' | 'reason' | 'message'>;
  if (applying.length > 0) {
    const reason =
      applying.length > 1
        ? 'MultipleReasons'
        : RISK_REASON_RE.test(applying[0]!.name)
          ? applying[0]!.name
          : 'ExposedToRisks';
    c = { status: 'False', reason, message: applying.map((r) => `${r.message} ${r.url}`).join('\n\n') };
  } else if (failed.length > 0) {
    c = {
      status: 'Unknown',
      reason: 'EvaluationFailed',
      message: failed
        .map(
          ({ risk, error }) =>
            `Could not evaluate exposure to update risk ${risk.name} (${error})\n  ${risk.name} description: ${risk.message}\n  ${risk.name} URL: ${risk.url}`,
        )
        .join('\n\n'),
    };
  } else {
    c = {
      status: 'True',
      reason: 'NotExposedToRisks',
      message: 'The update is recommended, because none of the conditional update risks apply to this cluster.',
    };
  }
  const lastTransitionTime = previous && previous.status === c.status ? previous.lastTransitionTime : formatTime(now);
  return { type: 'Recommended', ...c, lastTransitionTime };
}

/** What the CVO publishes after a successful retrieval. */
export interface UpdatesResult {
  /** null when empty (the field has no omitempty). */
  availableUpdates: Release[] | null;
  conditionalUpdates: ConditionalUpdate[];
}

/**
 * Computes the updates offered to a cluster at `current` by a graph, or the retrieval error
 * (`VersionNotFound`). Recommended conditional updates are also added to availableUpdates.
 */
export function computeUpdates(
  graph: ParsedGraph,
  options: {
    current: string;
    channel: string;
    evaluate: (risk: ConditionalUpdateRisk) => boolean | { error: string };
    previous: readonly ConditionalUpdate[];
    now: number;
  },
): UpdatesResult | RetrievalError {
  const at = graph.nodes.findIndex((n) => n.version === options.current);
  if (at < 0) {
    return {
      reason: 'VersionNotFound',
      message: `currently reconciling cluster version ${options.current} not found in the ${JSON.stringify(options.channel)} channel`,
    };
  }
  const byVersion = new Map(graph.nodes.map((n) => [n.version, n]));
  const conditionalTargets = new Map<string, ConditionalUpdateRisk[]>();
  const declared = new Map<string, number>();
  for (const group of graph.conditionalEdges) {
    for (const e of group.edges ?? []) {
      if (e.from !== options.current) continue;
      declared.set(e.to, (declared.get(e.to) ?? 0) + 1);
      const risks = conditionalTargets.get(e.to) ?? [];
      for (const r of group.risks ?? []) if (!risks.some((x) => x.name === r.name)) risks.push(r);
      conditionalTargets.set(e.to, risks);
    }
  }
  const available: Release[] = [];
  for (const [from, to] of graph.edges) {
    if (from !== at) continue;
    const node = graph.nodes[to];
    if (!node || conditionalTargets.has(node.version)) continue;
    available.push(releaseOfNode(node));
  }
  const conditional: ConditionalUpdate[] = [];
  for (const [to, rawRisks] of conditionalTargets) {
    const node = byVersion.get(to);
    // A target declared by more than one conditional entry is dropped (ambiguous risks).
    if (!node || (declared.get(to) ?? 0) > 1) continue;
    // Unknown rule types are pruned; a risk left with no rules drops the target.
    const risks = rawRisks.map((r) => ({
      ...r,
      matchingRules: r.matchingRules.filter((m) => m.type === 'Always' || m.type === 'PromQL'),
    }));
    if (risks.some((r) => r.matchingRules.length === 0)) continue;
    const release = releaseOfNode(node);
    const prev = options.previous
      .find((p) => p.release.version === to)
      ?.conditions?.find((c) => c.type === 'Recommended');
    const recommended = recommendedCondition(risks, options.evaluate, prev, options.now);
    conditional.push({ release, risks, conditions: [recommended] });
    if (recommended.status === 'True') available.push(release);
  }
  available.sort(byVersionDesc);
  conditional.sort((a, b) => byVersionDesc(a.release, b.release));
  return { availableUpdates: available.length > 0 ? available : null, conditionalUpdates: conditional };
}
