/** `upgrade-operator apiserver`: the embedded Kubernetes API server on its own, for kubectl. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { startApiServer } from '../apiserver/server.js';
import { RealClock } from '../lib/clock.js';
import { createLogger } from '../lib/log.js';

/** Parses a TCP port (0 = any free port). */
export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return n;
}

/** The subcommand. */
export function apiserverCommand(): Command {
  return new Command('apiserver')
    .description('Run the embedded Kubernetes API server on loopback and write a kubeconfig for kubectl.')
    .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', parsePort, 0)
    .option('--kubeconfig-out <file>', 'write a kubeconfig for kubectl and client libraries to this file')
    .option('--data <file>', 'load state from this file at start and save it there, so a run can stop and resume')
    .addOption(
      new Option(
        '--pod-termination <mode>',
        'how terminating pods go away: expire after their grace period, or wait for a kubelet',
      )
        .choices(['expire', 'kubelet'])
        .default('expire'),
    )
    .option('--log-level <level>', 'log level (debug, info, warn, error)', 'info')
    .action(
      async (opts: {
        port: number;
        kubeconfigOut?: string;
        data?: string;
        podTermination: 'expire' | 'kubelet';
        logLevel: string;
      }) => {
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
      },
    );
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
