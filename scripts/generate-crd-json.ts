/**
 * Writes src/cli/crds/<file>.generated.ts for every CRD of src/cli/crds/crd-builders.ts: the CRD
 * as a JSON literal, so `validate` and `hook-env` admit files without loading TypeBox, which
 * builds them at run time (docs/design/command-line.md#lazy-commands). src/cli/crds/crds.test.ts
 * fails when a file no longer matches its CRD; `npm run manifests` runs this script to bring them
 * up to date.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CRD_JSON_SOURCES } from '../src/cli/crds/crd-builders.js';

const files = CRD_JSON_SOURCES.map((source) => {
  const out = fileURLToPath(new URL(`../src/cli/crds/${source.file}.generated.ts`, import.meta.url));
  writeFileSync(
    out,
    `/**
 * ${source.from} as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** ${source.from}, as JSON. */
export const CRD: JsonObject = ${JSON.stringify(source.build())};
`,
  );
  return out;
});
execFileSync(process.execPath, [
  fileURLToPath(new URL('../node_modules/prettier/bin/prettier.cjs', import.meta.url)),
  '--write',
  ...files,
]);
