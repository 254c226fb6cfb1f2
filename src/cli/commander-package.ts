/**
 * The `commander` package, as every module of ours uses it (the lint forbids importing it
 * elsewhere). In dist/ it is `commander-bundle.cjs`, the package bundled into one file and
 * compiled with the code cache the build wrote for it (`src/lib/bundled-package.ts`;
 * docs/design/command-line.md#the-build). Run from src/ (tsx, the tests), it is the package itself.
 */
import type * as Commander from 'commander';
import { BUNDLED_PACKAGES, requireBundled } from '../lib/bundled-package.js';

export const { Command, CommanderError, InvalidArgumentError, Option } = requireBundled<typeof Commander>(
  BUNDLED_PACKAGES.commander,
);
export type Command = Commander.Command;
export type CommanderError = Commander.CommanderError;
export type InvalidArgumentError = Commander.InvalidArgumentError;
export type Option = Commander.Option;
