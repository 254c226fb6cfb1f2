/**
 * Least privilege of the managed flow's shipped RBAC. Every scenario a test runs is checked
 * against the generated rules where it runs (`runCheckedScenario`, operator-requests.test-support.ts);
 * here a few runs that, between them, make every kind of request the code has are collected, so
 * that every verb of every rule must be used by some request:
 * - `managed-pdb-blocked-drain` with FedRAMP, the `PreHealthCheck` feature gate and a pod held
 *   by a finalizer: capacity reservation, the PDB-blocked drain strategies and the finalizer
 *   removal, the full pre-upgrade health check (the DVO Service look-up), the FedRAMP
 *   FileIntegrity re-init, Events on the UpgradeConfig and on Nodes, notifications to a webhook
 *   on loopback (their configuration, Secret and state ConfigMap);
 * - `ocm-policy-withdrawn` (`configManager.source: OCM`): the policy sync creates the
 *   UpgradeConfig, updates it in place and deletes it, the OCM credential read from the pull-secret;
 * - `ocm-agent-policy-upgrade`: the same source through the OCM agent, a whole upgrade;
 * - leader election through a Manager.
 * Then the check itself is tested on a planted defect in each direction.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceResource, NodeResource, PodResource } from '../builtin.js';
import { FILE_INTEGRITY_NAMESPACE } from '../openshift/fileintegrity-v1alpha1/file-integrity.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { LEADER_ELECTION_ID } from '../../cli/commands/run.js';
import { environmentFor, loadScenario } from '../../cli/scenarios/catalog.js';
import {
  startNotificationReceiver,
  webhookNotificationManifests,
} from '../../engine/notifications/notification-receiver.test-support.js';
import { NOTIFICATIONS_CONFIG_NAME, NOTIFICATIONS_STATE_NAME } from '../notifications-contract.js';
import type { ScenarioFile } from '../../cli/scenarios/scenario-file.js';
import { startSimEnvironment, type SimEnvironment } from '../../cli/scenarios/sim-environment.js';
import { OSD_FILE_INTEGRITY_NAME } from '../../managed/steps/post-upgrade-step.js';
import { OSD_FILE_INTEGRITY_OBJECT } from './managed-operator-rbac.js';
import {
  assertRequestsAllowed,
  deniedRequests,
  exerciseLeaderElection,
  managedGrants,
  runCheckedScenario,
  unusedVerbs,
  type OperatorRequest,
} from './operator-requests.test-support.js';
import type { ResolvedGrant } from './rbac-authorizer.test-support.js';

const NS = MANAGED_UPGRADE_OPERATOR_NAMESPACE;
const FEDRAMP = 'managed-pdb-blocked-drain (FedRAMP, PreHealthCheck, a pod held by a finalizer)';

/** `managed-pdb-blocked-drain` on a FedRAMP cluster with the File Integrity Operator's object, and the full pre-upgrade health check. */
function fedrampVariant(notificationUrl: string): ScenarioFile {
  const { file } = loadScenario('managed-pdb-blocked-drain');
  assert.ok(file.operator);
  return {
    ...file,
    operator: {
      config: `${file.operator.config}featureGate:\n  enabled: [PreHealthCheck]\nenvironment:\n  fedramp: true\n`,
    },
    manifests: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: FILE_INTEGRITY_NAMESPACE } },
      {
        apiVersion: 'fileintegrity.openshift.io/v1alpha1',
        kind: 'FileIntegrity',
        metadata: { name: OSD_FILE_INTEGRITY_NAME, namespace: FILE_INTEGRITY_NAMESPACE },
        spec: {},
      },
      ...(file.manifests ?? []),
      ...webhookNotificationManifests(NS, notificationUrl),
    ],
  };
}

/** A pod held by a finalizer, on a worker: its drain stalls until the NodeKeeper removes the finalizer (DEFAULT-FINALIZER). */
const HELD = { namespace: 'held', name: 'held-by-finalizer' };

