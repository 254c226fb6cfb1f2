/**
 * Writes the upgrade picture of a simulate report to a file: `simulate --html` and `report --html`.
 * The file appears whole or not at all (written beside, then renamed).
 */
import { rename, writeFile } from 'node:fs/promises';
import { upgradePage } from './timeline-page.js';
import { readUpgradeReport } from './upgrade-report.js';

/** Draws `report` (a parsed `simulate -o json` report) into `file`; throws with the problem of a report it cannot draw. */
export async function writeUpgradePage(report: unknown, file: string): Promise<void> {
  const read = readUpgradeReport(report);
  if (!read.ok) throw new Error(read.problem);
  const partial = `${file}.partial`;
  await writeFile(partial, upgradePage(read.report));
  await rename(partial, file);
}
