/**
 * An API server of its own for tests of `simulate --kubeconfig` (a cluster the simulation does not
 * start): on the wall clock, terminating pods wait for a kubelet, its kubeconfig written in `dir`,
 * and an administrator's client.
 */
import { join } from 'node:path';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import { KubeClient } from '../../kube/client.js';
import { RealClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';

export interface ExternalServer {
  server: ApiServer;
  kubeconfig: string;
  admin: KubeClient;
}

/** Starts the server; `fieldManager` names the administrator's writes (client default otherwise). */
export async function startExternalServer(
  dir: string,
  name: string,
  options: { fieldManager?: string } = {},
): Promise<ExternalServer> {
  const server = await startApiServer({ port: 0, clock: new RealClock(), podTermination: 'kubelet' });
  const kubeconfig = join(dir, `${name}.kubeconfig`);
  await server.writeKubeconfig(kubeconfig);
  const admin = new KubeClient({
    config: {
      server: server.url,
      insecureSkipTLSVerify: false,
      auth: () => Promise.resolve(undefined),
      namespace: 'default',
    },
    clock: new RealClock(),
    logger: silentLogger(),
    ...(options.fieldManager === undefined ? {} : { fieldManager: options.fieldManager }),
  });
  return { server, kubeconfig, admin };
}
