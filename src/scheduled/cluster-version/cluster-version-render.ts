/**
 * Rendering of APPUiO's ClusterVersion (managedupgrade.appuio.io/v1beta1,
 * docs/design/scheduled-flow.md#clusterversion, docs/design/scheduled-flow.md#clusterversion-sync):
 * the template spec with the newest started overlay merged over it, the status (`current`,
 * `overlayApplied`, one preview per overlay), the update of the upstream config.openshift.io
 * ClusterVersion spec, and the next instant an overlay starts. Pure.
 *
 * The merge follows dario.cat/mergo `Merge(dst, src, WithOverride)` on Go structs, written by
 * hand over plain JSON because no JS deep-merge library has mergo's notion of "empty": a
 * non-empty scalar (string, non-zero number, `true`) replaces; an empty string, `false`, `0`,
 * `null`, an absent field and an empty list change nothing; a non-empty list replaces the whole
 * list; objects (Go pointers such as `capabilities` or `desiredUpdate`) merge field by field,
 * and an object over an absent one is taken as it is.
 *
 * Overlays do not accumulate: only the newest overlay whose `from ≤ now` is merged. Equal `from`
 * values are undefined behaviour upstream; here the later one in spec order wins (the sort is
 * stable), which is deterministic and what a reader of the list expects.
 *
 * Differences from APPUiO (deliberate):
 * - The upstream comparison and write cover only the fields the sync owns ({@link OWNED_FIELDS});
 *   `desiredUpdate` and any spec field this operator does not know are kept as they are (a Go
 *   struct would drop unknown fields on update).
 * - An absent field, an empty string, an empty list, an empty object, `false` and `null` count as
 *   equal in every comparison, as they do between Go structs after a JSON round trip; so no write
 *   happens because one side spells "nothing" differently.
 */
import type {
  ManagedClusterVersionSpec,
  ManagedClusterVersionStatus,
} from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import type { ClusterVersionSpec } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';

/** The spec fields the sync owns on the upstream ClusterVersion (`desiredUpdate` belongs to UpgradeJobs). */
export const OWNED_FIELDS = [
  'clusterID',
  'upstream',
  'channel',
  'capabilities',
  'signatureStores',
  'overrides',
] as const;

/** True for what mergo counts as an empty source value (never replaces anything). */
function isEmptySource(value: JsonValue | undefined): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === false ||
    value === 0 ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Deep-merges `src` over `dst` like mergo `WithOverride` (see the module comment). Neither input
 * is changed; the result shares nothing with them.
 */
export function mergeWithOverride(dst: JsonValue | undefined, src: JsonValue | undefined): JsonValue | undefined {
  if (isEmptySource(src)) return dst === undefined ? undefined : cloneJson(dst);
  if (isJsonObject(src)) {
    if (!isJsonObject(dst)) return cloneJson(src);
    const out = cloneJson(dst);
    for (const [k, v] of Object.entries(src)) {
      const merged = mergeWithOverride(dst[k], v);
      if (merged !== undefined) out[k] = merged;
    }
    return out;
  }
  return cloneJson(src as JsonValue);
}

/** The template spec with one overlay spec merged over it. */
export function mergeClusterVersionSpec(
  template: ClusterVersionSpec,
  overlay: ClusterVersionSpec | undefined,
): ClusterVersionSpec {
  return mergeWithOverride(
    asJson(template),
    overlay === undefined ? undefined : asJson(overlay),
  ) as unknown as ClusterVersionSpec;
}

/**
 * A copy without what a Go struct cannot tell from its zero value: absent, `null`, `''`,
 * `false`, `0`, `[]` and `{}` (after pruning) are all dropped; list elements that prune to
 * nothing become `null` so positions keep their meaning. Undefined when nothing is left.
 */
