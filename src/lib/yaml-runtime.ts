/**
 * The `yaml` package, required on first use. The operator reads YAML only from a kubeconfig
 * (outside a cluster), its own configuration ConfigMaps and the notification settings, so an
 * operator running in its cluster without those never loads the parser (73 modules, about 2 MiB
 * resident: docs/benchmarks.md#start-up-and-footprint-issue-17). Parsing is synchronous, so the
 * package is required through Node's `require`; its `node` export is the same CommonJS build an
 * `import` of it gets, so the two never make two copies.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

/** The yaml package, required the first time it is asked for. */
export function yamlPackage(): typeof Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml;
}
