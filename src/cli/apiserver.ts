/** `upgrade-operator apiserver`: the embedded Kubernetes API server on its own, for kubectl. */
import { pino } from 'pino';
import { startApiServer } from '../apiserver/server.js';
import { RealClock } from '../lib/clock.js';
import { createLogger } from '../lib/log.js';

/** The flags of `apiserver`. */
export interface ApiserverFlags {
  port: number;
  kubeconfigOut?: string;
  data?: string;
  podTermination: 'expire' | 'kubelet';
  logLevel: string;
}

/** The action of `apiserver` (src/cli/commands/apiserver.ts defines its flags). */
export async function apiserverAction(opts: ApiserverFlags): Promise<void> {
  const logger = createLogger({ level: opts.logLevel, destination: pino.destination({ fd: 2, sync: true }) });
  const server = await startApiServer({
    port: opts.port,
    clock: new RealClock(),
    logger,
    podTermination: opts.podTermination,
    ...(opts.data ? { dataFile: opts.data } : {}),
  });
  if (opts.kubeconfigOut) await server.writeKubeconfig(opts.kubeconfigOut);
  process.stdout.write(`API server listening on ${server.url}\n`);
  if (opts.kubeconfigOut)
    process.stdout.write(
      `kubeconfig written to ${opts.kubeconfigOut}; try: kubectl --kubeconfig ${opts.kubeconfigOut} api-resources\n`,
    );
  await waitForSignal();
  process.stdout.write('shutting down\n');
  await server.close();
}

/** Resolves on the first SIGINT or SIGTERM. */
function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
