/**
 * The `yaml` package, required on first use. The operator reads YAML only from a kubeconfig
 * (outside a cluster), its own configuration ConfigMaps and the notification settings, so an
 * operator running in its cluster without those never loads the parser (about 2 MiB resident:
 * docs/benchmarks.md#start-up-and-footprint-issue-17). Parsing is synchronous, so the package is
 * required through Node's `require`.
 *
 * In dist/ the build (`scripts/build.mjs`) bundles the package into one CommonJS file next to the
 * chunk holding this module, `yaml-bundle.cjs`, which loads in a fraction of the time of the
 * package's 73 files (docs/design/command-line.md#the-build); the modules that import the package
 * statically (`yaml-package.ts`) get that same file, so there is one copy. Run from src/ (tsx, the
 * tests), there is no bundle and this is the package itself.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
// What the bundle exports: yaml-package.ts's list (scripts/build.mjs reads it from there).
import type * as Yaml from './yaml-package.js';

let yaml: typeof Yaml | undefined;

/** The yaml package, required the first time it is asked for. */
export function yamlPackage(): typeof Yaml {
  if (yaml === undefined) {
    const require = createRequire(import.meta.url);
    const bundle = new URL('./yaml-bundle.cjs', import.meta.url);
    yaml = (existsSync(bundle) ? require(fileURLToPath(bundle)) : require('yaml')) as typeof Yaml;
  }
  return yaml;
}
