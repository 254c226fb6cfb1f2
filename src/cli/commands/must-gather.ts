/** The definition of `upgrade-operator must-gather`; its action is src/cli/must-gather.ts, loaded when it runs. */
import { Command } from '../commander-package.js';
import { APPUIO_CONTROLLER_NAMESPACE } from '../../api/managedupgrade.appuio.io/v1beta1/group.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { MustGatherFlags } from '../must-gather.js';
import { collect } from './flags.js';

/** Where `oc adm must-gather` collects what the gather script writes. */
export const IN_POD_DEST_DIR = '/must-gather';

/** The subcommand. */
export function mustGatherCommand(): Command {
  return new Command('must-gather')
    .description(
      'Collect, reading only, what a support case about an upgrade needs (docs/must-gather.md): ClusterVersion, ClusterOperators, MachineConfigPools, Nodes, MachineSets, PDBs, both flows’ objects, Events, the operator’s ConfigMap (redacted), its pods’ logs, a metrics snapshot and `status -o json`, in OpenShift must-gather’s layout. Never reads Secrets.',
    )
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--context <name>', 'a context other than the kubeconfig’s current-context')
    .option(
      '--dest-dir <dir>',
      `where to write (default: ${IN_POD_DEST_DIR} in a pod, else ./must-gather.local.<timestamp>)`,
    )
    .option(
      '--namespace <ns>',
      `an operator namespace (repeatable; default: ${MANAGED_UPGRADE_OPERATOR_NAMESPACE} and ${APPUIO_CONTROLLER_NAMESPACE})`,
      collect,
    )
    .option(
      '--metrics-url <url>',
      'take the metrics snapshot from this URL (default: each operator pod’s metrics port, through the API server’s pods/proxy outside a cluster)',
    )
    .action(async (flags: MustGatherFlags) => (await import('../must-gather.js')).mustGatherAction(flags));
}
