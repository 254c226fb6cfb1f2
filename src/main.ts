/**
 * Entry point of the `upgrade-operator` executable. `--version` alone answers without loading
 * the command tree; everything else goes through it (docs/design/command-line.md#lazy-commands).
 */
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  const { version } = await import('./cli/version.js');
  process.stdout.write(`${version()}\n`);
} else {
  const { runCli } = await import('./cli/program.js');
  process.exitCode = await runCli(process.argv);
}
