import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyConfigFromEnv } from '../../integrations/http/proxy-env.js';
import {
  OCM_CLUSTER_ID,
  OCM_TOKEN,
  settleOnClock,
  startForwardingProxy,
} from '../../integrations/ocm-sim.test-support.js';
import { createLogger } from '../../lib/log.js';
import { describeNotification, type Notification, type NotifyStateName } from './notifier.js';
import { transitionAllowed } from './ocm-notifier.js';
import { startOcmCluster } from '../providers/ocm-cluster.test-support.js';

const VERSION = '4.15.3';
const UPGRADE_AT = '2026-03-04T12:00:00Z';

function notification(state: NotifyStateName, firstFalse?: { type: string; message?: string }): Notification {
  return {
    state,
    upgradeConfig: { namespace: 'ns', name: 'managed-upgrade-config' },
    version: VERSION,
    upgradeAt: UPGRADE_AT,
    description: describeNotification(state, VERSION, firstFalse),
  };
}

test("MUO's transition guard, with delayed read back as skipped unless its text says it will retry", () => {
  const s = (value: string, description = ''): { value: string; description: string } => ({ value, description });
  assert.equal(transitionAllowed(s('scheduled'), 'StateStarted'), true);
  assert.equal(transitionAllowed(s('scheduled'), 'StateCompleted'), false);
  for (const next of ['StateScaleSkipped', 'StateDelayed', 'StateCompleted', 'StateFailed'] as const)
    assert.equal(transitionAllowed(s('started'), next), true, next);
  assert.equal(transitionAllowed(s('started'), 'StateSkipped'), false);
  assert.equal(transitionAllowed(s('delayed', 'The upgrade will continue to retry.'), 'StateSkipped'), true);
  assert.equal(transitionAllowed(s('delayed', 'The upgrade will continue to retry.'), 'StateDelayed'), false);
  assert.equal(
    transitionAllowed(s('delayed', 'The upgrade will continue without extra compute.'), 'StateSkipped'),
    false,
  );
  assert.equal(
    transitionAllowed(s('delayed', 'The upgrade will continue without extra compute.'), 'StateCompleted'),
    true,
  );
  for (const v of ['pending', 'completed', 'failed', 'cancelled'])
    assert.equal(transitionAllowed(s(v), 'StateFailed'), false, v);
});

