import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from 'kubernetes-types/batch/v1.js';
import { JobResource, NamespaceResource, NodeResource, PodResource } from '../../api/builtin.js';
import { SeededRandom } from '../../lib/random.js';
import { startTestCluster } from '../test-support/cluster.test-support.js';
import { createJobController } from './job-controller.js';
import { matchingRule, nextStep, planFor, type JobRule } from './job-rules.js';
import { compileGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';

function goRegexp(source: string): GoRegexp {
  const compiled = compileGoRegexp(source);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regexp;
}

const MINUTE = 60_000;
const NS = 'hooks';

function job(
  name: string,
  extra: {
    labels?: Record<string, string>;
    activeDeadlineSeconds?: number;
    suspend?: boolean;
    backoffLimit?: number;
  } = {},
): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS, ...(extra.labels ? { labels: extra.labels } : {}) },
    spec: {
      ...(extra.activeDeadlineSeconds !== undefined ? { activeDeadlineSeconds: extra.activeDeadlineSeconds } : {}),
      ...(extra.suspend !== undefined ? { suspend: extra.suspend } : {}),
      ...(extra.backoffLimit !== undefined ? { backoffLimit: extra.backoffLimit } : {}),
      template: {
        spec: { restartPolicy: 'Never', containers: [{ name: 'hook', image: 'registry.example.com/hook:1' }] },
      },
    },
  };
}

void test('rules: first match by namespace, name (string or RegExp) and labels; default success after (0.5, 1, 2) min', () => {
  const rules: JobRule[] = [
    { match: { name: goRegexp('^pre-'), labels: { tier: 'db' } }, outcome: 'fail', after: 3 },
    { match: { namespace: NS, name: 'post' }, outcome: 'succeed', after: 10 },
  ];
  const j = (name: string, labels?: Record<string, string>): Job => job(name, labels ? { labels } : {});
  assert.equal(matchingRule(j('pre-x', { tier: 'db' }), rules), rules[0]);
  assert.equal(matchingRule(j('pre-x'), rules), undefined);
  assert.equal(matchingRule(j('post'), rules), rules[1]);
  const plan = planFor(j('other'), rules, new SeededRandom(1), [0.5, 1, 2], 1);
  assert.equal(plan.outcome, 'succeed');
  assert.ok(plan.afterMs >= 0.5 * MINUTE && plan.afterMs <= 2 * MINUTE);
  assert.deepEqual(planFor(j('pre-a', { tier: 'db' }), rules, new SeededRandom(1), [0.5, 1, 2], 60), {
    outcome: 'fail',
    afterMs: 3000,
  });
  // The deadline wins a tie with the end.
  const step = nextStep(job('d', { activeDeadlineSeconds: 60 }), { outcome: 'succeed', afterMs: 60_000 }, 0, 60_000);
  assert.equal(step.kind === 'fail' && step.reason, 'DeadlineExceeded');
  assert.deepEqual(nextStep(job('w'), { outcome: 'succeed', afterMs: 60_000 }, 0, 1000), { kind: 'wait', at: 60_000 });
});

