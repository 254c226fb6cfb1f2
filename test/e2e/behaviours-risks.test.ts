/**
 * End to end, behaviour 4 (docs/design/cluster-model.md#behaviour-4-a-conditional-updates-risk) — a
 * conditional-update risk that starts to apply after the upgrade was scheduled — with the operator
 * in the loop (`managed-risk-mid-window`, which opts in to `conditionalUpdates.requireRiskAcceptance`;
 * the default, MUO's, is `managed-conditional-update` in managed-upgrade.test.ts), checked through
 * what a user can read: ClusterVersion's conditional updates as an informer sees them, the
 * UpgradeConfig's Waiting condition and history, and Events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { events } from './scenario.test-support.js';

const MINUTE = 60_000;

void test('managed-risk-mid-window (§8.6 behaviour 4): with requireRiskAcceptance, a risk that starts to apply before upgradeAt stops the commencement, naming the risk, until it is accepted', async (t) => {
  const { file } = loadScenario('managed-risk-mid-window');
  const env = await startSimEnvironment(environmentFor(file, 1));
  t.after(() => env.close());
  // What the CVO says of 4.15.3 over time: [virtual ms since the manifests, Recommended status].
  const recommended: Array<[number, string]> = [];
  let start = 0;
  const outcome = await runCheckedScenario(env, 'managed-risk-mid-window', file, {
    seed: 1,
    beforeManifests(run) {
      start = run.env.clock.now();
      const cvs = run.env.ctx.informers.informerFor(ClusterVersionResource);
      const seen = (): void => {
        const entry = cvs
          .get(undefined, CLUSTER_VERSION_NAME)
          ?.status?.conditionalUpdates?.find((c) => c.release.version === '4.15.3');
        const status = entry?.conditions?.find((c) => c.type === 'Recommended')?.status ?? 'absent';
        if (recommended.at(-1)?.[1] !== status) recommended.push([run.env.clock.now() - start, status]);
      };
      cvs.addHandlers({ onAdd: seen, onUpdate: seen });
    },
  });
  const { ok, summary, run } = outcome;
  t.after(() => run.close());
  assert.ok(ok, summary);

  // The CVO recommended 4.15.3 at first, and stopped once its hour-long cache of the risk ran out.
  const applies = run.actionsRun.find((a) => a.name === 'the OLM risk starts to apply to this cluster')!.elapsedMs;
  const accepted = run.actionsRun.find((a) => a.name === 'the SRE reviews the risk and accepts it')!.elapsedMs;
  const flipped = recommended.find(([, s]) => s === 'False')?.[0];
  assert.ok(
    recommended.some(([at, s]) => s === 'True' && at <= applies),
    JSON.stringify(recommended),
  );
  assert.ok(
    flipped !== undefined && flipped > applies && flipped < 75 * MINUTE,
    `Recommended=False before upgradeAt: ${JSON.stringify(recommended)}`,
  );

  // At upgradeAt the operator re-judged the target and did not commence: the wait names the risk, its URL and the way to accept it.
  const refused = run.timeline.filter((p) =>
    p.waiting.startsWith('UpgradeCommenced: the cluster version operator does not recommend the update to 4.15.3'),
  );
  assert.ok(refused.length > 0, 'the Waiting condition said why');
  assert.match(
    refused[0]!.waiting,
    /OLMOperatorsInFailedState: .* https:\/\/issues\.redhat\.com\/browse\/OPRUN-3267; not commencing unless the UpgradeConfig accepts this risk \(annotation upgrade-operator\.io\/accept-risks: "OLMOperatorsInFailedState"\)$/,
  );
  assert.ok(
    refused.every(
      (p) =>
        p.phase === 'Upgrading' && p.clusterVersion.desired === '4.14.10' && !p.doneSteps.includes('UpgradeCommenced'),
    ),
    'ClusterVersion was not told to upgrade meanwhile',
  );
  assert.ok(refused.every((p) => p.elapsedMs >= 75 * MINUTE && p.elapsedMs < accepted));
  const said = await events(run, run.namespace, 'UpdateNotRecommended');
  assert.ok(
    said.length === 1 &&
      said[0]!.object === 'UpgradeConfig/managed-upgrade-config' &&
      said[0]!.message.includes('OLMOperatorsInFailedState'),
    JSON.stringify(said),
  );

  // Accepted by name: commenced then (with the image, as the CVO needs for a not-recommended target), and the CVO recorded the accepted risk.
  const h = run.upgradeConfig()?.status?.history?.[0];
  const commenced = h?.conditions?.find((c) => c.type === 'UpgradeCommenced');
  assert.ok(
    Date.parse(commenced?.completeTime ?? '') >= start + accepted,
    `commenced at ${commenced?.completeTime ?? '?'}, after the risk was accepted`,
  );
  const told = await events(run, run.namespace, 'UpgradeCommenced');
  assert.match(
    told[0]?.message ?? '',
    /conditional update 4\.15\.3 .*\(risks accepted by the UpgradeConfig: OLMOperatorsInFailedState\)$/,
  );
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.match(cv.spec.desiredUpdate?.image ?? '', /@sha256:[0-9a-f]{64}$/);
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], ['4.15.3', 'Completed']);
  assert.match(cv.status?.history?.[0]?.acceptedRisks ?? '', /OLMOperatorsInFailedState/);
  assert.equal(h?.phase, 'Upgraded');
  // The condition names the risk as accepted; no Warning beyond the refusal's, as the risk was accepted.
  const condition = run.upgradeConfig()?.status?.conditions?.find((c) => c.type === 'UpdateRecommended');
  assert.match(condition?.message ?? '', /; risks accepted by the UpgradeConfig: OLMOperatorsInFailedState$/);
  assert.equal(condition?.status, 'False');
});
