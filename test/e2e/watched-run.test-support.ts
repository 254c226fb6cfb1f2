/**
 * Runs a named scenario while watching it as a user would with informers on their own client:
 * every change of ClusterVersion, the MachineConfigPools, the machine-config ClusterOperator and
 * the managed UpgradeConfig becomes one sample with its virtual time. `probe` runs an async read
 * (Alertmanager, the metrics endpoint) at the moment a sample first satisfies a predicate, with
 * the virtual clock held still until the read is done.
 */
import type { TestContext } from 'node:test';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { ClusterOperatorResource } from '../../src/api/openshift/config-v1/cluster-operator.js';
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterOperatorStatusCondition,
} from '../../src/api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
  ManagedUpgradeConfigResource,
} from '../../src/api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario, type ScenarioOutcome } from '../../src/cli/scenarios/catalog.js';
import type { ScenarioRun } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';

/** A condition as read: status, reason, message (undefined when absent). */
export interface Cond {
  status: string;
  reason: string;
  message: string;
}

/** What a watching user saw at one moment. */
export interface Sample {
  /** Virtual epoch ms. */
  at: number;
  cv: {
    version: string;
    state: string;
    desiredUpdate: string;
    channel: string;
    progressing: string;
    upgradeable: Cond | undefined;
    releaseAccepted: Cond | undefined;
  };
  /** Pool name → counts and pause. */
  pools: Record<string, { updated: number; total: number; paused: boolean }>;
  /** The machine-config ClusterOperator's Degraded condition. */
  mcoDegraded: Cond | undefined;
  /** The managed UpgradeConfig: newest history entry, its newest condition, the Waiting condition, and every entry's phase by version. */
  uc:
    | {
        version: string;
        phase: string;
        step: string;
        stepMessage: string;
        waiting: Cond | undefined;
        phases: Record<string, string>;
        done: string[];
      }
    | undefined;
  /** The scheduled flow's UpgradeJobs: name → True condition types. */
  jobs: Record<string, string[]>;
}

/** A watched run. */
export interface WatchedRun {
  outcome: ScenarioOutcome;
  run: ScenarioRun;
  /** Virtual epoch ms at which the scenario's manifests were applied. */
  start: number;
  samples: Sample[];
  /** Results of the probes, by name (undefined: the predicate never held). */
  probes: Map<string, unknown>;
}

/** An async read made once, at the first sample for which `when` holds. */
export interface Probe {
  name: string;
  when(s: Sample): boolean;
  read(run: ScenarioRun, s: Sample): Promise<unknown>;
}

