/**
 * The pieces of MUO's `upgradeoperator_upgrade_result` that are not a gauge: the upgrade stream
 * (`y`/`z`/`unknown`), the PromQL that finds the paging alerts that fired during an upgrade
 * (phase Upgraded in docs/design/managed-flow.md#phases, docs/design/managed-flow.md#metrics), and
 * the call that runs it.
 */
import type { PrometheusApi } from '../../integrations/prometheus-api.js';

/** The five paging SRE alerts whose firing during an upgrade marks it as not clean (MUO's list). */
export const PAGING_ALERTS = [
  'UpgradeConfigValidationFailedSRE',
  'UpgradeClusterCheckFailedSRE',
  'UpgradeControlPlaneUpgradeTimeoutSRE',
  'UpgradeNodeUpgradeTimeoutSRE',
  'UpgradeNodeDrainFailedSRE',
] as const;

/** Label `stream` of `upgradeoperator_upgrade_result`. */
export type UpgradeStream = 'y' | 'z' | 'unknown';

/** MUO's pattern: major, a dot, the minor (captured), a dot. */
const MINOR_VERSION = /^\d+\.(\d+)\./;

/**
 * Which stream an upgrade from `precedingVersion` to `version` belongs to: `y` when the minor
 * versions differ, `z` when they are equal, `unknown` when either version does not look like
 * `N.N.…`. Like MUO, only the minor is compared.
 */
export function upgradeStream(precedingVersion: string | undefined, version: string | undefined): UpgradeStream {
  const from = MINOR_VERSION.exec(precedingVersion ?? '')?.[1];
  const to = MINOR_VERSION.exec(version ?? '')?.[1];
  if (from === undefined || to === undefined) return 'unknown';
  return Number(from) === Number(to) ? 'z' : 'y';
}

/**
 * A whole number of seconds as a PromQL duration (`1h30m5s`, `0s`). Written here because
 * PromQL accepts only integer unit groups, so Go's `Duration.String()` (which MUO uses, e.g.
 * `1.5s`) and JS number formatting are both wrong for it.
 */
export function formatPromDuration(seconds: number): string {
  let rest = Math.max(0, Math.floor(seconds));
  if (rest === 0) return '0s';
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  rest -= minutes * 60;
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${rest ? `${rest}s` : ''}`;
}

/** When an upgrade ran and when the question is asked, all epoch ms. */
export interface UpgradeInterval {
  /** `status.history[].startTime`. */
  startMs: number;
  /** `status.history[].completeTime`. */
  completeMs: number;
  /** Evaluation time of the query (the injected clock's now). */
  nowMs: number;
}

/**
 * MUO's query for the paging alerts that fired during an upgrade: the critical, firing `ALERTS`
 * series of {@link PAGING_ALERTS}, `max_over_time` over the upgrade's duration, shifted back by
 * the time since completion, summed by alert name. Differences from MUO: the range is rounded up
 * to whole seconds and at least `1s` (MUO produces an invalid `[0s]` for an instant upgrade), and
 * `offset` is left out when the upgrade completed less than a second ago.
 */
export function pagingAlertsQuery(interval: UpgradeInterval): string {
  const rangeSeconds = Math.max(1, Math.ceil((interval.completeMs - interval.startMs) / 1000));
  const sinceSeconds = Math.floor((interval.nowMs - interval.completeMs) / 1000);
  const offset = sinceSeconds > 0 ? ` offset ${formatPromDuration(sinceSeconds)}` : '';
  const selector = `ALERTS{alertstate="firing",severity="critical",alertname=~"${PAGING_ALERTS.join('|')}"}`;
  return `sum by (alertname) (max_over_time(${selector}[${formatPromDuration(rangeSeconds)}]${offset}))`;
}

/**
 * Runs {@link pagingAlertsQuery} at `interval.nowMs` and returns the names of the paging alerts
 * that fired, sorted and unique (empty = a clean upgrade). A Prometheus failure rejects (an
 * `IntegrationError`): an unknown answer is never reported as a clean upgrade.
 */
export async function alertsDuringUpgrade(
  prometheus: PrometheusApi,
  interval: UpgradeInterval,
  signal?: AbortSignal,
): Promise<string[]> {
  const samples = await prometheus.query(
    pagingAlertsQuery(interval),
    signal ? { time: interval.nowMs, signal } : { time: interval.nowMs },
  );
  const names = new Set<string>();
  for (const s of samples) {
    const name = s.metric['alertname'];
    if (name) names.add(name);
  }
  return [...names].sort();
}
