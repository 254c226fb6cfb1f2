/** The definition of `upgrade-operator report`; its action is src/cli/report.ts, loaded when it runs. */
import { Command } from '../commander-package.js';

/** The subcommand. */
export function reportCommand(): Command {
  return new Command('report')
    .description('Draw a saved `simulate -o json` report as one self-contained HTML page: the upgrade as a timeline.')
    .argument('<report.json>', 'a report written by `upgrade-operator simulate -o json`')
    .requiredOption('--html <file>', 'write the page to this file')
    .action(async (path: string, opts: { html: string }) => (await import('../report.js')).reportAction(path, opts));
}
