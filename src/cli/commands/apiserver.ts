/** The definition of `upgrade-operator apiserver`; its action is src/cli/apiserver.ts, loaded when it runs. */
import { Command, InvalidArgumentError, Option } from '../commander-package.js';
import type { ApiserverFlags } from '../apiserver.js';

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
    .action(async (opts: ApiserverFlags) => (await import('../apiserver.js')).apiserverAction(opts));
}
