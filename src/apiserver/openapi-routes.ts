/** /openapi/v2, /openapi/v3 and /openapi/v3/apis/<group>/<version>, built from the served custom resource schemas. */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../lib/json.js';
import { openApiV2Document, openApiV3Document } from './crd/openapi.js';
import type { ServedType } from './storage/served-type.js';
import { apiVersionOf, type Store } from './types.js';

/**
 * Built-in kinds without a schema of their own (all but RBAC, builtin/rbac.ts) are published
 * with an open schema: we carry no OpenAPI for them, but kubectl
 * needs each group/version listed (with the fieldValidation parameter on its paths) to leave
 * field validation to the server instead of failing on a missing document.
 */
const OPEN_SCHEMA: JsonObject = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function withSchemas(store: Store): Array<{ rt: ServedType; version: string; schema: JsonObject }> {
  const out: Array<{ rt: ServedType; version: string; schema: JsonObject }> = [];
  for (const t of store.resourceTypes() as ServedType[]) {
    for (const version of t.versions) {
      const schema = t.custom ? t.schemas?.[version] : (t.schemas?.[version] ?? OPEN_SCHEMA);
      if (schema) out.push({ rt: t, version, schema });
    }
  }
  return out;
}

function v3Document(store: Store, group: string, version: string): JsonObject | undefined {
  const resources = withSchemas(store).filter((r) => r.rt.group === group && r.version === version);
  if (resources.length === 0) return undefined;
  return openApiV3Document(
    group,
    version,
    resources.map((r) => ({ rt: r.rt, schema: r.schema })),
  );
}

/** The OpenAPI document at a path under /openapi/, or undefined when there is none. */
export function openApiFor(store: Store, path: string): JsonObject | undefined {
  if (path === '/openapi/v2') return openApiV2Document(withSchemas(store));
  if (path === '/openapi/v3') {
    const paths: JsonObject = {};
    const seen = new Set<string>();
    for (const r of withSchemas(store)) {
      const gv = apiVersionOf(r.rt.group, r.version);
      if (seen.has(gv)) continue;
      seen.add(gv);
      const key = r.rt.group === '' ? `api/${r.version}` : `apis/${gv}`;
      const doc = v3Document(store, r.rt.group, r.version);
      const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64).toUpperCase();
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
    }
    return { paths };
  }
  const m = /^\/openapi\/v3\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (!m) return undefined;
  return m[1] !== undefined ? v3Document(store, '', m[1]) : v3Document(store, m[2]!, m[3]!);
}