void test('Jobs run to success, failure or their deadline; suspend is honoured', async (t) => {
  const cluster = await startTestCluster(t, { seed: 5 });
  const c = cluster.client;
  await c.create(NamespaceResource, { metadata: { name: NS } });
  await c.create(NodeResource, {
    metadata: { name: 'worker-a', labels: { 'node-role.kubernetes.io/worker': '' } },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const rules: JobRule[] = [
    { match: { name: 'bad' }, outcome: 'fail', after: 4 },
    { match: { name: 'slow' }, outcome: 'succeed', after: 30 },
  ];
  await createJobController(cluster.ctx, { rules }).start(cluster.signal);
  const jobs = cluster.ctx.informers.informerFor(JobResource);
  const pods = cluster.ctx.informers.informerFor(PodResource);
  const cond = (name: string, type: string): string | undefined =>
    jobs.get(NS, name)?.status?.conditions?.find((x) => x.type === type)?.status;
  const until = async (f: () => boolean, maxMs: number, what: string): Promise<void> => {
    const deadline = cluster.clock.now() + maxMs;
    await cluster.clock.run({ until: () => f() || cluster.clock.now() >= deadline });
    assert.ok(f(), `${what}: not reached within ${maxMs / MINUTE} virtual minutes`);
  };

  const t0 = cluster.clock.now();
  await c.create(JobResource, job('ok'));
  await c.create(JobResource, job('bad', { backoffLimit: 2 }));
  await c.create(JobResource, job('slow', { activeDeadlineSeconds: 600 }));
  await c.create(JobResource, job('held', { suspend: true }));

  await until(() => jobs.get(NS, 'ok')?.status?.ready === 1, MINUTE, 'ok running');
  const running = jobs.get(NS, 'ok')!.status!;
  assert.equal(running.active, 1);
  assert.ok(running.startTime);
  assert.deepEqual(running.uncountedTerminatedPods, {});
  const okPod = pods.list(NS).find((p) => p.metadata?.labels?.['job-name'] === 'ok')!;
  assert.equal(okPod.metadata?.ownerReferences?.[0]?.kind, 'Job');
  assert.equal(okPod.spec?.nodeName, 'worker-a');
  assert.equal(okPod.status?.phase, 'Running');

  await until(() => cond('ok', 'Complete') === 'True', 3 * MINUTE, 'ok complete');
  const done = jobs.get(NS, 'ok')!.status!;
  assert.equal(done.succeeded, 1);
  assert.equal(done.active, undefined);
  assert.ok(done.completionTime);
  const took = Date.parse(done.completionTime) - t0;
  assert.ok(took >= 0.5 * MINUTE - 1000 && took <= 2 * MINUTE + 1000, `took ${took} ms`);
  assert.equal(pods.get(NS, okPod.metadata?.name ?? '')?.status?.phase, 'Succeeded');

  await until(() => cond('bad', 'Failed') === 'True', 5 * MINUTE, 'bad failed');
  const bad = jobs.get(NS, 'bad')!;
  assert.equal(bad.status?.conditions?.find((x) => x.type === 'Failed')?.reason, 'BackoffLimitExceeded');
  assert.equal(
    bad.status?.conditions?.find((x) => x.type === 'Failed')?.message,
    'Job has reached the specified backoff limit',
  );
  assert.equal(bad.status?.failed, 3);
  assert.equal(bad.status?.completionTime, undefined);
  assert.ok(Math.abs(cluster.clock.now() - t0 - 4 * MINUTE) < 1000);

  await until(() => cond('slow', 'Failed') === 'True', 15 * MINUTE, 'slow deadline');
  const slow = jobs.get(NS, 'slow')!;
  assert.equal(slow.status?.conditions?.find((x) => x.type === 'Failed')?.reason, 'DeadlineExceeded');
  assert.equal(slow.status?.failed, 1);
  assert.ok(
    Math.abs(cluster.clock.now() - t0 - 10 * MINUTE) < 1000,
    'failed at the 600 s deadline, before its 30 min rule',
  );

  // The suspended Job never started; resuming runs it to completion.
  const held = jobs.get(NS, 'held')!;
  assert.equal(held.status?.startTime, undefined);
  assert.equal(cond('held', 'Suspended'), 'True');
  assert.equal(held.status?.conditions?.find((x) => x.type === 'Suspended')?.reason, 'JobSuspended');
  assert.ok(!pods.list(NS).some((p) => p.metadata?.labels?.['job-name'] === 'held'));
  await c.patch(JobResource, NS, 'held', { spec: { suspend: false } }, { type: 'merge' });
  await until(() => cond('held', 'Complete') === 'True', 3 * MINUTE, 'held complete');
  assert.equal(jobs.get(NS, 'held')?.status?.conditions?.find((x) => x.type === 'Suspended')?.reason, 'JobResumed');
});
