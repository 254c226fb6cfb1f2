import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDeploymentValidation, evaluateDvoMetrics } from './deployment-validation.js';

const DVO_TEXT = [
  '# HELP deployment_validation_operator_pdb_min_available Indicates when a PodDisruptionBudget has a minAvailable value that will always prevent disruptions',
  '# TYPE deployment_validation_operator_pdb_min_available gauge',
  'deployment_validation_operator_pdb_min_available{kind="PodDisruptionBudget",name="web",namespace_name="shop",uid="1"} 1',
  'deployment_validation_operator_pdb_min_available{kind="PodDisruptionBudget",name="fine",namespace_name="shop",uid="2"} 0',
  '# TYPE deployment_validation_operator_pdb_max_unavailable gauge',
  'deployment_validation_operator_pdb_max_unavailable{kind="PodDisruptionBudget",name="db",namespace="bank",uid="3"} 1',
  'deployment_validation_operator_pdb_max_unavailable{kind="PodDisruptionBudget",name="web",namespace_name="shop",uid="1"} 1',
  '# TYPE deployment_validation_operator_run_as_non_root gauge',
  'deployment_validation_operator_run_as_non_root{kind="Deployment",name="web",namespace_name="shop"} 1',
  '',
].join('\n');

test('evaluateDvoMetrics: non-zero PDB series fail, naming every object once (the MUO byte-search bug is fixed)', () => {
  const r = evaluateDvoMetrics(DVO_TEXT);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'deployment-validation',
    metricReason: 'cluster_invalid_pdb',
    muoText: 'PDBHealthcheckFailed: [{"Name":"db","Namespace":"bank"},{"Name":"web","Namespace":"shop"}]',
    message:
      'deployment validation operator reports PodDisruptionBudgets that block drains: bank/db (pdb-max-unavailable), shop/web (pdb-max-unavailable, pdb-min-available)',
    blocking: false,
  });
});

test("evaluateDvoMetrics: MUO's spelling pdb_max_available is matched too; zero values and other checks pass", () => {
  const muo = evaluateDvoMetrics('deployment_validation_operator_pdb_max_available{name="x",namespace_name="y"} 1\n');
  assert.ok(!muo.healthy);
  assert.equal(muo.failure.muoText, 'PDBHealthcheckFailed: [{"Name":"x","Namespace":"y"}]');
  assert.deepEqual(evaluateDvoMetrics(''), { check: 'deployment-validation', healthy: true });
  assert.deepEqual(
    evaluateDvoMetrics(
      DVO_TEXT.split('\n')
        .filter((l) => !/ 1$/.test(l) || l.includes('run_as_non_root'))
        .join('\n'),
    ),
    {
      check: 'deployment-validation',
      healthy: true,
    },
  );
});

test('evaluateDvoMetrics: an unparsable answer fails closed', () => {
  const r = evaluateDvoMetrics('<html>502 Bad Gateway</html>');
  assert.ok(!r.healthy);
  assert.equal(r.failure.metricReason, 'dvo_metrics_query_failed');
  assert.equal(r.failure.muoText, 'PDBHealthcheckFailed');
  assert.match(r.failure.message, /^unparsable deployment validation operator metrics: line 1: expected metric name/);
});

test('checkDeploymentValidation: fetch errors fail with dvo_metrics_query_failed; the signal is passed; abort rejects', async () => {
  const signal = new AbortController().signal;
  let seen: AbortSignal | undefined;
  const ok = await checkDeploymentValidation(
    (s) => {
      seen = s;
      return Promise.resolve(DVO_TEXT);
    },
    { signal },
  );
  assert.equal(seen, signal);
  assert.equal(ok?.healthy, false);

  assert.equal(
    await checkDeploymentValidation(() => Promise.resolve(undefined)),
    undefined,
    'DVO not installed: no result, the check is skipped',
  );

  const down = await checkDeploymentValidation(() => Promise.reject(new Error('dvo: connection refused')));
  assert.ok(down && !down.healthy);
  assert.deepEqual(
    [down.failure.metricReason, down.failure.message],
    ['dvo_metrics_query_failed', 'unable to read deployment validation operator metrics: dvo: connection refused'],
  );

  const ac = new AbortController();
  ac.abort();
  await assert.rejects(
    checkDeploymentValidation(() => Promise.reject(new Error('aborted')), { signal: ac.signal }),
    /aborted/,
  );
});