test('policy states are PATCHed with their texts through the guard; service logs only with the gate, with their exact fields', async (t) => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (s: string) => void lines.push(s) } });
  const f = await startOcmCluster(t, { logger });
  const state = f.fx.ocm.state;
  state.addPolicy(OCM_CLUSTER_ID, { id: 'other', version: '4.15.3', nextRun: Date.UTC(2026, 2, 9) });
  state.addPolicy(OCM_CLUSTER_ID, { id: 'p1', version: VERSION, nextRun: Date.parse(UPGRADE_AT) });
  const notifier = f.sources.notifier();
  const signal = new AbortController().signal;
  await notifier.notify(notification('StateStarted'), signal);
  assert.deepEqual(state.policy(OCM_CLUSTER_ID, 'p1')?.state, {
    value: 'started',
    description: 'Cluster is currently being upgraded to version 4.15.3',
  });
  assert.equal(
    state.policy(OCM_CLUSTER_ID, 'other')?.state.value,
    'scheduled',
    'only the policy of this version and time',
  );
  await notifier.notify(notification('StateSkipped'), signal);
  assert.equal(
    state.policy(OCM_CLUSTER_ID, 'p1')?.state.value,
    'started',
    'started → skipped is not an allowed transition',
  );
  await notifier.notify(notification('StateDelayed', { type: 'ClusterHealthyBeforeUpgrade' }), signal);
  assert.match(
    state.policy(OCM_CLUSTER_ID, 'p1')?.state.description ?? '',
    /delay as health alerts are firing\. The upgrade will continue to retry\./,
  );

  await notifier.notify(notification('StateHealthCheckSL', { type: 'x', message: 'CriticalAlertsFiring' }), signal);
  assert.deepEqual(state.serviceLogs(), [], 'no service log without the ServiceLogNotification gate');
  f.configure(f.ocmYaml('featureGate:\n  enabled:\n  - ServiceLogNotification\n'));
  await notifier.notify(notification('StateHealthCheckSL', { type: 'x', message: 'CriticalAlertsFiring' }), signal);
  await notifier.notify(notification('StateControlPlaneFinishedSL'), signal);
  const logs = state.serviceLogs().map((l) => ({
    c: l.clusterId,
    sev: l.severity,
    svc: l.serviceName,
    type: l.logType,
    internal: l.internalOnly,
    s: l.summary,
    d: l.description,
    refs: l.docReferences,
  }));
  assert.deepEqual(logs, [
    {
      c: OCM_CLUSTER_ID,
      sev: 'Info',
      svc: 'RedHat Managed Upgrade Notifications',
      type: 'Cluster Updates',
      internal: false,
      s: 'Cluster has encountered healthcheck failure during upgrade',
      d: 'Cluster upgrade to version 4.15.3 may experience a delay as following healthcheck(s) are failing: CriticalAlertsFiring',
      refs: ['https://access.redhat.com/solutions/7081505'],
    },
    {
      c: OCM_CLUSTER_ID,
      sev: 'Info',
      svc: 'RedHat Managed Upgrade Notifications',
      type: 'Cluster Updates',
      internal: false,
      s: 'Cluster has finished control plane upgrade',
      d: 'Cluster has finished control plane upgrade to version 4.15.3.',
      refs: [],
    },
  ]);
  assert.equal(
    state.policy(OCM_CLUSTER_ID, 'p1')?.state.value,
    'delayed',
    'a service log never changes the policy state',
  );

  await notifier.notify(notification('StateCompleted'), signal);
  assert.equal(state.policy(OCM_CLUSTER_ID, 'p1')?.state.value, 'completed');
  await assert.rejects(
    notifier.notify({ ...notification('StateStarted'), version: '4.16.0' }, signal),
    /no upgrade policy for version 4\.16\.0 at 2026-03-04T12:00:00Z/,
  );

  // Failures: OCM down (retried, logged), then credentials refused; no line and no error carries the token.
  f.fx.ocm.setFault({ kind: 'error', status: 503 });
  const down = await settleOnClock(f.cluster.clock, notifier.notify(notification('StateFailed'), signal));
  assert.equal(down.ok, false);
  f.fx.ocm.setFault({ kind: 'none' });
  assert.ok(lines.some((l) => l.includes('OCM request failed; retrying')));
  const messages = [...lines, down.ok ? '' : String(down.error)];
  assert.ok(
    messages.every((l) => !l.includes(OCM_TOKEN)),
    'the token appears in no log line or error',
  );
});

test('source OCM with the OCM agent URL selects the agent client, which bypasses the proxy; the OCM client uses it; other sources log', async (t) => {
  // The proxy forwards to the simulated OCM of a first fixture; the second one's clients use the proxy.
  const f0 = await startOcmCluster(t);
  const proxy = await startForwardingProxy(t, f0.fx.url);
  const f = await startOcmCluster(t, { proxy: proxyConfigFromEnv({ HTTP_PROXY: proxy.url }) });
  f0.fx.ocm.state.addPolicy(OCM_CLUSTER_ID, { id: 'p1', version: VERSION, nextRun: Date.parse(UPGRADE_AT) });
  const signal = new AbortController().signal;
  f.configure('configManager:\n  source: OCM\n  ocmBaseUrl: http://api.openshift.example.test\n');
  const viaProxy = f.sources.provider(f.config());
  assert.equal((await viaProxy?.specs(undefined, signal))?.[0]?.desired.version, VERSION);
  assert.ok(proxy.seen.length > 0);
  const seen = proxy.seen.length;
  f.configure(
    'configManager:\n  source: OCM\n  ocmBaseUrl: http://ocm-agent.openshift-ocm-agent-operator.svc.cluster.local:8081\n',
  );
  const agent = f.sources.provider(f.config());
  const out = await settleOnClock(f.cluster.clock, agent?.specs(undefined, signal) ?? Promise.resolve([]));
  assert.equal(out.ok, false);
  assert.match(
    out.ok ? '' : String(out.error),
    /ocm-agent: GET http:\/\/ocm-agent\.openshift-ocm-agent-operator\.svc\.cluster\.local:8081\//,
  );
  assert.equal(proxy.seen.length, seen, 'the agent is never reached through the proxy');
  f.configure('configManager:\n  source: LOCAL\n');
  assert.equal(f.sources.provider(f.config())?.source, 'LOCAL');
  assert.equal(f.sources.notifierFor(f.config()).kind, 'log');
  f.configure('{}');
  assert.equal(f.sources.provider(f.config()), undefined);
});
