/** The definition of `upgrade-operator validate`; its action is src/cli/validate.ts, loaded when it runs. */
import { Command, CommanderError, InvalidArgumentError, Option } from '../commander-package.js';
import { loadZone } from '../../time/zone.js';
import type { ValidateFlags } from '../validate.js';
import { collect } from './flags.js';

/** `--local-zone`: a tz database name (or UTC). */
export function parseLocalZone(value: string): string {
  const z = loadZone(value, value);
  if (!z.ok || value === 'Local') throw new InvalidArgumentError(z.ok ? 'must name a zone, not Local' : z.error);
  return z.zone.id;
}

/** The subcommand. Usage errors exit with 2, invalid objects or unreadable inputs with 1. */
export function validateCommand(): Command {
  return new Command('validate')
    .description(
      'Check UpgradeConfigs, UpgradeJobs, UpgradeJobHooks, UpgradeSuspensionWindows, ClusterVersions, NodeForceDrains and the operator ConfigMap offline, with the API server’s schema and the operator’s own rules.',
    )
    .requiredOption(
      '-f, --filename <file>',
      'a YAML or JSON file, a directory of them, or - for stdin (repeatable)',
      collect,
    )
    .option('-R, --recursive', 'with a directory: its subdirectories too')
    .option(
      '--cluster-version <file>',
      'the cluster’s ClusterVersion (oc get clusterversion version -o yaml), for the checks that need it',
    )
    .option(
      '--local-zone <zone>',
      'what a schedule’s Local location means (default: this machine’s zone)',
      parseLocalZone,
    )
    .addOption(
      new Option('-o, --output <format>', 'text, or JSON for programs').choices(['text', 'json']).default('text'),
    )
    .exitOverride((err) => {
      throw err.exitCode === 0 ? err : new CommanderError(2, err.code, err.message);
    })
    .action(async (flags: ValidateFlags) => (await import('../validate.js')).validateAction(flags));
}
