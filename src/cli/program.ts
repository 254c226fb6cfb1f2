/**
 * The command line: one executable, `upgrade-operator`, with subcommands
 * (docs/design/command-line.md). This is the composition root: the only place that wires the parts
 * together.
 */
import { Command, CommanderError } from './commander-package.js';
import { version } from './version.js';

/**
 * Every subcommand by name, in the order `--help` lists them, with its definition
 * (`src/cli/commands/`), imported when the command tree needs it.
 */
export const COMMANDS: ReadonlyArray<{ readonly name: string; definition(): Promise<Command> }> = [
  { name: 'run', definition: async () => (await import('./commands/run.js')).runCommand() },
  { name: 'apiserver', definition: async () => (await import('./commands/apiserver.js')).apiserverCommand() },
  { name: 'manifests', definition: async () => (await import('./commands/manifests.js')).manifestsCommand() },
  { name: 'simulate', definition: async () => (await import('./commands/simulate.js')).simulateCommand() },
  { name: 'report', definition: async () => (await import('./commands/report.js')).reportCommand() },
  { name: 'preview', definition: async () => (await import('./commands/preview.js')).previewCommand() },
  { name: 'hook-env', definition: async () => (await import('./commands/hook-env.js')).hookEnvCommand() },
  { name: 'status', definition: async () => (await import('./commands/status.js')).statusCommand() },
  { name: 'must-gather', definition: async () => (await import('./commands/must-gather.js')).mustGatherCommand() },
  { name: 'validate', definition: async () => (await import('./commands/validate.js')).validateCommand() },
  { name: 'snapshot', definition: async () => (await import('./commands/snapshot.js')).snapshotCommand() },
];

/**
 * Builds the command tree: every command, or with `only` that one alone (what runs it needs: the
 * others matter only to the root's help and to the suggestions for a mistyped command).
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command('upgrade-operator')
    .description(
      'Upgrades OpenShift 4 clusters inside maintenance windows, gated on cluster health, step by step and restart-safe.',
    )
    .version(version(), '--version')
    .showHelpAfterError()
    .exitOverride();
  const wanted = COMMANDS.filter((c) => only === undefined || c.name === only);
  for (const command of await Promise.all(wanted.map((c) => c.definition()))) program.addCommand(command);
  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  // `upgrade-operator <command> …` loads that command's definition only.
  const first = argv[2];
  const program = await buildProgram(COMMANDS.some((c) => c.name === first) ? first : undefined);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    process.stderr.write(`upgrade-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