export function pruneEmpty(value: JsonValue | undefined): JsonValue | undefined {
  if (isEmptySource(value)) return undefined;
  if (Array.isArray(value)) return value.map((e) => pruneEmpty(e) ?? null);
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const [k, e] of Object.entries(value)) {
      const p = pruneEmpty(e);
      if (p !== undefined) out[k] = p;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/** Equality up to the empty values {@link pruneEmpty} drops. */
export function equalIgnoringEmpty(left: JsonValue | undefined, right: JsonValue | undefined): boolean {
  return jsonEqual(pruneEmpty(left), pruneEmpty(right));
}

function ownedPart(spec: ClusterVersionSpec | undefined): JsonObject {
  const s = asJson(spec ?? {});
  const out: JsonObject = {};
  for (const f of OWNED_FIELDS) {
    const v = s[f];
    if (v !== undefined) out[f] = v;
  }
  return out;
}

/** APPUiO's `SpecEqualIgnoringDesiredUpdate`, over the owned fields (see the module comment). */
export function specEqualIgnoringDesiredUpdate(
  left: ClusterVersionSpec | undefined,
  right: ClusterVersionSpec | undefined,
): boolean {
  return equalIgnoringEmpty(ownedPart(left), ownedPart(right));
}

/**
 * The new upstream spec when the rendered spec differs from it (ignoring `desiredUpdate`):
 * the owned fields as rendered (a field the rendered spec lacks is removed), everything else —
 * `desiredUpdate` above all — as the upstream has it. Undefined when no write is needed.
 */
export function upstreamSpecUpdate(
  rendered: ClusterVersionSpec,
  upstream: ClusterVersionSpec | undefined,
): ClusterVersionSpec | undefined {
  if (specEqualIgnoringDesiredUpdate(rendered, upstream)) return undefined;
  const out = cloneJson(asJson(upstream ?? {}));
  const r = asJson(rendered);
  for (const f of OWNED_FIELDS) {
    const v = r[f];
    if (v === undefined) delete out[f];
    else out[f] = cloneJson(v);
  }
  return out as unknown as ClusterVersionSpec;
}

/** One overlay with its start parsed. */
export interface ParsedOverlay {
  /** Position in `spec.overlays`. */
  index: number;
  fromMs: number;
  spec: ClusterVersionSpec | undefined;
}

/**
 * The overlay that applies at `now`: the one with the greatest `from ≤ now`; of several with
 * that `from`, the last in spec order.
 */
export function activeOverlay(overlays: readonly ParsedOverlay[], now: number): ParsedOverlay | undefined {
  let best: ParsedOverlay | undefined;
  for (const o of overlays) {
    if (o.fromMs > now) continue;
    if (!best || o.fromMs > best.fromMs || (o.fromMs === best.fromMs && o.index > best.index)) best = o;
  }
  return best;
}

/** The earliest overlay start strictly after `now`, or undefined. */
export function nextOverlayStart(overlays: readonly ParsedOverlay[], now: number): number | undefined {
  let next: number | undefined;
  for (const o of overlays) if (o.fromMs > now && (next === undefined || o.fromMs < next)) next = o.fromMs;
  return next;
}

/** What the sync does at one instant. */
export interface ClusterVersionRender {
  /** The spec that applies now (desiredUpdate of the template included; it is never synced). */
  current: ClusterVersionSpec;
  /** The overlay applied now, if any. */
  applied: ParsedOverlay | undefined;
  /** The status to write. */
  status: ManagedClusterVersionStatus;
  /** Milliseconds until the next overlay starts; undefined when none is still to come. */
  requeueAfterMs: number | undefined;
}

/** The result of {@link renderClusterVersion}: the render, or why the spec cannot be rendered. */
export type ClusterVersionRenderResult = { ok: true; render: ClusterVersionRender } | { ok: false; errors: string[] };

/**
 * Validates and parses the overlays: `from` must be a time. The template must carry a
 * `clusterID` (the CRD requires it; without it the cluster's identity would be wiped).
 */
export function parseManagedSpec(
  spec: ManagedClusterVersionSpec | undefined,
): { ok: true; template: ClusterVersionSpec; overlays: ParsedOverlay[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const template = spec?.template?.spec;
  if (!template) errors.push('spec.template.spec is required');
  else if (typeof template.clusterID !== 'string' || template.clusterID === '')
    errors.push('spec.template.spec.clusterID is required');
  const overlays: ParsedOverlay[] = [];
  (spec?.overlays ?? []).forEach((options, index) => {
    const fromMs = typeof options.from === 'string' ? Date.parse(options.from) : Number.NaN;
    if (Number.isNaN(fromMs))
      errors.push(`spec.overlays[${index}].from: ${JSON.stringify(options.from ?? null)} is not a time`);
    else overlays.push({ index, fromMs, spec: options.overlay?.spec });
  });
  if (errors.length > 0 || !template) return { ok: false, errors };
  return { ok: true, template, overlays };
}

/** Renders the managed ClusterVersion at `now` (docs/design/scheduled-flow.md#clusterversion-sync). */
export function renderClusterVersion(
  spec: ManagedClusterVersionSpec | undefined,
  now: number,
): ClusterVersionRenderResult {
  const parsed = parseManagedSpec(spec);
  if (!parsed.ok) return parsed;
  const { template, overlays } = parsed;
  const applied = activeOverlay(overlays, now);
  const current = mergeClusterVersionSpec(template, applied?.spec);
  const status: ManagedClusterVersionStatus = {
    current,
    overlayApplied: applied ? formatTime(applied.fromMs) : null,
  };
  if (overlays.length > 0) {
    status.overlays = overlays.map((o) => ({
      from: formatTime(o.fromMs),
      preview: { spec: mergeClusterVersionSpec(template, o.spec) },
    }));
  }
  const next = nextOverlayStart(overlays, now);
  return {
    ok: true,
    render: { current, applied, status, requeueAfterMs: next === undefined ? undefined : next - now },
  };
}

/** True when the stored status already says what `status` says (empty values ignored). */
export function clusterVersionStatusEqual(
  stored: ManagedClusterVersionStatus | undefined,
  status: ManagedClusterVersionStatus,
): boolean {
  return equalIgnoringEmpty(asJson(stored ?? {}), asJson(status));
}

function asJson(value: object): JsonObject {
  return value as unknown as JsonObject;
}
