/** The definition of `upgrade-operator run`; its action is src/cli/run.ts, loaded when it runs. */
import { Command, InvalidArgumentError, Option } from '../commander-package.js';
import type { RunFlags } from '../run.js';
import { parseNonNegativeDuration } from './flags.js';

/** MUO's lease name, so that the two never run side by side in one namespace. */
export const LEADER_ELECTION_ID = 'managed-upgrade-operator-lock';
/** The APPUiO controller's lease name (used when only the scheduled flow runs). */
export const SCHEDULED_LEADER_ELECTION_ID = '9fced507.appuio.io';

/** The flows `run` can serve. */
export const FLOWS = ['managed', 'scheduled'] as const;
export type Flow = (typeof FLOWS)[number];

/** `--flows`: a comma-separated subset of {@link FLOWS}. */
export function parseFlows(value: string): Flow[] {
  const flows = value
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const bad = flows.filter((f) => !(FLOWS as readonly string[]).includes(f));
  if (bad.length > 0 || flows.length === 0)
    throw new InvalidArgumentError(`must be managed, scheduled or managed,scheduled (got ${JSON.stringify(value)})`);
  return [...new Set(flows)] as Flow[];
}

function parseDuration(value: string): number {
  const ms = parseNonNegativeDuration(value);
  if (ms === 0) throw new InvalidArgumentError('must be positive');
  return ms;
}

/** The subcommand. */
export function runCommand(): Command {
  return new Command('run')
    .description(
      'Run the managed-upgrade operator (UpgradeConfig upgrade.managed.openshift.io/v1alpha1) against the cluster of the kubeconfig or of the pod.',
    )
    .addOption(
      new Option(
        '--flows <list>',
        'flows to run, comma-separated: managed (MUO UpgradeConfig), scheduled (APPUiO kinds)',
      )
        .argParser(parseFlows)
        .default(['managed'], 'managed'),
    )
    .option(
      '--namespace <ns>',
      'scheduled flow: namespace of UpgradeConfigs, UpgradeJobs, hooks and windows ("" for all; APPUiO\'s flag)',
      process.env['POD_NAMESPACE'] ?? 'default',
    )
    .option(
      '--managed-upstream-cluster-version-name <name>',
      'scheduled flow: the ClusterVersion to upgrade',
      'version',
    )
    .option(
      '--managed-cluster-version-name <name>',
      'scheduled flow: the managedupgrade.appuio.io ClusterVersion whose template and overlays are synced to it',
      'version',
    )
    .option(
      '--managed-cluster-version-namespace <ns>',
      'scheduled flow: its namespace (default: POD_NAMESPACE, else default)',
      process.env['POD_NAMESPACE'] ?? 'default',
    )
    .option(
      '--machine-namespace <ns>',
      'scheduled flow: the namespace of the Machines behind openshift_upgrade_controller_machine_info',
      'openshift-machine-api',
    )
    .addOption(
      new Option(
        '--node-drain-reconcile-interval <duration>',
        'scheduled flow: NodeForceDrain looks again at least this often while a node drains (Go duration; 0 disables the cap)',
      )
        .argParser(parseNonNegativeDuration)
        .default(180_000, '3m'),
    )
    .option('--kubeconfig <file>', 'kubeconfig file (default: KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option(
      '--prometheus-url <url>',
      'Prometheus (Thanos querier or prometheus-k8s) base URL',
      'https://prometheus-k8s.openshift-monitoring.svc:9091',
    )
    .option(
      '--alertmanager-url <url>',
      'Alertmanager base URL',
      'https://alertmanager-main.openshift-monitoring.svc:9094',
    )
    .option(
      '--monitoring-token-file <file>',
      'bearer token for Prometheus and Alertmanager (default in a pod: its service-account token)',
    )
    .option(
      '--monitoring-ca-file <file>',
      'CA bundle (PEM) for Prometheus and Alertmanager, added to the system roots (default in a pod: service-ca.crt)',
    )
    .option(
      '--metrics-bind-address <addr>',
      "where the operator metrics are served (/metrics): the flows' families, controller-runtime's and the process's",
      ':8383',
    )
    .option('--collector-bind-address <addr>', 'where the managed_upgrade_* collector is served (/metrics)', ':8089')
    .option('--health-probe-bind-address <addr>', 'where /healthz and /readyz are served', ':8081')
    .option('--no-leader-elect', 'run without leader election (one replica only)')
    .addOption(
      new Option('--leader-election-id <name>', 'name of the Lease').default(
        undefined,
        `${LEADER_ELECTION_ID} with the managed flow, else ${SCHEDULED_LEADER_ELECTION_ID}`,
      ),
    )
    .addOption(
      new Option('--leader-elect-lease-duration <duration>', 'Lease duration (Go duration)')
        .argParser(parseDuration)
        .default(15_000, '15s'),
    )
    .addOption(
      new Option('--leader-elect-renew-deadline <duration>', 'how long the leader retries renewing before giving up')
        .argParser(parseDuration)
        .default(10_000, '10s'),
    )
    .addOption(
      new Option('--leader-elect-retry-period <duration>', 'time between attempts to acquire or renew')
        .argParser(parseDuration)
        .default(2_000, '2s'),
    )
    .option(
      '--rehearsal <file>',
      'rehearse against a simulated cluster: the file `simulate --operator external --rehearsal-out` wrote (its kubeconfig, monitoring URLs, flows, namespace and scaled clock; the servers on 127.0.0.1, any free port; flags given here win)',
    )
    .option('--log-level <level>', 'log level (debug, info, warn, error)', process.env['LOG_LEVEL'] ?? 'info')
    .action(async (runFlags: RunFlags, command: Command) => (await import('../run.js')).runAction(runFlags, command));
}
