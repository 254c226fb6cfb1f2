/**
 * The `commander` package, as every module of ours imports it (the lint forbids importing it
 * elsewhere). In dist/ the build (`scripts/build.mjs`) points it at `commander-bundle.mjs`, the
 * package bundled into one file, which loads faster than its CommonJS files
 * (docs/design/command-line.md#the-build). Run from src/ (tsx, the tests), it is the package
 * itself.
 */
export { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
