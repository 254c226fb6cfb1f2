/**
 * The `yaml` package, as every module of ours imports it (the lint forbids importing it
 * elsewhere). The package is 73 CommonJS files, and loading them took more than a third of
 * `hook-env`'s start-up; the build (`scripts/build.mjs`) therefore replaces this module's output
 * with the package bundled into this one file (docs/design/command-line.md#lazy-commands). Run
 * from src/ (tsx, the tests), it is the package itself.
 */
export {
  Document,
  isSeq,
  parse,
  parseAllDocuments,
  parseDocument,
  stringify,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';
