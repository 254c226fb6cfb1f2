/**
 * Test support for the OCM provider, notifier and UpgradeConfigManager: the embedded API server
 * (ClusterVersion with the cluster id, the pull-secret, MUO's UpgradeConfig CRD) and the
 * simulated OCM on one virtual clock, with {@link PolicySources} reading the real pull-secret.
 */
import type { TestContext } from 'node:test';
import { NamespaceResource, SecretResource } from '../../api/builtin.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { managedUpgradeConfigCrd } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { parseManagedOperatorConfig, type ManagedOperatorConfig } from '../config/managed-operator-config.js';
import { NO_PROXY_CONFIG, type ProxyConfig } from '../../integrations/http/proxy-env.js';
import { EXTERNAL_ID, OCM_TOKEN, startOcmFixture, type OcmFixture } from '../../integrations/ocm-sim.test-support.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { silentLogger, type Logger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { startTestCluster, type TestCluster } from '../../sim/test-support/cluster.test-support.js';
import { PolicySources } from './policy-sources.js';

/** The namespace of the UpgradeConfig in these tests. */
export const NAMESPACE = 'openshift-managed-upgrade-operator';

/** The fixture. */
export interface OcmClusterFixture {
  cluster: TestCluster;
  fx: OcmFixture;
  sources: PolicySources;
  events: EventRecorder;
  /** The configuration now (change it with {@link OcmClusterFixture.configure}). */
  config: () => ManagedOperatorConfig;
  /** Replaces the operator ConfigMap's `config.yaml`. */
  configure: (yaml: string) => void;
  /** `config.yaml` for source OCM at the simulated OCM (extra lines appended). */
  ocmYaml: (extra?: string) => string;
}

/** Starts everything; torn down after the test. */
export async function startOcmCluster(
  t: TestContext,
  options: { proxy?: ProxyConfig; logger?: Logger } = {},
): Promise<OcmClusterFixture> {
  const cluster = await startTestCluster(t, { start: Date.UTC(2026, 2, 2, 8) });
  const { client, clock } = cluster;
  await installCustomResourceDefinitions(client, [managedUpgradeConfigCrd()]);
  for (const name of [NAMESPACE, 'openshift-config'])
    await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: EXTERNAL_ID, channel: 'stable-4.14' },
  });
  const dockerconfig = {
    auths: { 'cloud.openshift.com': { auth: OCM_TOKEN, email: 'sre@example.com' }, 'quay.io': { auth: 'other' } },
  };
  await client.create(SecretResource, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'pull-secret', namespace: 'openshift-config' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify(dockerconfig)).toString('base64') },
  });
  const fx = await startOcmFixture(t, clock, clock.activity);
  const ocmYaml = (extra = ''): string =>
    `upgradeType: OSD\nconfigManager:\n  source: OCM\n  ocmBaseUrl: ${fx.url}\n  watchInterval: 10\n${extra}`;
  let config = parseManagedOperatorConfig(ocmYaml()).config;
  const logger = options.logger ?? silentLogger();
  const sources = new PolicySources({
    client,
    clock,
    random: new SeededRandom(11),
    logger,
    config: () => config,
    transport: { activity: clock.activity, proxy: options.proxy ?? NO_PROXY_CONFIG },
  });
  t.after(() => sources.close());
  const events = new EventRecorder({ client, clock, logger, activity: clock.activity, component: 'upgrade-operator' });
  return {
    cluster,
    fx,
    sources,
    events,
    config: () => config,
    configure: (yaml) => {
      config = parseManagedOperatorConfig(yaml).config;
    },
    ocmYaml,
  };
}
