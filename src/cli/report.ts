/**
 * The action of `upgrade-operator report --html FILE REPORT.json`: the picture of a saved
 * `simulate -o json` report, one self-contained HTML page (docs/simulation.md#the-picture---html).
 */
import { readFile } from 'node:fs/promises';

/** The action of `report` (src/cli/commands/report.ts defines its flags). */
export async function reportAction(path: string, opts: { html: string }): Promise<void> {
  await drawReport(path, opts.html);
  process.stdout.write(`Timeline of ${path} written to ${opts.html}.\n`);
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
