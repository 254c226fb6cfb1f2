/**
 * End to end, the behaviours (docs/design/cluster-model.md#what-an-upgrade-operator-must-handle) 6
 * (progress parsing) and 7 (retargeting and a stale spec), each a named scenario with the operator
 * in the loop, checked through what a user can read: the UpgradeConfig's Waiting condition over
 * time, the UpgradeJob, ClusterVersion and Events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { parseProgressMessage } from '../../src/engine/cvo-progress.js';
import { events, runScenario } from './scenario.test-support.js';

const MINUTE = 60_000;

void test('managed-stuck-operator (§8.6 behaviour 6): every form of the CVO message is read; the operator names console, neither fails nor completes from the message', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-stuck-operator');
  assert.ok(ok, summary);
  const tl = run.timeline;
  const cvSaid = (re: RegExp): typeof tl => tl.filter((p) => re.test(p.clusterVersion.progressing));

  // The CVO went through its harder forms.
  const waitingOn = cvSaid(
    /^Working towards 4\.15\.38: \d+ of \d+ done \(\d+% complete\), waiting on [a-z, -]*\bconsole\b/,
  );
  const grace = cvSaid(
    /^Working towards 4\.15\.38: \d+ of \d+ done \(\d+% complete\), waiting up to 40 minutes on console$/,
  );
  const unable = cvSaid(/^Unable to apply 4\.15\.38: wait has exceeded 40 minutes for these operators: console$/);
  assert.ok(
    waitingOn.length > 0 && grace.length > 0 && unable.length > 0,
    'waiting on, the 40-minute grace and Unable to apply were all shown',
  );
  assert.ok(cvSaid(/^Working towards 4\.15\.38$/).length > 0, 'and the form without counts');
  // Counts went backwards after the CVO pod restart (never a sign of completion or failure).
  const counts = tl
    .map((p) => parseProgressMessage(p.clusterVersion.progressing))
    .filter((g) => g.version === '4.15.38' && g.counts)
    .map((g) => g.counts!.done);
  assert.ok(
    counts.some((d, i) => i > 0 && d < counts[i - 1]!),
    `the counter went backwards: ${counts.join(' ')}`,
  );
  const restarted = run.actionsRun.find((a) => a.name === 'the cluster-version operator pod restarts');
  assert.ok(restarted, 'the CVO pod restarted');

  // The operator's Waiting condition: plain while the CVO simply waits on operators (no churn), naming console once it is a concern.
  assert.ok(
    waitingOn.some((p) => p.waiting === 'ControlPlaneUpgraded: waiting for the control plane to complete 4.15.38'),
    'waiting on … console is normal progress',
  );
  assert.ok(
    grace.some((p) => p.waiting.endsWith('the cluster version operator waits up to 40 minutes on degraded console')),
    'the 40-minute grace',
  );
  assert.ok(
    unable.some((p) =>
      p.waiting.includes(
        'unable to apply 4.15.38: wait has exceeded 40 minutes for these operators: console; Failing=True ClusterOperatorDegraded: Cluster operator console is degraded',
      ),
    ),
    'Unable to apply, with Failing',
  );
  const said = (await events(run, run.namespace))
    .filter((e) => e.object === 'UpgradeConfig/managed-upgrade-config')
    .map((e) => e.message);
  assert.ok(
    said.some((m) => m.includes('degraded console')),
    'an Event says it too',
  );
  assert.equal(
    (await events(run, run.namespace, 'UpgradeCompleted')).length,
    1,
    'the waits did not exhaust the Event spam filter',
  );

  // Failing=True and Unable to apply are not the operator's failure: still Upgrading, the control plane not done.
  assert.ok(
    tl.every((p) => p.phase !== 'Failed'),
    'never Failed',
  );
  assert.ok(unable.every((p) => p.phase === 'Upgrading' && !p.doneSteps.includes('ControlPlaneUpgraded')));
  // Completion came from ClusterVersion history only, never from a count or a percentage.
  assert.ok(
    tl
      .filter((p) => p.doneSteps.includes('ControlPlaneUpgraded'))
      .every((p) => p.clusterVersion.version === '4.15.38' && p.clusterVersion.state === 'Completed'),
  );
  assert.equal(run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');

  // Behaviour 7 (docs/design/cluster-model.md#behaviour-7-a-retarget-and-a-stale-status) on the
  // way: before the CVO took the new spec, its old Progressing was not read as ours.
  const beforeTaken = tl.filter(
    (p) =>
      p.waiting.startsWith('ControlPlaneUpgraded: waiting for the control plane to complete 4.15.38') &&
      p.clusterVersion.desired !== '4.15.38',
  );
  assert.ok(beforeTaken.length > 0);
  for (const p of beforeTaken)
    assert.match(p.waiting, /has not yet observed the new spec|the release is not accepted yet/, p.waiting);
});

void test('scheduled-retarget-rollback (§8.6 behaviour 7): the old "4.14.30 Completed" entry is not taken for the retarget’s completion; the job waits for the CVO', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-retarget-rollback');
  assert.ok(ok, summary);
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  const history = cv.status?.history ?? [];
  const byHand = history[1]?.version ?? '';
  assert.match(byHand, /^4\.14\.(3[1-9]|[4-9]\d)$/);
  assert.deepEqual(
    history.map((h) => `${h.version} ${h.state}`),
    ['4.14.30 Completed', `${byHand} Partial`, '4.14.30 Completed'],
    'the abandoned update stays Partial',
  );
  assert.notEqual(history[1]?.completionTime, null, 'and was closed when the CVO took the rollback');

  const job = (await run.env.client.list(UpgradeJobResource, { namespace: 'appuio-openshift-upgrade-controller' }))
    .items[0];
  const completed = job?.status?.conditions?.find((c) => c.type === 'UpgradeCompleted');
  assert.equal(completed?.status, 'True');
  const rolledBackAt = Date.parse(history[0]?.completionTime ?? '');
  const retargetedAt = Date.parse(history[0]?.startedTime ?? '');
  assert.ok(
    Date.parse(completed?.lastTransitionTime ?? '') >= rolledBackAt,
    `UpgradeCompleted (${completed?.lastTransitionTime ?? '?'}) not before the CVO completed the rollback (${history[0]?.completionTime ?? '?'})`,
  );
  assert.ok(rolledBackAt - retargetedAt >= 10 * MINUTE, 'the rollback was a real update, not a lookup');

  // The job said why it waited: first the stale status, then the rollback under way.
  const waits = (await events(run, 'appuio-openshift-upgrade-controller', 'UpgradeInProgress')).map((e) => e.message);
  assert.ok(
    waits.some((m) =>
      /the cluster is upgrading to 4\.14\.30: (the cluster version operator has not yet observed the new spec|the release is not accepted yet, the cluster version operator still runs 4\.14\.)/.test(
        m,
      ),
    ),
    waits.join('\n'),
  );
  assert.ok(waits.includes('UpgradeCompleted: the cluster is upgrading to 4.14.30'), waits.join('\n'));
  // At no moment was the job done while ClusterVersion's head was not the completed rollback.
  for (const p of run.timeline.filter((x) => x.upgradeJob.trueConditions.includes('UpgradeCompleted'))) {
    assert.deepEqual([p.clusterVersion.version, p.clusterVersion.state], ['4.14.30', 'Completed']);
  }
});
