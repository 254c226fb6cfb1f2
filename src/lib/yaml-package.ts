/**
 * The `yaml` package, for the modules that import it statically (the lint forbids importing it
 * elsewhere; the others require it on first use through `yaml-runtime.ts`). The package is 73
 * CommonJS files, and loading them took more than a third of `hook-env`'s start-up: in dist/ the
 * build (`scripts/build.mjs`) points this module at `yaml-bundle.cjs`, the package bundled into one
 * file, the same file `yaml-runtime.ts` requires (docs/design/command-line.md#the-build). Its
 * exports here are the bundle's: the build keeps only what they reach. Run from src/ (tsx, the
 * tests), it is the package itself.
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
