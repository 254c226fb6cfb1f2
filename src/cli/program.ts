/**
 * The command line: one executable, `upgrade-operator`, with subcommands
 * (docs/design/command-line.md). This is the composition root: the only place that wires the parts
 * together.
 */
import { Command, CommanderError } from 'commander';
import { apiserverCommand } from './commands/apiserver.js';
import { hookEnvCommand } from './commands/hook-env.js';
import { manifestsCommand } from './commands/manifests.js';
import { previewCommand } from './commands/preview.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { simulateCommand } from './commands/simulate.js';
import { mustGatherCommand } from './commands/must-gather.js';
import { statusCommand } from './commands/status.js';
import { validateCommand } from './commands/validate.js';
import { snapshotCommand } from './commands/snapshot.js';
import { version } from './version.js';

/** Builds the command tree. */
export function buildProgram(): Command {
  const program = new Command('upgrade-operator')
    .description(
      'Upgrades OpenShift 4 clusters inside maintenance windows, gated on cluster health, step by step and restart-safe.',
    )
    .version(version(), '--version')
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(runCommand());
  program.addCommand(apiserverCommand());
  program.addCommand(manifestsCommand());
  program.addCommand(simulateCommand());
  program.addCommand(reportCommand());
  program.addCommand(previewCommand());
  program.addCommand(hookEnvCommand());
  program.addCommand(statusCommand());
  program.addCommand(mustGatherCommand());
  program.addCommand(validateCommand());
  program.addCommand(snapshotCommand());
  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    process.stderr.write(`upgrade-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
