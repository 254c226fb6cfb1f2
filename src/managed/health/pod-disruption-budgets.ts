/**
 * The PodDisruptionBudget health check (docs/design/managed-flow.md#health-checks,
 * docs/design/managed-flow.md#health-check-bugs): a PDB that allows no voluntary disruption at all
 * (`maxUnavailable` 0 or `0%`, or `minAvailable` `100%`) stalls every node drain of the worker
 * roll.
 *
 * MUO meant to check only customer PDBs — namespaces outside `openshift-`, plus the
 * `openshift-` namespaces where customers run workloads (its exception list) — but tests the
 * literal prefix `openshift-*`, so it checks every PDB, and it stops at the first finding.
 * Here the filter works as intended and every offending PDB is reported.
 *
 * Decision: `kube-*` and `default` count as platform namespaces too, so they are not checked.
 * They are the other half of MUO's own definition of "platform namespace" (its critical-alert
 * query and its maintenance silences match `^openshift.*|^kube-.*|^default$`); managed
 * clusters reserve them for the platform, so a finding there is not the customer's to fix,
 * and the customer is whom this check warns.
 */
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { errorMessage, failed, HealthcheckReason, passed } from '../../engine/health-check.js';
import type { CheckResult } from '../../engine/health-check.js';

/**
 * `openshift-` namespaces that hold customer workloads and are checked anyway (MUO's
 * exception list, verbatim).
 */
export const CHECKED_OPENSHIFT_NAMESPACES: readonly string[] = [
  'openshift-logging',
  'openshift-redhat-marketplace',
  'openshift-operators',
  'openshift-customer-monitoring',
  'openshift-cnv',
  'openshift-route-monitoring-operator',
  'openshift-user-workload-monitoring',
  'openshift-pipelines',
];

/** MUO's failure-list prefix of this check. */
export const PDB_MUO_TEXT = 'PDBHealthcheckFailed';

/** A PDB as MUO names it in its failure list (Go field names, JSON-encoded). */
export interface PdbRef {
  Name: string;
  Namespace: string;
}

/** Pure: true when PDBs in `namespace` are checked (customer namespaces and the exception list). */
export function isCheckedNamespace(namespace: string): boolean {
  if (CHECKED_OPENSHIFT_NAMESPACES.includes(namespace)) return true;
  const platform =
    namespace === 'openshift' ||
    namespace.startsWith('openshift-') ||
    namespace.startsWith('kube-') ||
    namespace === 'default';
  return !platform;
}

/** Pure: why `pdb` allows no disruption (`maxUnavailable=0`, `minAvailable=100%`), or undefined. */
export function blockingSetting(pdb: PodDisruptionBudget): string | undefined {
  const max = pdb.spec?.maxUnavailable;
  if (max === 0 || max === '0%') return `maxUnavailable=${String(max)}`;
  if (pdb.spec?.minAvailable === '100%') return 'minAvailable=100%';
  return undefined;
}

/** MUO's failure-list item: `PDBHealthcheckFailed: [{"Name":…,"Namespace":…}]` (or bare without objects). */
export function pdbMuoText(refs: readonly PdbRef[]): string {
  return refs.length === 0
    ? PDB_MUO_TEXT
    : `${PDB_MUO_TEXT}: ${JSON.stringify(refs.map((r) => ({ Name: r.Name, Namespace: r.Namespace })))}`;
}

/** Sorts refs by namespace, then name. */
export function sortPdbRefs<T extends PdbRef>(refs: readonly T[]): T[] {
  return [...refs].sort((a, b) =>
    a.Namespace === b.Namespace ? (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0) : a.Namespace < b.Namespace ? -1 : 1,
  );
}

/** Pure: the check over every PDB of the cluster; reports all offending PDBs, sorted. */
export function checkPodDisruptionBudgets(pdbs: readonly PodDisruptionBudget[]): CheckResult {
  const found = sortPdbRefs(
    pdbs.flatMap((pdb) => {
      const namespace = pdb.metadata?.namespace ?? '';
      const setting = isCheckedNamespace(namespace) ? blockingSetting(pdb) : undefined;
      return setting === undefined ? [] : [{ Name: pdb.metadata?.name ?? '', Namespace: namespace, setting }];
    }),
  );
  if (found.length === 0) return passed('pod-disruption-budgets');
  return failed(
    'pod-disruption-budgets',
    HealthcheckReason.ClusterInvalidPdbConfiguration,
    pdbMuoText(found),
    `PodDisruptionBudgets allow no disruption, node drains will wait for them: ${found.map((f) => `${f.Namespace}/${f.Name} (${f.setting})`).join(', ')}`,
  );
}

/** The check's verdict when the PDBs could not be listed (fail closed). */
export function podDisruptionBudgetsUnknown(err: unknown): CheckResult {
  return failed(
    'pod-disruption-budgets',
    HealthcheckReason.PdbQueryFailed,
    PDB_MUO_TEXT,
    `unable to list PodDisruptionBudgets: ${errorMessage(err)}`,
  );
}
