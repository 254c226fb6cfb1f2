/** The definition of `upgrade-operator preview`; its action is src/cli/preview.ts, loaded when it runs. */
import { Command, InvalidArgumentError, Option } from '../commander-package.js';
import type { PreviewFlags } from '../preview.js';
import { parseTimeFlag } from './flags.js';

/** `--count`: a whole number from 1 to 1000. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 1000)
    throw new InvalidArgumentError('must be a whole number from 1 to 1000');
  return n;
}

/** The subcommand. */
export function previewCommand(): Command {
  return new Command('preview')
    .description(
      'Show the next maintenance windows of a schedule or of UpgradeConfigs: UTC and local time (DST), ISO week, job creation time and suspension windows; a MUO UpgradeConfig’s upgrade and failure window. -o ics writes them as an iCalendar file.',
    )
    .option('--cron <expr>', 'cron expression (robfig/cron v3: 5 fields, descriptors, CRON_TZ= prefix)')
    .option('--iso-week <week>', 'ISO week filter: @odd, @even or a week number')
    .option(
      '--location <zone>',
      'time zone of the schedule: a tz database name, UTC, or Local (this machine’s zone; the default)',
    )
    .option(
      '-f, --filename <file>',
      'YAML file with UpgradeConfig(s): APPUiO (managedupgrade.appuio.io/v1beta1) or MUO (upgrade.managed.openshift.io/v1alpha1)',
    )
    .option(
      '--suspension-windows <file>',
      'with -f: YAML file with UpgradeSuspensionWindows to mark the windows they suspend (with -o ics: events of their own)',
    )
    .option(
      '--operator-config <file>',
      'with -f: YAML file with the ConfigMap managed-upgrade-operator-config, for upgradeWindow.timeOut (default 120 minutes)',
    )
    .option('--from <time>', 'windows after this RFC 3339 time (default: now)', parseTimeFlag)
    .option('--count <n>', 'how many windows', parseCount, 10)
    .addOption(
      new Option('-o, --output <format>', 'a table, a JSON list of windows, or an iCalendar file (RFC 5545)')
        .choices(['table', 'json', 'ics'])
        .default('table'),
    )
    .action(async (flags: PreviewFlags) => (await import('../preview.js')).previewAction(flags));
}
