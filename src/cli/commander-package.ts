/**
 * The `commander` package, as every module of ours imports it (the lint forbids importing it
 * elsewhere). The build (`scripts/build.mjs`) replaces this module's output with the package
 * bundled into this one file, which loads faster than its CommonJS files
 * (docs/design/command-line.md#lazy-commands). Run from src/ (tsx, the tests), it is the package
 * itself.
 */
export { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
