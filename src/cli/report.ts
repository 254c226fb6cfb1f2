/**
 * `upgrade-operator report --html FILE REPORT.json`: the picture of a saved `simulate -o json`
 * report, one self-contained HTML page (docs/simulation.md#the-picture---html). The renderer is
 * loaded only when the command runs.
 */
import { Command } from 'commander';
import { readFile } from 'node:fs/promises';

/** The subcommand. */
export function reportCommand(): Command {
  return new Command('report')
    .description('Draw a saved `simulate -o json` report as one self-contained HTML page: the upgrade as a timeline.')
    .argument('<report.json>', 'a report written by `upgrade-operator simulate -o json`')
    .requiredOption('--html <file>', 'write the page to this file')
    .action(async (path: string, opts: { html: string }) => {
      await drawReport(path, opts.html);
      process.stdout.write(`Timeline of ${path} written to ${opts.html}.\n`);
    });
}

/** Reads the report at `path` and writes its page to `html`; throws one line naming the file and the problem. */
export async function drawReport(path: string, html: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const { writeUpgradePage } = await import('./upgrade-picture/write-page.js');
  try {
    await writeUpgradePage(value, html);
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`, { cause: err });
  }
}
