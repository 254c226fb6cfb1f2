/** The definition of `upgrade-operator hook-env`; its action is src/cli/hook-env.ts, loaded when it runs. */
import { Command, InvalidArgumentError, Option } from '../commander-package.js';
import {
  UPGRADE_EVENTS,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import type { HookEnvFlags } from '../hook-env.js';
import { collect, parseTimeFlag } from './flags.js';

function parseEvent(value: string): UpgradeEvent {
  const event = UPGRADE_EVENTS.find((e) => e === value);
  if (event === undefined) throw new InvalidArgumentError(`must be one of ${UPGRADE_EVENTS.join(', ')}`);
  return event;
}

/** The subcommand. */
export function hookEnvCommand(): Command {
  return new Command('hook-env')
    .description(
      'Print the exact environment a hook Job would get for an UpgradeJob and an event (EVENT, JOB, META and their flattened variables).',
    )
    .requiredOption(
      '--job <file>',
      'YAML file with the UpgradeJob (managedupgrade.appuio.io/v1beta1), e.g. from kubectl get -o yaml',
    )
    .requiredOption('--event <name>', `the event: ${UPGRADE_EVENTS.join(', ')}`, parseEvent)
    .option(
      '--hook <file>',
      'YAML file with UpgradeJobHook(s); they decide META.matchesDisruptiveHooks (repeatable)',
      collect,
    )
    .option('--reason <text>', 'EVENT.reason (default: what the controller passes for the event and the job)')
    .option('--pool <name>', 'MachineConfigPoolUnpause: the pool (EVENT.pool)')
    .option('--time <time>', 'EVENT.time, RFC 3339 (default: now)', parseTimeFlag)
    .addOption(
      new Option('-o, --output <format>', 'shell-safe dotenv lines, or a JSON object')
        .choices(['dotenv', 'json'])
        .default('dotenv'),
    )
    .action(async (flags: HookEnvFlags) => (await import('../hook-env.js')).hookEnvAction(flags));
}