/** Creates {@link HELD} on the first plain worker (the simulation places no bare pod itself). */
async function createHeldPod(env: SimEnvironment): Promise<void> {
  const nodes = (await env.client.list(NodeResource)).items;
  const worker = nodes.find(
    (n) =>
      n.metadata?.labels?.['node-role.kubernetes.io/worker'] !== undefined &&
      n.metadata.labels['node-role.kubernetes.io/master'] === undefined,
  );
  assert.ok(worker?.metadata?.name, 'a worker node');
  await env.client.create(NamespaceResource, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: HELD.namespace },
  });
  await env.client.create(PodResource, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...HELD, finalizers: ['example.com/hold'] },
    spec: { nodeName: worker.metadata.name, containers: [{ name: 'app', image: 'quay.io/example/app:1' }] },
  });
}

const requests: OperatorRequest[] = [];

before(async () => {
  const receiver = await startNotificationReceiver({ failFirst: 0 });
  try {
    await runAll(receiver.url('sre'));
  } finally {
    await receiver.close();
  }
  assert.ok(receiver.accepted('sre').length > 0, 'notifications were delivered');
});

async function runAll(notificationUrl: string): Promise<void> {
  const paths: Array<[string, ScenarioFile]> = [
    [FEDRAMP, fedrampVariant(notificationUrl)],
    ['ocm-policy-withdrawn', loadScenario('ocm-policy-withdrawn').file],
    ['ocm-agent-policy-upgrade', loadScenario('ocm-agent-policy-upgrade').file],
  ];
  for (const [name, file] of paths) {
    const env = await startSimEnvironment(environmentFor(file, 1));
    try {
      // Checked below, all runs together, so that a denied request is named with every run that made it.
      let setup: Promise<void> = Promise.resolve();
      const outcome = await runCheckedScenario(
        env,
        name,
        file,
        {
          seed: 1,
          beforeManifests: () => {
            if (name !== FEDRAMP) return;
            const busy = env.clock.activity.begin('rbac test: a pod held by a finalizer');
            setup = createHeldPod(env).finally(busy);
            // Handled when awaited below; this keeps a failure from being reported as unhandled meanwhile.
            setup.catch(() => undefined);
          },
        },
        { deferCheck: true, continueWith: () => setup },
      );
      try {
        assert.ok(outcome.ok, `${name}: ${outcome.summary}`);
        requests.push(...outcome.requests);
        // Leader election as `upgrade-operator run` does it: acquire (create), renew, release.
        if (name === FEDRAMP) requests.push(...(await exerciseLeaderElection(env, NS, LEADER_ELECTION_ID)));
      } finally {
        await outcome.run.close();
      }
    } finally {
      await env.close();
    }
  }
}

void test('the runs made the requests this test relies on', () => {
  assert.ok(requests.length > 300, `only ${requests.length} operator requests were seen`);
  const seen = (source: string, method: string, fragment: string): boolean =>
    requests.some((r) => r.source === source && r.method === method && r.path.split('?')[0]?.includes(fragment));
  assert.ok(seen(FEDRAMP, 'POST', '/namespaces/openshift-machine-api/machinesets'), 'a MachineSet clone was created');
  assert.ok(seen(FEDRAMP, 'DELETE', '/pods/'), 'a drain strategy deleted a pod');
  assert.ok(
    seen(FEDRAMP, 'PATCH', `/namespaces/${HELD.namespace}/pods/${HELD.name}`),
    'a drain strategy removed finalizers',
  );
  assert.ok(
    seen(FEDRAMP, 'PATCH', `/fileintegrities/${OSD_FILE_INTEGRITY_NAME}`),
    'the FileIntegrity was re-initialised',
  );
  assert.ok(
    seen(FEDRAMP, 'GET', '/services/deployment-validation-operator-metrics'),
    'the full health check looked for DVO',
  );
  assert.ok(seen(FEDRAMP, 'POST', '/namespaces/default/events'), 'an Event about a Node was written');
  const config = `/namespaces/${NS}/upgradeconfigs`;
  for (const source of ['ocm-policy-withdrawn', 'ocm-agent-policy-upgrade']) {
    assert.ok(seen(source, 'POST', config), `${source}: the policy sync created the UpgradeConfig`);
    assert.ok(
      seen(source, 'GET', '/namespaces/openshift-config/secrets/pull-secret'),
      `${source}: the OCM credential was read`,
    );
  }
  assert.ok(
    seen('ocm-policy-withdrawn', 'PUT', `${config}/managed-upgrade-config`),
    'the policy sync updated the UpgradeConfig',
  );
  assert.ok(
    seen('ocm-policy-withdrawn', 'DELETE', `${config}/managed-upgrade-config`),
    'the policy sync deleted the UpgradeConfig',
  );
  assert.ok(seen('leader election', 'PUT', `/leases/${LEADER_ELECTION_ID}`), 'the Lease was renewed or released');
  assert.ok(seen(FEDRAMP, 'POST', `/namespaces/${NS}/configmaps`), 'the notification state ConfigMap was created');
  assert.ok(seen(FEDRAMP, 'PATCH', `/configmaps/${NOTIFICATIONS_STATE_NAME}`), 'and recorded deliveries');
  assert.ok(seen(FEDRAMP, 'GET', `/secrets/${NOTIFICATIONS_CONFIG_NAME}`), "the receivers' URLs were read");
});

