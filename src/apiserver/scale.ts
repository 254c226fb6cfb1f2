/** The scale subresource: autoscaling/v1 Scale views of Deployments and custom resources. */
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json.js';
import type { KubeObject } from './types.js';
import type { ScaleSpec, ServedType } from './storage/served-type.js';
import { apiErrors } from './status.js';
import { jsonText } from './http-util.js';

const deploymentScale: ScaleSpec = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

/** The scale paths of a type, when it serves the scale subresource. */
export function scaleSpecOf(rt: ServedType): ScaleSpec | undefined {
  if (!rt.subresources.includes('scale')) return undefined;
  if (rt.scale) return rt.scale;
  return rt.group === 'apps' && rt.resource === 'deployments' ? deploymentScale : undefined;
}

function segments(path: string): string[] {
  return path
    .replace(/^\./, '')
    .split('.')
    .filter((s) => s !== '');
}

function read(value: JsonValue, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = value;
  for (const s of segments(path)) cur = isJsonObject(cur) ? cur[s] : undefined;
  return cur;
}

function write(options: JsonObject, path: string, value: JsonValue): void {
  const segs = segments(path);
  let cur = options;
  for (const s of segs.slice(0, -1)) {
    const next = cur[s];
    if (isJsonObject(next)) cur = next;
    else {
      const fresh: JsonObject = {};
      cur[s] = fresh;
      cur = fresh;
    }
  }
  const last = segs[segs.length - 1];
  if (last !== undefined) cur[last] = value;
}

/** metav1.LabelSelector → its string form (matchLabels then matchExpressions). */
function selectorString(sel: JsonValue | undefined): string {
  if (typeof sel === 'string') return sel;
  if (!isJsonObject(sel)) return '';
  const parts: string[] = [];
  if (isJsonObject(sel.matchLabels))
    for (const k of Object.keys(sel.matchLabels).sort()) parts.push(`${k}=${jsonText(sel.matchLabels[k])}`);
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isJsonObject(e)) continue;
      const values = Array.isArray(e.values)
        ? e.values
            .map((x) => jsonText(x))
            .sort()
            .join(',')
        : '';
      const key = jsonText(e.key);
      if (e.operator === 'In') parts.push(`${key} in (${values})`);
      else if (e.operator === 'NotIn') parts.push(`${key} notin (${values})`);
      else if (e.operator === 'Exists') parts.push(key);
      else if (e.operator === 'DoesNotExist') parts.push(`!${key}`);
    }
  }
  return parts.join(',');
}

/** The Scale object for an object. */
export function toScale(spec: ScaleSpec, obj: KubeObject): KubeObject {
  const m = obj.metadata;
  const metadata: JsonObject = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'])
    if (m[k] !== undefined) metadata[k] = m[k]!;
  const specReplicas = read(obj, spec.specReplicasPath);
  const statusReplicas = read(obj, spec.statusReplicasPath);
  const status: JsonObject = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
  if (spec.labelSelectorPath) {
    const sel = selectorString(read(obj, spec.labelSelectorPath));
    if (sel !== '') status.selector = sel;
  }
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: typeof specReplicas === 'number' ? { replicas: specReplicas } : {},
    status,
  };
}

/** Applies a Scale's spec.replicas to an object (a copy); 422 without replicas. */
export function fromScale(spec: ScaleSpec, obj: KubeObject, scale: JsonObject): KubeObject {
  const replicas = isJsonObject(scale.spec) ? scale.spec.replicas : undefined;
  const name = typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw apiErrors.invalid('autoscaling', 'Scale', name, [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        badValue: replicas ?? null,
        detail: 'must be greater than or equal to 0',
      },
    ]);
  }
  const copy = structuredClone(obj);
  write(copy, spec.specReplicasPath, replicas);
  const meta = isJsonObject(scale.metadata) ? scale.metadata : {};
  if (typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '')
    copy.metadata.resourceVersion = meta.resourceVersion;
  return copy;
}
