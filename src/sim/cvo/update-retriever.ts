/**
 * The CVO's update retriever (`pkg/cvo/availableupdates.go`,
 * docs/design/cluster-model.md#available-and-conditional-updates,
 * docs/design/cluster-model.md#how-the-cvo-reads-the-graph): fetches the graph every `interval`
 * (drawn once in [2, 4) min) and at once when the channel, the upstream or the CVO's own version
 * changes, and publishes availableUpdates, conditionalUpdates and the RetrievedUpdates condition. A
 * failed fetch keeps the updates of the last good one, except when the version is missing from the
 * channel or there is no channel.
 */
import type { ClusterVersion, ConditionalUpdate, Release } from '../../api/openshift/config-v1/cluster-version.js';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import { computeUpdates, evaluateRisk, parseGraph, type CachedMatch, type RiskTable } from './available-updates.js';
import type { ConditionInput } from './conditions.js';
import { GraphClient, graphRequestUrl } from './graph-client.js';
import { Wakeup } from './wakeup.js';

/** What the retriever publishes. */
export interface RetrievedState {
  condition: ConditionInput;
  availableUpdates: Release[] | null;
  conditionalUpdates: ConditionalUpdate[];
}

export interface UpdateRetrieverOptions {
  clock: Clock;
  activity?: ActivityTracker | undefined;
  logger: Logger;
  /** The fetch interval (the CVO's `minimumUpdateCheckInterval`). */
  intervalMs: number;
  /** Used when `spec.upstream` is empty. */
  defaultUpstream: string | undefined;
  riskTable: () => RiskTable;
  /** The ClusterVersion as last seen. */
  clusterVersion: () => ClusterVersion | undefined;
  /** The version the CVO runs (its payload's). */
  currentVersion: () => string;
  publish: (state: RetrievedState) => void;
  hungAfterWallMs?: number | undefined;
}

export class UpdateRetriever {
  readonly #o: UpdateRetrieverOptions;
  readonly #client: GraphClient;
  readonly #cache = new Map<string, CachedMatch>();
  readonly #wakeup: Wakeup;
  #last: { channel: string; upstream: string; version: string; at: number } | undefined;
  #state: RetrievedState | undefined;

  constructor(options: UpdateRetrieverOptions) {
    this.#o = options;
    this.#client = new GraphClient({
      clock: options.clock,
      activity: options.activity,
      ...(options.hungAfterWallMs !== undefined ? { hungAfterWallMs: options.hungAfterWallMs } : {}),
    });
    this.#wakeup = new Wakeup(options.clock, options.activity, 'cvo update retriever');
  }

  /** Fetches now (channel, upstream or version changed, or the scenario asks). */
  refresh(): void {
    this.#wakeup.wake();
  }

  /** Called on every ClusterVersion change: fetches at once when the channel or upstream changed. */
  observe(cv: ClusterVersion): void {
    const last = this.#last;
    if (last && (last.channel !== (cv.spec.channel ?? '') || last.upstream !== this.#upstream(cv))) this.refresh();
  }

  /** Runs until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      while (!signal.aborted) {
        this.#wakeup.release();
        await this.#retrieveOnce(signal);
        await this.#wakeup.sleep(this.#o.intervalMs, signal);
      }
    } finally {
      this.#wakeup.release();
      await this.#client.close();
    }
  }

  #upstream(cv: ClusterVersion): string {
    return cv.spec.upstream || this.#o.defaultUpstream || '';
  }

  async #retrieveOnce(signal: AbortSignal): Promise<void> {
    const cv = this.#o.clusterVersion();
    if (!cv) return;
    const now = this.#o.clock.now();
    const channel = cv.spec.channel ?? '';
    const upstream = this.#upstream(cv);
    const version = this.#o.currentVersion();
    this.#last = { channel, upstream, version, at: now };
    const previous = this.#state;
    const fail = (reason: string, message: string, keep: boolean): void => {
      this.#set({
        condition: { type: 'RetrievedUpdates', status: 'False', reason, message },
        availableUpdates: keep ? (previous?.availableUpdates ?? null) : null,
        conditionalUpdates: keep ? (previous?.conditionalUpdates ?? []) : [],
      });
    };
    if (channel === '') return fail('NoChannel', 'The update channel has not been configured.', false);
    if (upstream === '') return fail('NoUpstream', 'No upstream server has been set to retrieve updates.', false);
    let url: URL;
    try {
      url = graphRequestUrl(upstream, { arch: 'amd64', channel, id: cv.spec.clusterID, version });
    } catch (err) {
      return fail(
        'InvalidURI',
        `failed to parse upstream URL: ${err instanceof Error ? err.message : String(err)}`,
        false,
      );
    }
    const res = await this.#client.fetch(url, `ClusterVersionOperator/${version}`, signal);
    if (signal.aborted) return;
    if ('reason' in res) return fail(res.reason, `Unable to retrieve available updates: ${res.message}`, true);
    const graph = parseGraph(res.body);
    if ('reason' in graph) return fail(graph.reason, `Unable to retrieve available updates: ${graph.message}`, true);
    const table = this.#o.riskTable();
    const result = computeUpdates(graph, {
      current: version,
      channel,
      evaluate: (risk) => evaluateRisk(risk, table, this.#cache, now),
      previous: previous?.conditionalUpdates ?? [],
      now,
    });
    if ('reason' in result)
      return fail(result.reason, `Unable to retrieve available updates: ${result.message}`, false);
    this.#o.logger.debug(
      {
        available: result.availableUpdates?.map((r) => r.version) ?? [],
        conditional: result.conditionalUpdates.map((c) => c.release.version),
      },
      'retrieved updates',
    );
    this.#set({ condition: { type: 'RetrievedUpdates', status: 'True' }, ...result });
  }

  #set(state: RetrievedState): void {
    this.#state = state;
    this.#o.publish(state);
  }
}
