/**
 * Runs a named scenario of `upgrade-operator simulate` in a test (its operator's requests checked
 * against the shipped RBAC), and reads what a user could read afterwards: API objects, Events,
 * Alertmanager's silences and the operator's metrics endpoints over HTTP.
 */
import type { TestContext } from 'node:test';
import { request } from 'undici';
import type { Job } from 'kubernetes-types/batch/v1.js';
import { EventResource, JobResource } from '../../src/api/builtin.js';
import { HookJobLabel } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario, type ScenarioOutcome } from '../../src/cli/scenarios/catalog.js';
import type { ScenarioRun } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import type { GettableSilence } from '../../src/integrations/alertmanager-api.js';
import { AlertmanagerClient } from '../../src/integrations/alertmanager-client.js';
import { NO_PROXY_CONFIG } from '../../src/integrations/http/proxy-env.js';

/**
 * Runs the named scenario (the file `scenarios/<name>.yaml`) with seed 1, failing when the shipped
 * RBAC denies a request of its operator; everything is torn down after the test.
 */
export async function runScenario(t: TestContext, name: string): Promise<ScenarioOutcome> {
  const { file } = loadScenario(name);
  const env = await startSimEnvironment(environmentFor(file, 1));
  t.after(() => env.close());
  const outcome = await runCheckedScenario(env, name, file, { seed: 1 });
  t.after(() => outcome.run.close());
  return outcome;
}

/** The silences in the simulated cluster's Alertmanager. */
export async function silences(run: ScenarioRun): Promise<GettableSilence[]> {
  const am = new AlertmanagerClient({
    url: run.sim.components.monitoring.alertmanagerUrl ?? '',
    proxy: NO_PROXY_CONFIG,
    clock: run.env.clock,
  });
  try {
    return await am.listSilences();
  } finally {
    await am.close();
  }
}

/** A scrape of one of the operator's metrics endpoints (`/metrics` or `/collector`). */
export async function scrape(run: ScenarioRun, path: '/metrics' | '/collector'): Promise<string> {
  const res = await request(`${run.metricsUrl()}${path}`);
  if (res.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${res.statusCode}`);
  return res.body.text();
}

/** Events in a namespace (with this reason, when given), with their counts. */
export async function events(
  run: ScenarioRun,
  namespace: string,
  reason?: string,
): Promise<Array<{ object: string; type: string; reason: string; message: string; count: number }>> {
  const list = await run.env.client.list(EventResource, { namespace });
  return list.items
    .filter((e) => reason === undefined || e.reason === reason)
    .map((e) => ({
      type: e.type ?? '',
      reason: e.reason ?? '',
      object: `${e.involvedObject.kind ?? ''}/${e.involvedObject.name ?? ''}`,
      message: e.message ?? '',
      count: e.count ?? 1,
    }));
}

/** The scheduled flow's hook Jobs in a namespace by `<hook>/<event>[/<tracking key>]`, read from their labels. */
export async function hookJobsByRun(run: ScenarioRun, namespace: string): Promise<Map<string, Job[]>> {
  const out = new Map<string, Job[]>();
  for (const j of (await run.env.client.list(JobResource, { namespace })).items) {
    const l = j.metadata?.labels ?? {};
    const key = [
      l[HookJobLabel.UpgradeJobHook] ?? '',
      l[HookJobLabel.Event] ?? '',
      ...(l[HookJobLabel.TrackingKey] ? [l[HookJobLabel.TrackingKey]] : []),
    ].join('/');
    out.set(key, [...(out.get(key) ?? []), j]);
  }
  return out;
}

/** A hook Job's environment: name → value (values are JSON, as APPUiO sets them). */
export function hookJobEnv(job: Job | undefined): Map<string, string | undefined> {
  return new Map((job?.spec?.template.spec?.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
}
