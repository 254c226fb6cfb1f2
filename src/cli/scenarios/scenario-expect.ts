/**
 * The `expect` block of a scenario file, checked against what a user can read at the end of the
 * run: the UpgradeConfig, ClusterVersion, MachineConfigPools, Events and any listed objects.
 */
import { EventResource } from '../../api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { KubeClient } from '../../kube/client.js';
import { errorMessage } from '../../lib/errors.js';
import { poolFullyUpdated } from '../../managed/cluster-version/worker-pools.js';
import { discoverResource, hasCondition } from './apply-manifest.js';
import type { ScenarioExpect } from './scenario-file.js';
import type { ScenarioProgress } from './scenario-progress.js';

/** What the checks read besides the API. */
export interface ExpectInput {
  client: KubeClient;
  upgradeConfig: ManagedUpgradeConfig | undefined;
  timeline: readonly ScenarioProgress[];
  actionsRun: number;
  /** The state changes of the scenario OCM's first policy (values, oldest first). */
  ocmStates?: string[];
}

/**
 * The expectations that do not hold (empty: the run went as the file says). An expectation whose
 * objects cannot be read (an API error, a kind the server does not serve) does not hold either:
 * it is reported as unreadable, never skipped.
 */
export async function unmetExpectations(
  scenarioExpect: ScenarioExpect | undefined,
  input: ExpectInput,
  signal?: AbortSignal,
): Promise<string[]> {
  if (!scenarioExpect) return [];
  const out: string[] = [];
  const opts = signal ? { signal } : {};
  /** The value read, or undefined once the failure is reported as an unmet expectation. */
  const read = async <T>(what: string, readIt: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await readIt();
    } catch (err) {
      if (signal?.aborted) throw err;
      out.push(`${what}: cannot be read (${errorMessage(err)})`);
      return undefined;
    }
  };
  const h = input.upgradeConfig?.status?.history?.[0];
  if (scenarioExpect.phase !== undefined && h?.phase !== scenarioExpect.phase)
    out.push(`phase ${h?.phase ?? '(none)'}, expected ${scenarioExpect.phase}`);
  for (const c of scenarioExpect.conditionTrue ?? []) {
    if (h?.conditions?.find((x) => x.type === c)?.status !== 'True') out.push(`condition ${c} is not True`);
  }
  const needsClusterVersion =
    scenarioExpect.clusterVersionCompleted !== undefined || scenarioExpect.desiredUpdateImage !== undefined;
  const cv = needsClusterVersion
    ? await read(`ClusterVersion ${CLUSTER_VERSION_NAME}`, () =>
        input.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, opts),
      )
    : undefined;
  if (cv && scenarioExpect.clusterVersionCompleted !== undefined) {
    const target = input.upgradeConfig?.spec?.desired.version ?? cv.status?.desired?.version;
    const cvh = cv.status?.history?.[0];
    const completed = cvh?.state === 'Completed' && cvh.version === target;
    if (completed !== scenarioExpect.clusterVersionCompleted)
      out.push(
        `ClusterVersion ${cvh?.version ?? '?'} ${cvh?.state ?? '?'} (target ${target ?? '?'}), expected ${scenarioExpect.clusterVersionCompleted ? '' : 'not '}Completed`,
      );
  }
  if (scenarioExpect.poolsUpdated !== undefined) {
    const pools = await read(
      'MachineConfigPools',
      async () => (await input.client.list(MachineConfigPoolResource, opts)).items,
    );
    if (pools) {
      const all = pools.length > 0 && pools.every(poolFullyUpdated);
      if (all !== scenarioExpect.poolsUpdated) out.push(`pools ${all ? '' : 'not '}all updated`);
    }
  }
  if (
    scenarioExpect.waitingSeen &&
    !input.timeline.some((p) => scenarioExpect.waitingSeen!.every((s) => p.waiting.includes(s)))
  ) {
    out.push(`no Waiting message contained ${scenarioExpect.waitingSeen.map((s) => JSON.stringify(s)).join(' and ')}`);
  }
  for (const ev of scenarioExpect.events ?? []) {
    const events = await read(
      `Event ${ev.reason} in ${ev.namespace}`,
      async () => (await input.client.list(EventResource, { namespace: ev.namespace, ...opts })).items,
    );
    if (events && !events.some((x) => x.reason === ev.reason)) out.push(`no Event ${ev.reason} in ${ev.namespace}`);
  }
  for (const ref of scenarioExpect.absent ?? []) {
    const left = await read(
      `absent ${ref.kind}${ref.namespace ? ` in ${ref.namespace}` : ''}`,
      async () =>
        (
          await input.client.list(await discoverResource(input.client, ref.apiVersion, ref.kind, signal), {
            ...(ref.namespace ? { namespace: ref.namespace } : {}),
            ...(ref.labelSelector ? { labelSelector: ref.labelSelector } : {}),
            ...opts,
          })
        ).items,
    );
    if (left && left.length > 0)
      out.push(
        `${left.length} ${ref.kind}(s) ${ref.labelSelector ?? ''} left: ${left.map((o) => o.metadata?.name ?? '').join(', ')}`,
      );
  }
  if (
    cv &&
    scenarioExpect.desiredUpdateImage !== undefined &&
    Boolean(cv.spec?.desiredUpdate?.image) !== scenarioExpect.desiredUpdateImage
  ) {
    out.push(`desiredUpdate ${cv.spec?.desiredUpdate?.image ? 'names' : 'does not name'} a release image`);
  }
  if (scenarioExpect.actionsRun !== undefined && input.actionsRun !== scenarioExpect.actionsRun)
    out.push(`${input.actionsRun} action(s) ran, expected ${scenarioExpect.actionsRun}`);
  for (const oc of scenarioExpect.objectConditions ?? []) {
    const what = `${oc.kind} with ${oc.type}=${oc.status}${oc.reason ? ` (${oc.reason})` : ''}${oc.namespace ? ` in ${oc.namespace}` : ''}`;
    const items = await read(
      what,
      async () =>
        (
          await input.client.list(await discoverResource(input.client, oc.apiVersion, oc.kind, signal), {
            ...(oc.namespace ? { namespace: oc.namespace } : {}),
            ...opts,
          })
        ).items,
    );
    if (items && !items.some((o) => hasCondition(o, oc.type, oc.status, oc.reason)))
      out.push(`no ${what} (${items.length} found)`);
  }
  if (scenarioExpect.ocmStates && JSON.stringify(input.ocmStates ?? []) !== JSON.stringify(scenarioExpect.ocmStates)) {
    out.push(
      `OCM policy states ${JSON.stringify(input.ocmStates ?? [])}, expected ${JSON.stringify(scenarioExpect.ocmStates)}`,
    );
  }
  return out;
}
