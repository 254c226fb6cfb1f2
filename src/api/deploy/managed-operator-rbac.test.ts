/**
 * The shipped RBAC against the requests the operator really makes: a managed upgrade in the
 * simulated cluster that exercises every API write the code has (capacity reservation, the
 * PDB-blocked drain strategies, the FedRAMP FileIntegrity re-init, Events on the UpgradeConfig
 * and on Nodes), then leader election through a Manager. Every request of the operator must be
 * allowed by the generated rules (the real RBAC semantics, including Role namespaces and
 * resourceNames), and every verb of every rule must have been used (least privilege).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FILE_INTEGRITY_NAMESPACE } from '../openshift/fileintegrity-v1alpha1/file-integrity.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { LEADER_ELECTION_ID } from '../../cli/run.js';
import { loadScenario } from '../../cli/scenarios/catalog.js';
import { runScenarioFile, type ScenarioRun } from '../../cli/scenarios/scenario-runner.js';
import { startSimEnvironment, type SimEnvironment } from '../../cli/scenarios/sim-environment.js';
import { OSD_FILE_INTEGRITY_NAME } from '../../managed/steps/post-upgrade-step.js';
import { permissionsByNamespace } from './managed-operator-manifests.js';
import { OSD_FILE_INTEGRITY_OBJECT } from './managed-operator-rbac.js';
import { deniedRequests, exerciseLeaderElection, recordOperatorRequests, unusedVerbs, type RequestRecorder } from './operator-requests.test-support.js';
import type { ResolvedGrant } from './rbac-authorizer.test-support.js';

const OPTIONS = { version: '0.0.0-test', leaseName: LEADER_ELECTION_ID };

let recorder: RequestRecorder;
let env: SimEnvironment;
let run: ScenarioRun | undefined;

before(async () => {
  recorder = recordOperatorRequests();
  env = await startSimEnvironment({ seed: 1 });
  const { file } = loadScenario('managed-pdb-blocked-drain');
  assert.ok(file.operator);
  run = await runScenarioFile(
    env,
    {
      ...file,
      operator: { config: `${file.operator.config}environment:\n  fedramp: true\n` },
      manifests: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: FILE_INTEGRITY_NAMESPACE } },
        { apiVersion: 'fileintegrity.openshift.io/v1alpha1', kind: 'FileIntegrity', metadata: { name: OSD_FILE_INTEGRITY_NAME, namespace: FILE_INTEGRITY_NAMESPACE }, spec: {} },
        ...(file.manifests ?? []),
      ],
    },
    { seed: 1, onOperatorRequest: recorder.onOperatorRequest },
  );
  assert.equal(run.progress().phase, 'Upgraded', 'the rehearsal should complete, so that every step ran');

  // Leader election as `upgrade-operator run` does it: acquire (create), renew, release.
  await exerciseLeaderElection(env, recorder, MANAGED_UPGRADE_OPERATOR_NAMESPACE, LEADER_ELECTION_ID);
});

after(async () => {
  recorder.restore();
  await run?.close();
  await env.close();
});

function resolvedGrants(): ResolvedGrant[] {
  return [...permissionsByNamespace(OPTIONS)].flatMap(([namespace, grants]) => grants.map((grant) => ({ namespace, grant })));
}

void test('the rehearsal made the requests this test relies on', () => {
  assert.ok(recorder.requests.length > 100, `only ${recorder.requests.length} operator requests were seen`);
  const seen = (method: string, fragment: string): boolean => recorder.requests.some((r) => r.method === method && r.path.includes(fragment));
  assert.ok(seen('POST', '/namespaces/openshift-machine-api/machinesets'), 'a MachineSet clone was created');
  assert.ok(seen('DELETE', '/pods/'), 'a drain strategy deleted a pod');
  assert.ok(seen('PATCH', `/fileintegrities/${OSD_FILE_INTEGRITY_NAME}`), 'the FileIntegrity was re-initialised');
  assert.ok(seen('POST', '/namespaces/default/events'), 'an Event about a Node was written');
  assert.ok(seen('PUT', `/leases/${LEADER_ELECTION_ID}`), 'the Lease was renewed or released');
});

void test('every API request of the operator is allowed by the generated RBAC', () => {
  assert.deepEqual(deniedRequests(recorder.requests, resolvedGrants()), []);
});

/**
 * Verbs whose code paths this rehearsal does not reach, each still needed: the drain re-reads a
 * pod only after a 409 Conflict and removes finalizers only from pods stuck terminating with
 * finalizers (managed/drain/node-drainer.ts); the event recorder patches an Event only when the
 * same Event repeats within its aggregation window (kube/event-recorder.ts); the DVO metrics
 * Service is looked up only by the full pre-upgrade health check of the `PreHealthCheck`
 * feature gate (managed/health/dvo-metrics-source.ts, tested there); the pull-secret is read only with
 * `configManager.source: OCM` (managed/providers/ocm-credentials.ts; this rehearsal uses LOCAL).
 */
const NOT_REACHED = ['get pods in (cluster)', 'patch pods in (cluster)', 'patch events in default', 'get services in (cluster)', 'get secrets in openshift-config'];

void test('every verb of every rule is used by some request (least privilege)', () => {
  assert.deepEqual(unusedVerbs(recorder.requests, resolvedGrants()).filter((u) => !NOT_REACHED.includes(u)), []);
});

void test('the FileIntegrity rule names the object the post-upgrade step patches', () => {
  assert.equal(OSD_FILE_INTEGRITY_OBJECT, OSD_FILE_INTEGRITY_NAME);
});
