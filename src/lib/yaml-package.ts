/**
 * The `yaml` package, for the modules that use it from their start (the lint forbids importing
 * it elsewhere; the others require it on first use through `yaml-runtime.ts`). It is the copy
 * `yaml-runtime.ts` loads: in dist/ the package bundled into one file, compiled with its code
 * cache (docs/design/command-line.md#the-build); run from src/ (tsx, the tests), the package itself.
 */
import { yamlPackage } from './yaml-runtime.js';

export const { Document, isSeq, parse, parseAllDocuments, parseDocument, stringify } = yamlPackage();
export type { DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';
