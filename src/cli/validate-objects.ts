/**
 * The verdicts of `upgrade-operator validate` (docs/configuration.md#upgrade-operator-validate),
 * one per object: schema admission as the API server does it (`admitObjectDetailed`: pruning,
 * defaulting, the CRD schema and the name rules, kube-apiserver's words), then the rules the
 * operator applies at run time, by calling the operator's own functions — never a copy of them —
 * and quoting the reason and message the object would get (condition, Event or log line).
 *
 * Offline some rules cannot run: the release image's version needs the registry, the update
 * graph needs the update service, comparisons with the running cluster need its ClusterVersion
 * (`--cluster-version`). Each check that was not run is named in the object's `skipped` list;
 * none is reported as passed.
 *
 * Pure but for the injected jq compiler (a worker thread in production) and the clock value
 * `nowMs`; async because the managed validation and jq are.
 */
import { splitApiVersion } from '../api/resource.js';
import { APPUIO_GROUP } from '../api/managedupgrade.appuio.io/v1beta1/group.js';
import type { ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_GROUP,
} from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { fieldErrorMessage, goQuote } from '../apiserver/field-errors.js';
import type { PodJqSelector } from '../integrations/jq-selector.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';
import type { ManagedOperatorConfig } from '../managed/config/managed-operator-config.js';
import { admitObjectDetailed } from './object-file.js';
import type { KindRules, RunContext } from './validate-rules/findings.js';

/** Who would say it: the API server at admission, or the operator at run time. */
export type ProblemSource = 'apiserver' | 'operator';

/** One finding about one object. */
export interface ValidationProblem {
  readonly source: ProblemSource;
  /** The field path, `spec.schedule.cron`, when one field is at fault. */
  readonly field?: string;
  /** The field error type (API server) or the condition/Event reason (operator). */
  readonly reason?: string;
  /** The exact text the API server or the operator would give. */
  readonly message: string;
  /** `error`: refused or never acted on; `warning`: accepted, but something is lost or will not happen. */
  readonly severity: 'error' | 'warning';
}

/** The verdict on one object; `not checked` for kinds this operator does not read. */
export type Verdict = 'valid' | 'invalid' | 'valid with warnings' | 'not checked';

/** One object's verdict. */
export interface ObjectValidation {
  readonly file: string;
  /** 1-based document number in the file (the items of a `List` share their document's). */
  readonly document: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly verdict: Verdict;
  readonly problems: ValidationProblem[];
  /** Checks the operator would make that could not be made offline, and what they need. */
  readonly skipped: string[];
}

/** One object to judge, with where it came from. */
export interface InputObject {
  readonly file: string;
  readonly document: number;
  readonly object: JsonObject;
}

/** What the checks need besides the objects. */
export interface ValidateObjectsOptions {
  /** The instant the time-dependent rules are judged at (epoch ms). */
  readonly nowMs: number;
  /** What a schedule's `Local` location means. */
  readonly localZoneId: string;
  /** The cluster's config.openshift.io ClusterVersion (`--cluster-version`), enabling the rules that need it. */
  readonly clusterVersion?: ClusterVersion;
  /** Compiles NodeForceDrain `podJQSelector` programs, as the controller does. */
  readonly jq: PodJqSelector;
}

/**
 * The kinds the operator reads, each with the module of its CRD and rules, imported when an
 * object of the kind is judged (src/cli/validate-rules/).
 */
const KINDS: ReadonlyArray<{ apiVersion: string; kind: string; load(): Promise<{ kindRules: KindRules }> }> = [
  {
    apiVersion: `${MANAGED_UPGRADE_GROUP}/v1alpha1`,
    kind: 'UpgradeConfig',
    load: () => import('./validate-rules/managed-upgrade-config.js'),
  },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'UpgradeConfig',
    load: () => import('./validate-rules/scheduled-upgrade-config.js'),
  },
  { apiVersion: `${APPUIO_GROUP}/v1beta1`, kind: 'UpgradeJob', load: () => import('./validate-rules/upgrade-job.js') },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'UpgradeJobHook',
    load: () => import('./validate-rules/upgrade-job-hook.js'),
  },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'UpgradeSuspensionWindow',
    load: () => import('./validate-rules/upgrade-suspension-window.js'),
  },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'ClusterVersion',
    load: () => import('./validate-rules/managed-cluster-version.js'),
  },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'NodeForceDrain',
    load: () => import('./validate-rules/node-force-drain.js'),
  },
];

function isOperatorConfigMap(object: JsonObject): boolean {
  const m = isJsonObject(object['metadata']) ? object['metadata'] : {};
  return (
    object['apiVersion'] === 'v1' && object['kind'] === 'ConfigMap' && m['name'] === MANAGED_UPGRADE_CONFIGMAP_NAME
  );
}

