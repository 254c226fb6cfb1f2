/**
 * An UpgradeJob's JSON as APPUiO's controller sees it after decoding into its Go types and encoding
 * again (docs/design/scheduled-flow.md#the-hook-environment): that JSON is what hooks receive in
 * `JOB` and `JOB_*`. A round trip through Go's typed structs changes what the API server stored in
 * ways a hook can observe:
 * - times (`metav1.Time`) become UTC RFC 3339 with whole seconds (`2021-01-01T22:00:00+01:00` →
 *   `2021-01-01T21:00:00Z`); a missing `creationTimestamp` becomes `null`;
 * - durations (`metav1.Duration`) become Go's `Duration.String()` (`12h` → `12h0m0s`), and an
 *   absent pool delay becomes `0s`;
 * - fields without `omitempty` appear with their zero value: `desiredVersion.{architecture, force,
 *   image, version}`, health checks' `skipDegradedOperatorsCheck`, conditions' `reason` and
 *   `message`, `status`;
 * - `omitempty` strings of `status.hookTracker[]` disappear when empty.
 * - `apiVersion` and `kind` are always set (the anchor's cached client fills them).
 * Everything else passes through as stored. Pure.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import { formatTime } from '../../lib/clock.js';
import { APPUIO_GROUP, APPUIO_VERSION } from '../../api/managedupgrade.appuio.io/v1beta1/group.js';
import { normalizeGoDuration } from '../../lib/go-duration.js';
import { parseRfc3339 } from '../../lib/rfc3339.js';

/** A `metav1.Time` as Go writes it back: UTC, whole seconds; unparsable text unchanged, absent → null. */
export function normalizeGoTime(value: JsonValue | undefined): JsonValue {
  if (value === undefined || value === null) return null;
  const ms = typeof value === 'string' ? parseRfc3339(value) : undefined;
  return ms === undefined ? value : formatTime(ms);
}

function duration(value: JsonValue | undefined): JsonValue {
  if (value === undefined || value === null) return '0s';
  return typeof value === 'string' ? normalizeGoDuration(value) : value;
}

function obj(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function healthCheck(value: JsonValue | undefined): JsonObject {
  const hc = obj(value);
  return {
    ...hc,
    timeout: duration(hc['timeout']),
    skipDegradedOperatorsCheck: hc['skipDegradedOperatorsCheck'] ?? false,
  };
}

function pool(value: JsonValue): JsonValue {
  if (!isJsonObject(value)) return value;
  const delay = obj(value['delayUpgrade']);
  return {
    ...value,
    delayUpgrade: { ...delay, delayMin: duration(delay['delayMin']), delayMax: duration(delay['delayMax']) },
  };
}

function config(value: JsonValue | undefined): JsonObject {
  const c = obj(value);
  const out: JsonObject = {
    ...c,
    upgradeTimeout: duration(c['upgradeTimeout']),
    preUpgradeHealthChecks: healthCheck(c['preUpgradeHealthChecks']),
    postUpgradeHealthChecks: healthCheck(c['postUpgradeHealthChecks']),
  };
  const pools = c['machineConfigPools'];
  if (Array.isArray(pools) && pools.length > 0) out['machineConfigPools'] = pools.map(pool);
  else delete out['machineConfigPools'];
  return out;
}

function spec(value: JsonValue | undefined): JsonObject {
  const s = obj(value);
  const out: JsonObject = {
    ...s,
    startAfter: normalizeGoTime(s['startAfter']),
    startBefore: normalizeGoTime(s['startBefore']),
    config: config(s['config']),
  };
  const dv = s['desiredVersion'];
  if (isJsonObject(dv)) {
    out['desiredVersion'] = {
      architecture: dv['architecture'] ?? '',
      force: dv['force'] ?? false,
      image: dv['image'] ?? '',
      version: dv['version'] ?? '',
    };
  } else {
    delete out['desiredVersion'];
  }
  return out;
}

function condition(value: JsonValue): JsonValue {
  if (!isJsonObject(value)) return value;
  return {
    ...value,
    lastTransitionTime: normalizeGoTime(value['lastTransitionTime']),
    reason: value['reason'] ?? '',
    message: value['message'] ?? '',
  };
}

function trackerEntry(value: JsonValue): JsonValue {
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== '' && v !== null) out[k] = v;
  return out;
}

function status(value: JsonValue | undefined): JsonObject {
  const s = obj(value);
  const out: JsonObject = { ...s };
  const conditions = s['conditions'];
  if (Array.isArray(conditions) && conditions.length > 0) out['conditions'] = conditions.map(condition);
  else delete out['conditions'];
  const tracker = s['hookTracker'];
  if (Array.isArray(tracker) && tracker.length > 0) out['hookTracker'] = tracker.map(trackerEntry);
  else delete out['hookTracker'];
  return out;
}

function metadata(value: JsonValue | undefined): JsonObject {
  const m = obj(value);
  const out: JsonObject = { ...m, creationTimestamp: normalizeGoTime(m['creationTimestamp']) };
  if (m['deletionTimestamp'] !== undefined) out['deletionTimestamp'] = normalizeGoTime(m['deletionTimestamp']);
  const managed = m['managedFields'];
  if (Array.isArray(managed)) {
    out['managedFields'] = managed.map((e) =>
      isJsonObject(e) && e['time'] !== undefined ? { ...e, time: normalizeGoTime(e['time']) } : e,
    );
  }
  return out;
}

/** The UpgradeJob (plain JSON as read from the API) as the Go controller would marshal it. */
export function upgradeJobAsGoJson(job: JsonObject): JsonObject {
  // The anchor reads through controller-runtime's cache, which fills apiVersion and kind; list
  // items of our informers may lack them.
  const apiVersion = job['apiVersion'];
  const kind = job['kind'];
  const out: JsonObject = {
    apiVersion: typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : `${APPUIO_GROUP}/${APPUIO_VERSION}`,
    kind: typeof kind === 'string' && kind !== '' ? kind : 'UpgradeJob',
  };
  out['metadata'] = metadata(job['metadata']);
  out['spec'] = spec(job['spec']);
  out['status'] = status(job['status']);
  return out;
}
