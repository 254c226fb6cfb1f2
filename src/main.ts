/** Entry point of the `upgrade-operator` executable. */
import { runCli } from './cli/program.js';

process.exitCode = await runCli(process.argv);