/** True for an apiVersion of one of the operator's API groups. */
function isOurGroup(apiVersion: string): boolean {
  const { group } = splitApiVersion(apiVersion);
  return group === APPUIO_GROUP || group === MANAGED_UPGRADE_GROUP;
}

// ---- One object ----------------------------------------------------------------------------

function verdictOf(problems: readonly ValidationProblem[]): Verdict {
  if (problems.some((p) => p.severity === 'error')) return 'invalid';
  return problems.length > 0 ? 'valid with warnings' : 'valid';
}

function admissionProblems(
  object: JsonObject,
  crd: JsonObject,
): { problems: ValidationProblem[]; admitted: JsonObject } {
  const r = admitObjectDetailed(object, crd, { keepStatus: false });
  const seen = new Set<string>();
  const problems: ValidationProblem[] = [];
  for (const e of r.errors) {
    const message = fieldErrorMessage(e);
    if (seen.has(message)) continue;
    seen.add(message);
    problems.push({ source: 'apiserver', field: e.field, reason: e.type, message, severity: 'error' });
  }
  for (const f of r.unknownFields)
    problems.push({ source: 'apiserver', field: f, message: `unknown field ${goQuote(f)}`, severity: 'warning' });
  return { problems, admitted: r.object };
}

async function validateOne(input: InputObject, ctx: RunContext): Promise<ObjectValidation> {
  const o = input.object;
  const apiVersion = typeof o['apiVersion'] === 'string' ? o['apiVersion'] : '';
  const kind = typeof o['kind'] === 'string' ? o['kind'] : '';
  const meta = isJsonObject(o['metadata']) ? o['metadata'] : {};
  const name = typeof meta['name'] === 'string' ? meta['name'] : '';
  const namespace = typeof meta['namespace'] === 'string' && meta['namespace'] !== '' ? meta['namespace'] : undefined;
  const head = {
    file: input.file,
    document: input.document,
    apiVersion,
    kind,
    ...(namespace !== undefined ? { namespace } : {}),
    name,
  };
  const done = (problems: ValidationProblem[], skipped: string[], checked = true): ObjectValidation => ({
    ...head,
    verdict: checked ? verdictOf(problems) : 'not checked',
    problems,
    skipped,
  });

  if (apiVersion === '' || kind === '') {
    // kubectl's client-side check, before anything is sent.
    const missing = [...(apiVersion === '' ? ['apiVersion not set'] : []), ...(kind === '' ? ['kind not set'] : [])];
    return done(
      missing.map((message) => ({
        source: 'apiserver',
        field: message.split(' ')[0] ?? '',
        message,
        severity: 'error',
      })),
      [],
    );
  }
  if (isOperatorConfigMap(o)) {
    const f = (await import('./validate-rules/operator-config-map.js')).operatorConfigMapRules(o);
    return done(f.problems, f.skipped);
  }
  const entry = KINDS.find((k) => k.apiVersion === apiVersion && k.kind === kind);
  if (entry === undefined) {
    if (!isOurGroup(apiVersion)) return done([], [], false);
    return done(
      [
        {
          source: 'apiserver',
          message: `no matches for kind ${goQuote(kind)} in version ${goQuote(apiVersion)}`,
          severity: 'error',
        },
      ],
      [],
    );
  }
  const rules = (await entry.load()).kindRules;
  const admission = admissionProblems(o, rules.crd);
  if (admission.problems.some((p) => p.severity === 'error')) {
    return done(admission.problems, ['the operator’s rules (the API server would refuse the object)']);
  }
  const findings = await rules.rules(admission.admitted, ctx);
  return done([...admission.problems, ...findings.problems], findings.skipped);
}

/**
 * The verdict on every object, in input order. The managed operator's ConfigMap
 * (`managed-upgrade-operator-config`) among the inputs is judged too, and its settings
 * (`validation.cincinnati`, `upgradeWindow.timeOut`) are the ones the managed UpgradeConfigs are
 * judged with; without one, the documented defaults.
 */
export async function validateObjects(
  objects: readonly InputObject[],
  options: ValidateObjectsOptions,
): Promise<ObjectValidation[]> {
  const configMap = objects.find((o) => isOperatorConfigMap(o.object));
  let operatorConfig: Promise<ManagedOperatorConfig> | undefined;
  const ctx: RunContext = {
    ...options,
    operatorConfig: () =>
      (operatorConfig ??= import('./validate-rules/operator-config-map.js').then((m) =>
        m.operatorConfigOf(configMap?.object),
      )),
  };
  const out: ObjectValidation[] = [];
  for (const o of objects) out.push(await validateOne(o, ctx));
  return out;
}
