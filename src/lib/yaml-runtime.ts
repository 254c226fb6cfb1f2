/**
 * The `yaml` package, required on first use. The operator reads YAML only from a kubeconfig
 * (outside a cluster), its own configuration ConfigMaps and the notification settings, so an
 * operator running in its cluster without those never loads the parser (about 2 MiB resident:
 * docs/benchmarks.md#start-up-and-footprint-issue-17). Parsing is synchronous, so the package is
 * required, not imported.
 *
 * In dist/ it is `yaml-bundle.cjs`, the package bundled into one CommonJS file with only what
 * {@link YamlPackage} names, loaded with the code cache the build wrote for it
 * (`bundled-package.ts`; docs/design/command-line.md#the-build). The modules that import the
 * package statically (`yaml-package.ts`) get the same copy. Run from src/ (tsx, the tests), it is
 * the package itself.
 */
import type * as Yaml from 'yaml';
import { BUNDLED_PACKAGES, requireBundled } from './bundled-package.js';

/** What we use of yaml, and what its bundle holds: scripts/build.mjs reads the names from here. */
export type YamlPackage = Pick<
  typeof Yaml,
  'Document' | 'isSeq' | 'parse' | 'parseAllDocuments' | 'parseDocument' | 'stringify'
>;

/** The yaml package, required the first time it is asked for. */
export function yamlPackage(): YamlPackage {
  return requireBundled<YamlPackage>(BUNDLED_PACKAGES.yaml);
}
