/**
 * The environment of a hook Job (docs/design/scheduled-flow.md#the-hook-environment), as APPUiO's
 * controller builds it: three roots, `EVENT`, `JOB` and `META`, each as a whole JSON document, plus
 * every scalar inside them flattened to `<ROOT>_<path>` with `_`-joined object keys (characters
 * outside `[A-Za-z0-9_]` replaced by `_` one for one, case kept) and array indexes; empty objects
 * and arrays yield no variable; every value is JSON encoded the way Go encodes it (`"Create"` keeps
 * its quotes, `\u003c` for `<`); the list is sorted by name.
 *
 * Deliberate differences from the shipped controller (for docs/compatibility.md):
 * - keys that sanitise to the same name no longer resolve in Go's random map order: keys are
 *   visited in code point order and the later one wins, so a key already spelled in
 *   `[A-Za-z0-9_]` (e.g. label `a_b`) wins over one that sanitises to it (`a.b`);
 * - `metadata.managedFields` is left out of `JOB` (it only bloated the environment);
 * - `EVENT` also carries `time` (RFC 3339, when the hook Job was made) and `message`, which the
 *   design promised ("guaranteed are name, time, reason, message");
 * - `EVENT_NAME` repeats `EVENT_name`, so the design's own example `$(EVENT_NAME)` expands;
 * - `META.matchesDisruptiveHooks` is computed by the caller over every hook that would run for the
 *   UpgradeJob, whatever the event (see `matchesDisruptiveHooks` in hook-selection.ts), as the doc
 *   comment and the metric say, not only over the hooks of the same event.
 */
import type { EnvVar } from 'kubernetes-types/core/v1.js';
import { formatTime } from '../../lib/clock.js';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeEvent } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeJobConditionType } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { compareCodePoints, goJsonMarshal } from '../../lib/go-json.js';
import { upgradeJobAsGoJson } from './upgrade-job-go-shape.js';

/** Every character Go's controller replaces in a key (`[^a-zA-Z0-9_]`), one per code point. */
const NOT_ENV_CHAR = /[^a-zA-Z0-9_]/gu;

/** A key made into a variable-name segment: `app.kubernetes.io/name` → `app_kubernetes_io_name`. */
export function sanitizeEnvKey(key: string): string {
  return key.replace(NOT_ENV_CHAR, '_');
}

/**
 * Adds every scalar under `value` to `into`, named `<prefix>_<key>_<index>…`. Objects are walked
 * in code point order of their keys, so a later key that sanitises to the same name replaces an
 * earlier one deterministically. Returns the names written more than once.
 */
export function flattenInto(prefix: string, value: JsonValue, into: Map<string, JsonValue>): string[] {
  const shadowed: string[] = [];
  const walk = (name: string, value: JsonValue): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(`${name}_${i}`, item));
    } else if (value !== null && typeof value === 'object') {
      for (const k of Object.keys(value).sort(compareCodePoints))
        walk(`${name}_${sanitizeEnvKey(k)}`, value[k] ?? null);
    } else {
      if (into.has(name)) shadowed.push(name);
      into.set(name, value);
    }
  };
  walk(prefix, value);
  return shadowed;
}

/** What the hook Job is for. */
export interface HookEventInput {
  /** The UpgradeJob as read from the API (plain JSON). */
  job: UpgradeJob;
  event: UpgradeEvent;
  /** `EVENT.reason`: `""` for Create, `Started`, `Completed`, `DelayReached`, or the final condition's reason. */
  reason: string;
  /** The pool, for MachineConfigPoolUnpause only (`EVENT.pool`). */
  pool?: string;
  /** When the hook Job is made, from the Clock (ms); `EVENT.time`. */
  now: number;
  /** `EVENT.message`; defaults to {@link eventMessage}. */
  message?: string;
  /** `META.matchesDisruptiveHooks`. */
  matchesDisruptiveHooks: boolean;
}

/** The three roots before flattening. */
export interface HookEnvRoots {
  EVENT: JsonObject;
  JOB: JsonObject;
  META: JsonObject;
}

/** The environment, and the names that two keys sanitised to (the later key won). */
export interface HookEnvironment {
  env: EnvVar[];
  shadowed: string[];
}

function conditionMessage(job: UpgradeJob, type: string): string {
  const c = (job.status?.conditions ?? []).find((x) => x.type === type && x.status === 'True');
  return c?.message ?? '';
}

/**
 * `EVENT.message`: the message of the UpgradeJob condition behind the event — Started for Start,
 * PostHealthCheckDone for UpgradeComplete, Succeeded for Success, Failed for Failure, whichever of
 * the two is true for Finish; `""` for Create and MachineConfigPoolUnpause, which no condition marks.
 */
export function eventMessage(job: UpgradeJob, event: UpgradeEvent): string {
  switch (event) {
    case 'Start':
      return conditionMessage(job, UpgradeJobConditionType.Started);
    case 'UpgradeComplete':
      return conditionMessage(job, UpgradeJobConditionType.PostHealthCheckDone);
    case 'Success':
      return conditionMessage(job, UpgradeJobConditionType.Succeeded);
    case 'Failure':
      return conditionMessage(job, UpgradeJobConditionType.Failed);
    case 'Finish':
      return (
        conditionMessage(job, UpgradeJobConditionType.Succeeded) ||
        conditionMessage(job, UpgradeJobConditionType.Failed)
      );
    case 'Create':
    case 'MachineConfigPoolUnpause':
      return '';
  }
}

/** The `EVENT`, `JOB` and `META` documents of a hook Job. */
export function hookEnvRoots(input: HookEventInput): HookEnvRoots {
  const event: JsonObject = {
    name: input.event,
    reason: input.reason,
    time: formatTime(input.now),
    message: input.message ?? eventMessage(input.job, input.event),
  };
  if (input.event === 'MachineConfigPoolUnpause' && input.pool !== undefined) event['pool'] = input.pool;
  const job = upgradeJobAsGoJson(input.job as unknown as JsonObject);
  const metadata = job['metadata'];
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) delete metadata['managedFields'];
  return { EVENT: event, JOB: job, META: { matchesDisruptiveHooks: input.matchesDisruptiveHooks } };
}

/** The environment variables appended to every container of a hook Job, sorted by name. */
export function hookEnvironment(input: HookEventInput): HookEnvironment {
  const roots = hookEnvRoots(input);
  const vars = new Map<string, JsonValue>();
  const shadowed: string[] = [];
  for (const root of ['EVENT', 'JOB', 'META'] as const) {
    vars.set(root, roots[root]);
    shadowed.push(...flattenInto(root, roots[root], vars));
  }
  vars.set('EVENT_NAME', input.event);
  const env = [...vars.keys()].sort().map((name) => ({ name, value: goJsonMarshal(vars.get(name) ?? null) }));
  return { env, shadowed };
}
