/**
 * End to end, the behaviours (docs/design/cluster-model.md#what-an-upgrade-operator-must-handle) 10
 * (extra capacity: new nodes join with the newest config only after the pool's first node updated;
 * removed nodes are drained under their PodDisruptionBudgets) and 9 (silenced alerts stay visible
 * in Prometheus `ALERTS`), with the operator in the loop (`managed-capacity-mid-update`), checked
 * through what a user can read: Node and MachineConfigPool annotations and status as the JSON
 * report's transitions record them, Pods and the PodDisruptionBudget through informers, Prometheus
 * and Alertmanager over HTTP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { NodeResource, PodDisruptionBudgetResource, PodResource } from '../../src/api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import type { ScenarioRun } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';

const CURRENT = 'machineconfiguration.openshift.io/currentConfig';

/** What the alerting APIs said at one moment. */
interface AlertsSeen {
  /** Prometheus `ALERTS{alertstate="firing"}`: alertname/namespace. */
  prometheus: string[];
  /** Alertmanager's alerts: alertname/namespace → state and silencing silences. */
  alertmanager: Map<string, { state: string; silencedBy: string[] }>;
  /** Our control-plane silence's ID then. */
  controlPlaneSilence: string | undefined;
}

async function getJson(url: string): Promise<unknown> {
  const res = await request(url);
  if (res.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${res.statusCode}`);
  return res.body.json();
}

/** Reads Prometheus and Alertmanager over HTTP, as a user would. */
async function readAlerts(run: ScenarioRun): Promise<AlertsSeen> {
  const m = run.sim.components.monitoring;
  const prom = (await getJson(
    `${m.prometheusUrl ?? ''}/api/v1/query?query=${encodeURIComponent('ALERTS{alertstate="firing"}')}`,
  )) as { data: { result: Array<{ metric: Record<string, string> }> } };
  const alerts = (await getJson(`${m.alertmanagerUrl ?? ''}/api/v2/alerts`)) as Array<{
    labels: Record<string, string>;
    status: { state: string; silencedBy: string[] };
  }>;
  const silences = (await getJson(`${m.alertmanagerUrl ?? ''}/api/v2/silences`)) as Array<{
    id: string;
    comment: string;
    status: { state: string };
  }>;
  const key = (l: Record<string, string>): string => `${l['alertname'] ?? ''}/${l['namespace'] ?? ''}`;
  return {
    prometheus: prom.data.result.map((r) => key(r.metric)),
    alertmanager: new Map(
      alerts.map((a) => [key(a.labels), { state: a.status.state, silencedBy: a.status.silencedBy }]),
    ),
    controlPlaneSilence: silences.find(
      (s) => s.status.state === 'active' && s.comment.startsWith('Silence for OSD control plane upgrade'),
    )?.id,
  };
}

void test('managed-capacity-mid-update (§8.6 behaviours 10 and 9): nodes join on the newest config only after the pool’s first node updated; clones are drained under their PDB; silenced alerts stay in ALERTS', async (t) => {
  const { file } = loadScenario('managed-capacity-mid-update');
  const env = await startSimEnvironment(environmentFor(file, 1));
  t.after(() => env.close());
  let start = 0;
  /** Pods of shop/cart still bound to a node (not terminating) when that Node was deleted. */
  const leftOnRemovedNode = new Map<string, string[]>();
  /** The PDB's least margin of healthy cart pods over what it requires, and whether it ever allowed no disruption. */
  let fewestHealthy = Infinity;
  let budgetExhausted = false;
  /** Cart pods per node when each node was cordoned. */
  const podsAtCordon = new Map<string, number>();
  const probes: Array<Promise<void>> = [];
  let seen: AlertsSeen | undefined;
  const outcome = await runCheckedScenario(env, 'managed-capacity-mid-update', file, {
    seed: 1,
    beforeManifests(run) {
      start = run.env.clock.now();
      const inf = run.env.ctx.informers;
      const pods = inf.informerFor(PodResource, { namespace: 'shop' });
      const pdbs = inf.informerFor(PodDisruptionBudgetResource, { namespace: 'shop' });
      const nodes = inf.informerFor(NodeResource);
      const cvs = inf.informerFor(ClusterVersionResource);
      const bound = (node: string): Pod[] =>
        pods.list().filter((p) => p.spec?.nodeName === node && !p.metadata?.deletionTimestamp);
      nodes.addHandlers({
        onUpdate: (old, now) => {
          const name = now.metadata?.name ?? '';
          if (now.spec?.unschedulable === true && old.spec?.unschedulable !== true)
            podsAtCordon.set(name, bound(name).length);
        },
        onDelete: (n) =>
          void leftOnRemovedNode.set(
            n.metadata?.name ?? '',
            bound(n.metadata?.name ?? '').map((p) => p.metadata?.name ?? ''),
          ),
      });
      pdbs.addHandlers({
        onUpdate: (_old, pdb) => {
          if (pdb.status?.desiredHealthy === undefined || pdb.status.desiredHealthy === 0) return;
          // From the moment the Deployment first stood complete (before, its pods were still starting).
          if (fewestHealthy === Infinity && (pdb.status.currentHealthy ?? 0) < pdb.status.desiredHealthy) return;
          fewestHealthy = Math.min(fewestHealthy, (pdb.status.currentHealthy ?? 0) - pdb.status.desiredHealthy);
          if (pdb.status.disruptionsAllowed === 0) budgetExhausted = true;
        },
      });
      // Once ClusterVersion shows the upgrade under way (inside the control-plane window), read the alerting APIs once.
      cvs.addHandlers({
        onUpdate: (_old, cv) => {
          if (
            probes.length > 0 ||
            cv.metadata?.name !== CLUSTER_VERSION_NAME ||
            cv.status?.history?.[0]?.state !== 'Partial'
          )
            return;
          const done = run.env.clock.activity.begin('test probe: alerting APIs');
          probes.push(
            readAlerts(run)
              .then((r) => void (seen = r))
              .finally(done),
          );
        },
      });
    },
  });
  const { ok, summary, run } = outcome;
  t.after(() => run.close());
  await Promise.all(probes);
  assert.ok(ok, summary);
  const tr = run.recorder.transitions(start);

  // Behaviour 10, joining: each node created during the run booted with the config the MCO's
  // machine-config-server hands out — the pool's newest (spec) config once one of its nodes runs
  // it, the pool's current (status) config before that.
  const poolSpec: Array<[number, string]> = [];
  let newest = '';
  let current = '';
  const running = new Map<string, string>();
  const joins: Array<{ node: string; config: string; expected: string; anyUpdated: boolean }> = [];
  for (const x of tr) {
    if (x.kind === 'MachineConfigPool' && x.name === 'worker' && x.field === 'spec.configuration.name') {
      newest = String(x.to);
      poolSpec.push([x.elapsedMs, newest]);
    }
    if (x.kind === 'MachineConfigPool' && x.name === 'worker' && x.field === 'status.configuration.name')
      current = String(x.to);
    if (x.kind !== 'Node' || x.field !== CURRENT) continue;
    if (x.from === null && typeof x.to === 'string' && x.to.startsWith('rendered-worker-')) {
      const anyUpdated = newest !== '' && [...running.values()].includes(newest);
      joins.push({ node: x.name, config: x.to, expected: anyUpdated ? newest : current || x.to, anyUpdated });
    }
    if (typeof x.to === 'string') running.set(x.name, x.to);
  }
  assert.equal(poolSpec.length, 1, 'the worker pool got its new config once');
  const mid = joins.filter((j) =>
    tr.some(
      (x) =>
        x.kind === 'MachineConfigPool' &&
        x.field === 'spec.configuration.name' &&
        x.name === 'worker' &&
        x.at <= tr.find((y) => y.kind === 'Node' && y.name === j.node && y.field === 'object')!.at,
    ),
  );
  assert.equal(joins.length, 5, `three clones and two machines added mid-update: ${JSON.stringify(joins)}`);
  assert.equal(mid.length, 2, JSON.stringify(joins));
  for (const j of joins) assert.equal(j.config, j.expected, `${j.node} joined with ${j.config}`);
  assert.deepEqual(
    mid.map((j) => [j.anyUpdated, j.config === newest]),
    [
      [false, false],
      [true, true],
    ],
    'one joined before the first node updated (old config), one after (new config)',
  );
  // The one that joined on the old config was updated like any other.
  const early = mid[0]!.node;
  assert.ok(
    tr.some((x) => x.kind === 'Node' && x.name === early && x.field === CURRENT && x.to === newest),
    `${early} was updated`,
  );

  // Behaviour 10, removing: every clone's node was cordoned, emptied of cart pods by evictions
  // that respected the budget (never fewer healthy pods than it requires), then removed.
  const removed = tr.filter((x) => x.kind === 'Node' && x.field === 'object' && x.to === 'absent').map((x) => x.name);
  assert.equal(removed.length, 3, JSON.stringify(removed));
  for (const node of removed) {
    const gone = tr.find((x) => x.kind === 'Node' && x.name === node && x.field === 'object' && x.to === 'absent')!;
    const cordoned = tr
      .filter((x) => x.kind === 'Node' && x.name === node && x.field === 'spec.unschedulable' && x.to === true)
      .at(-1);
    assert.ok(cordoned && cordoned.elapsedMs <= gone.elapsedMs, `${node} was cordoned before it was removed`);
    assert.deepEqual(leftOnRemovedNode.get(node), [], `${node} was drained before it was removed`);
  }
  assert.ok(
    removed.some((n) => (podsAtCordon.get(n) ?? 0) > 0),
    `some cart pods had to be evicted from the clones: ${JSON.stringify([...podsAtCordon])}`,
  );
  assert.ok(fewestHealthy >= 0, `the PDB never had fewer healthy pods than it requires (${fewestHealthy})`);
  assert.ok(budgetExhausted, 'the budget was used up at times: evictions waited for it');
  const cart = (await run.env.client.list(PodResource, { namespace: 'shop' })).items.filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
  assert.equal(cart.length, 9);

  // Behaviour 9: an alert silenced by the control-plane window is still in Prometheus' ALERTS.
  assert.ok(seen, 'the alerting APIs were read during the control-plane upgrade');
  const silenced = [...seen.alertmanager].filter(
    ([, a]) =>
      a.state === 'suppressed' &&
      seen!.controlPlaneSilence !== undefined &&
      a.silencedBy.includes(seen!.controlPlaneSilence),
  );
  assert.ok(
    silenced.length > 0,
    `an alert was silenced by the control-plane window: ${JSON.stringify([...seen.alertmanager])}`,
  );
  for (const [key] of silenced)
    assert.ok(
      seen.prometheus.includes(key),
      `${key} is silenced in Alertmanager and still firing in ALERTS: ${JSON.stringify(seen.prometheus)}`,
    );
});
