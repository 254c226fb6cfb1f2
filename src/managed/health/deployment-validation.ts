/**
 * The Deployment Validation Operator (DVO) part of MUO's PDB health check
 * (docs/design/managed-flow.md#health-checks, docs/design/managed-flow.md#health-check-bugs). DVO
 * exports one gauge series per object that fails a best-practice check, value 1; its PDB checks
 * (`pdb-min-available`, `pdb-max-unavailable`) flag PDBs that would stall drains.
 *
 * MUO's version can never find anything: it iterates the bytes of the answer looking for the
 * metric names, and it looks for `…_pdb_max_available` while DVO's metric is
 * `…_pdb_max_unavailable`. Here the answer is parsed, both names (and MUO's spelling) are
 * matched, and the offending objects are named from the series' labels. An installed DVO that
 * cannot be read fails the check, as in MUO.
 */
import { errorMessage, failed, HealthcheckReason, passed } from '../../engine/health-check.js';
import type { CheckResult } from '../../engine/health-check.js';
import { parseExposition } from './exposition-format.js';
import type { ExpositionSample } from './exposition-format.js';
import { pdbMuoText, sortPdbRefs } from './pod-disruption-budgets.js';

/** DVO's namespace. */
export const DVO_NAMESPACE = 'openshift-deployment-validation-operator';
/** DVO's metrics Service (port named {@link DVO_METRICS_PORT_NAME}, path `/metrics`). */
export const DVO_METRICS_SERVICE = 'deployment-validation-operator-metrics';
/** The name of the metrics port of {@link DVO_METRICS_SERVICE}. */
export const DVO_METRICS_PORT_NAME = 'http-metrics';

/** The DVO series that flag a PDB blocking drains, with the DVO check each one reports. */
export const DVO_PDB_METRICS: Readonly<Record<string, string>> = {
  deployment_validation_operator_pdb_min_available: 'pdb-min-available',
  deployment_validation_operator_pdb_max_unavailable: 'pdb-max-unavailable',
  /** The name MUO searches for; no DVO release exports it, kept so MUO's intent is covered. */
  deployment_validation_operator_pdb_max_available: 'pdb-max-available',
};

/**
 * Where the DVO metrics come from: `'not-installed'` (the check is skipped), or a function
 * that answers the text of DVO's `/metrics` — undefined when DVO turns out not to be installed
 * (the check is skipped) — and rejects when DVO cannot be reached.
 */
export type DvoMetricsSource = 'not-installed' | ((signal?: AbortSignal) => Promise<string | undefined>);

interface Finding {
  Name: string;
  Namespace: string;
  checks: Set<string>;
}

/** The namespace of the flagged object: DVO's `namespace_name`, else `namespace` / `exported_namespace`. */
function objectNamespace(labels: Record<string, string>): string {
  return labels['namespace_name'] ?? labels['exported_namespace'] ?? labels['namespace'] ?? '';
}

/** Pure: the verdict on parsed DVO samples. Non-zero PDB series fail; objects are deduplicated and sorted. */
export function evaluateDvoSamples(samples: readonly ExpositionSample[]): CheckResult {
  const byObject = new Map<string, Finding>();
  for (const s of samples) {
    const check = DVO_PDB_METRICS[s.name];
    if (check === undefined || s.value === 0) continue;
    const Name = s.labels['name'] ?? '';
    const Namespace = objectNamespace(s.labels);
    const key = `${Namespace}/${Name}`;
    const f = byObject.get(key) ?? { Name, Namespace, checks: new Set<string>() };
    f.checks.add(check);
    byObject.set(key, f);
  }
  if (byObject.size === 0) return passed('deployment-validation');
  const found = sortPdbRefs([...byObject.values()]);
  return failed(
    'deployment-validation',
    HealthcheckReason.ClusterInvalidPdb,
    pdbMuoText(found),
    `deployment validation operator reports PodDisruptionBudgets that block drains: ${found
      .map((f) => `${f.Namespace}/${f.Name} (${[...f.checks].sort().join(', ')})`)
      .join(', ')}`,
  );
}

/** Pure: the verdict on DVO's `/metrics` text; unparsable text fails the check (fail closed). */
export function evaluateDvoMetrics(text: string): CheckResult {
  let samples: ExpositionSample[];
  try {
    samples = parseExposition(text);
  } catch (err) {
    return dvoUnreadable(`unparsable deployment validation operator metrics: ${errorMessage(err)}`);
  }
  return evaluateDvoSamples(samples);
}

function dvoUnreadable(message: string): CheckResult {
  return failed('deployment-validation', HealthcheckReason.DvoMetricsQueryFailed, pdbMuoText([]), message);
}

/**
 * Runs the check against an installed DVO (the caller skips it when DVO is not installed).
 * A fetch failure fails the check with reason `dvo_metrics_query_failed`; rethrows only when
 * `signal` was aborted.
 */
export async function checkDeploymentValidation(
  fetchMetrics: (signal?: AbortSignal) => Promise<string | undefined>,
  options: { signal?: AbortSignal } = {},
): Promise<CheckResult | undefined> {
  let text: string | undefined;
  try {
    text = await fetchMetrics(options.signal);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    return dvoUnreadable(`unable to read deployment validation operator metrics: ${errorMessage(err)}`);
  }
  return text === undefined ? undefined : evaluateDvoMetrics(text);
}