void test('every API request of the operator is allowed by the generated RBAC', () => {
  assert.deepEqual(deniedRequests(requests, managedGrants()), []);
});

/**
 * Verbs whose code paths no run reaches, each still needed: the drain re-reads a pod only after
 * its finalizer patch met a 409 Conflict (managed/drain/node-drainer.ts, tested there); the event
 * recorder patches an Event about a Node only when the same Event repeats within its aggregation
 * window (kube/event-recorder.ts, tested there), and no drain repeats one.
 */
const NOT_REACHED = ['get pods in (cluster)', 'patch events in default'];

void test('every verb of every rule is used by some request (least privilege)', () => {
  assert.deepEqual(
    unusedVerbs(requests, managedGrants()).filter((u) => !NOT_REACHED.includes(u)),
    [],
  );
});

/** `grants` with `verb` taken out of every rule on `resource`. */
function withoutVerb(grants: readonly ResolvedGrant[], resource: string, verb: string): ResolvedGrant[] {
  return grants.map((g) =>
    g.grant.rule.resources?.includes(resource)
      ? { ...g, grant: { ...g.grant, rule: { ...g.grant.rule, verbs: g.grant.rule.verbs.filter((v) => v !== verb) } } }
      : g,
  );
}

void test('planted defect: without `create` on upgradeconfigs, the check names the refused POST and the scenarios that made it', () => {
  const planted = withoutVerb(managedGrants(), 'upgradeconfigs', 'create');
  assert.deepEqual(deniedRequests(requests, planted), [
    `create upgrade.managed.openshift.io/upgradeconfigs in ${NS}  [POST /apis/upgrade.managed.openshift.io/v1alpha1/namespaces/${NS}/upgradeconfigs]  made by: ocm-policy-withdrawn, ocm-agent-policy-upgrade`,
  ]);
  // What a test running a scenario sees (runCheckedScenario fails the same way).
  assert.throws(
    () => assertRequestsAllowed(requests, planted),
    (err: Error) =>
      /denies 1 request\(s\)[\s\S]*create upgrade\.managed\.openshift\.io\/upgradeconfigs[\s\S]*made by: ocm-policy-withdrawn, ocm-agent-policy-upgrade/.test(
        err.message,
      ),
  );
});

void test('planted defect: an extra verb no request uses fails the least-privilege check', () => {
  const planted = managedGrants().map((g) =>
    g.grant.rule.resources?.includes('upgradeconfigs') && g.grant.rule.verbs.includes('create')
      ? { ...g, grant: { ...g.grant, rule: { ...g.grant.rule, verbs: [...g.grant.rule.verbs, 'deletecollection'] } } }
      : g,
  );
  assert.deepEqual(
    unusedVerbs(requests, planted).filter((u) => !NOT_REACHED.includes(u)),
    [`deletecollection upgradeconfigs in ${NS}`],
  );
});

void test('the FileIntegrity rule names the object the post-upgrade step patches', () => {
  assert.equal(OSD_FILE_INTEGRITY_OBJECT, OSD_FILE_INTEGRITY_NAME);
});
