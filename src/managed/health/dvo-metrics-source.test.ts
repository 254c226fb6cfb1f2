import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NamespaceResource, ServiceResource } from '../../api/builtin.js';
import { startApiServer } from '../../apiserver/server.js';
import { HttpClient } from '../../integrations/http/http-client.js';
import { NO_PROXY_CONFIG } from '../../integrations/http/proxy-env.js';
import { KubeClient } from '../../kube/client.js';
import { RealClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { checkDeploymentValidation, DVO_METRICS_SERVICE, DVO_NAMESPACE } from './deployment-validation.js';
import { dvoMetricsFromService, dvoMetricsUrl } from './dvo-metrics-source.js';

void test('DVO is found through its metrics Service on every check: absent → skipped, present → read, unreachable → failed', async (t) => {
  const clock = new RealClock();
  const logger = silentLogger();
  const server = await startApiServer({ port: 0, clock, logger });
  t.after(() => server.close());
  const client = new KubeClient({
    config: {
      server: server.url,
      insecureSkipTLSVerify: false,
      auth: () => Promise.resolve(undefined),
      namespace: 'default',
    },
    clock,
    logger,
  });
  t.after(() => client.close());
  let body =
    '# TYPE deployment_validation_operator_pdb_min_available gauge\ndeployment_validation_operator_pdb_min_available{namespace_name="shop",name="checkout",kind="PodDisruptionBudget"} 1\n';
  const dvo = createServer((req, res) => {
    res.writeHead(req.url === '/metrics' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((r) => dvo.listen(0, '127.0.0.1', r));
  t.after(() => dvo.close());
  const local = `http://127.0.0.1:${(dvo.address() as AddressInfo).port}/metrics`;
  const http = new HttpClient({ api: 'dvo', clock, proxy: NO_PROXY_CONFIG });
  t.after(() => http.close());
  let url = local;
  const source = dvoMetricsFromService({ client, http, urlOf: () => url });
  assert.ok(source !== 'not-installed');

  assert.equal(
    await checkDeploymentValidation(source),
    undefined,
    'no Service: DVO is not installed, nothing to check',
  );

  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: DVO_NAMESPACE } });
  const svc = await client.create(ServiceResource, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: DVO_METRICS_SERVICE, namespace: DVO_NAMESPACE },
    spec: { ports: [{ name: 'http-metrics', port: 8383 }], selector: { app: 'dvo' } },
  });
  assert.equal(
    dvoMetricsUrl(svc),
    'http://deployment-validation-operator-metrics.openshift-deployment-validation-operator.svc:8383/metrics',
  );
  const flagged = await checkDeploymentValidation(source);
  assert.ok(flagged && !flagged.healthy);
  assert.match(flagged.failure.message, /shop/);

  body = '';
  assert.equal((await checkDeploymentValidation(source))?.healthy, true);

  url = 'http://127.0.0.1:9/metrics';
  const down = await checkDeploymentValidation(source);
  assert.ok(down && !down.healthy && down.failure.metricReason === 'dvo_metrics_query_failed');
});