function cond(conditions: readonly ClusterOperatorStatusCondition[] | undefined, type: string): Cond | undefined {
  const c = conditions?.find((x) => x.type === type);
  return c ? { status: c.status, reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}

/** Runs the named scenario (seed 1), watching it, its operator's requests checked against the shipped RBAC; everything is torn down after the test. */
export async function runWatched(t: TestContext, name: string, probes: readonly Probe[] = []): Promise<WatchedRun> {
  const { file } = loadScenario(name);
  const env = await startSimEnvironment(environmentFor(file, 1));
  t.after(() => env.close());
  const samples: Sample[] = [];
  const results = new Map<string, unknown>();
  const pending = [...probes];
  const failures: unknown[] = [];
  const inFlight: Array<Promise<void>> = [];
  let start = 0;
  const outcome = await runCheckedScenario(env, name, file, {
    seed: 1,
    beforeManifests(run) {
      start = run.env.clock.now();
      const inf = run.env.ctx.informers;
      const cvs = inf.informerFor(ClusterVersionResource);
      const pools = inf.informerFor(MachineConfigPoolResource);
      const cos = inf.informerFor(ClusterOperatorResource);
      const ucs = inf.informerFor(ManagedUpgradeConfigResource, { namespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE });
      const jobs = inf.informerFor(UpgradeJobResource, {
        namespace: file.operator?.namespace ?? 'appuio-openshift-upgrade-controller',
      });
      const sample = (): void => {
        const cv = cvs.get(undefined, CLUSTER_VERSION_NAME);
        const h0 = cv?.status?.history?.[0];
        const uc = ucs.get(MANAGED_UPGRADE_OPERATOR_NAMESPACE, MANAGED_UPGRADE_CONFIG_NAME);
        const uh = uc?.status?.history?.[0];
        const waiting = uc?.status?.conditions?.find((c) => c.type === 'Waiting');
        const s: Sample = {
          at: run.env.clock.now(),
          cv: {
            version: h0?.version ?? '',
            state: h0?.state ?? '',
            desiredUpdate: cv?.spec.desiredUpdate?.version ?? '',
            channel: cv?.spec.channel ?? '',
            progressing: cond(cv?.status?.conditions, 'Progressing')?.message ?? '',
            upgradeable: cond(cv?.status?.conditions, 'Upgradeable'),
            releaseAccepted: cond(cv?.status?.conditions, 'ReleaseAccepted'),
          },
          pools: Object.fromEntries(
            pools.list().map((p) => [
              p.metadata?.name ?? '',
              {
                updated: p.status?.updatedMachineCount ?? 0,
                total: p.status?.machineCount ?? 0,
                paused: p.spec.paused === true,
              },
            ]),
          ),
          mcoDegraded: cond(cos.get(undefined, 'machine-config')?.status?.conditions, 'Degraded'),
          uc: uc
            ? {
                version: uh?.version ?? '',
                phase: uh?.phase ?? '',
                step: uh?.conditions?.[0] ? `${uh.conditions[0].type}=${uh.conditions[0].status}` : '',
                stepMessage: uh?.conditions?.[0]?.message ?? '',
                waiting: waiting
                  ? { status: waiting.status, reason: waiting.reason ?? '', message: waiting.message ?? '' }
                  : undefined,
                phases: Object.fromEntries((uc.status?.history ?? []).map((h) => [h.version ?? '', h.phase])),
                done: (uh?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type),
              }
            : undefined,
          jobs: Object.fromEntries(
            jobs
              .list()
              .map((j) => [
                j.metadata?.name ?? '',
                (j.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type),
              ]),
          ),
        };
        samples.push(s);
        for (const p of pending.filter((x) => x.when(s))) {
          pending.splice(pending.indexOf(p), 1);
          // The clock stands still while the read is in flight.
          const done = run.env.clock.activity.begin(`test probe ${p.name}`);
          inFlight.push(
            p
              .read(run, s)
              .then(
                (r) => void results.set(p.name, r),
                (err: unknown) => void failures.push(err),
              )
              .finally(done),
          );
        }
      };
      for (const i of [cvs, pools, cos, ucs, jobs]) i.addHandlers({ onAdd: sample, onUpdate: sample });
    },
  });
  t.after(() => outcome.run.close());
  await Promise.all(inFlight);
  if (failures.length > 0) throw new AggregateError(failures, 'a probe failed');
  return { outcome, run: outcome.run, start, samples, probes: results };
}

/** The first sample for which `f` holds (index and sample), or undefined. */
export function first(
  samples: readonly Sample[],
  f: (s: Sample) => boolean,
  from = 0,
): { i: number; s: Sample } | undefined {
  for (let i = from; i < samples.length; i++) if (f(samples[i]!)) return { i, s: samples[i]! };
  return undefined;
}

/** Every pool (or only the unpaused ones) has all its machines updated. */
export function poolsUpdated(s: Sample, onlyUnpaused = false): boolean {
  const pools = Object.values(s.pools).filter((p) => !onlyUnpaused || !p.paused);
  return pools.length > 0 && pools.every((p) => p.updated === p.total);
}

/** The value of the first series of `name` whose labels contain every `labels` pair, in a Prometheus text scrape. */
export function metricValue(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
