/** `upgrade-operator manifests`: writes the install manifests (today: the CRDs) to a folder. */
import { Command } from 'commander';
import { writeCrdFiles } from '../api/manifests.js';

/** The subcommand. */
export function manifestsCommand(): Command {
  return new Command('manifests')
    .description('Write the install manifests (CustomResourceDefinitions) to a folder.')
    .option('--out <dir>', 'output folder; CRDs go to <dir>/crds', 'deploy')
    .action(async (opts: { out: string }) => {
      const files = await writeCrdFiles(`${opts.out}/crds`);
      for (const f of files) process.stdout.write(`${f}\n`);
    });
}
