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
import {
  managedClusterVersionCrd,
  type ManagedClusterVersion,
} from '../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import { APPUIO_GROUP } from '../api/managedupgrade.appuio.io/v1beta1/group.js';
import { nodeForceDrainCrd, type NodeForceDrain } from '../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import { ScheduledUpgradeConfigDefaults } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import {
  scheduledUpgradeConfigCrd,
  type ScheduledUpgradeConfig,
} from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobReason } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { upgradeJobHookCrd, type UpgradeJobHook } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { upgradeJobCrd, type UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { upgradeSuspensionWindowCrd } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_GROUP,
} from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import {
  managedUpgradeConfigCrd,
  type ManagedUpgradeConfig,
} from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { fieldErrorMessage, goQuote } from '../apiserver/field-errors.js';
import { formatConfigProblems } from '../managed/config/config-problem.js';
import { parseManagedOperatorConfig, type ManagedOperatorConfig } from '../managed/config/managed-operator-config.js';
import { acceptsUpgradeConfigName, defaultOperatorSettings } from '../managed/config/operator-settings.js';
import {
  unrenderableMessage,
  ClusterVersionSyncEventReason,
} from '../scheduled/controllers/cluster-version-sync-controller.js';
import { ignoredUpgradeConfigMessage } from '../managed/controllers/upgrade-config-controller.js';
import { validationRefusal } from '../managed/controllers/upgrade-config-pass.js';
import {
  invalidForceDrainMessage,
  NodeForceDrainProblemReason,
  podJqSelectorProblem,
} from '../scheduled/controllers/node-force-drain-controller.js';
import { SUSPENSION_WINDOW_INVALID_REASON } from '../scheduled/controllers/upgrade-suspension-window-controller.js';
import type { PodJqSelector } from '../integrations/jq-selector.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';
import { nextScheduleTimes } from '../scheduled/schedule/maintenance-schedule.js';
import { compileSchedulingPolicy } from '../scheduled/schedule/next-job.js';
import { selectorMatches } from '../scheduled/hooks/hook-selection.js';
import type { UrlProbe } from '../managed/steps/external-dependency-step.js';
import { upgraderFor } from '../managed/upgraders/upgrader.js';
import { renderClusterVersion } from '../scheduled/cluster-version/cluster-version-render.js';
import { parseForceDrainSpec } from '../scheduled/drain/force-drain.js';
import { buildScheduledUpgradeJob } from '../scheduled/steps/scheduled-upgrade-job.js';
import { suspensionWindowMatches } from '../scheduled/schedule/suspension-window-matching.js';
import {
  desiredUpdateOf,
  isDesiredReleaseAvailable,
  poolDelays,
  sameDesiredUpdate,
} from '../scheduled/steps/upgrade-job-cluster.js';
import { UpgradeJobMessage } from '../scheduled/steps/upgrade-job-conditions.js';
import { jobTiming } from '../scheduled/steps/upgrade-job-gate.js';
import { effectiveHealthCheckTimeout } from '../scheduled/steps/upgrade-job-health-step.js';
import {
  currentClusterVersion,
  isValidationFailure,
  validateUpgradeConfig,
  type ValidationDeps,
  type ValidationReasonName,
} from '../managed/validation/upgrade-config-validation.js';
import { admitObjectDetailed } from './object-file.js';
import { objectRef } from './object-ref.js';

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

/** What one kind's operator rules found. */
interface Findings {
  problems: ValidationProblem[];
  skipped: string[];
}

/** What every check of one run shares. */
interface RunContext extends ValidateObjectsOptions {
  /** The managed operator's configuration (from a ConfigMap among the inputs, else the defaults). */
  readonly operatorConfig: ManagedOperatorConfig;
}

interface KindRules {
  readonly apiVersion: string;
  readonly kind: string;
  crd(): JsonObject;
  rules(object: JsonObject, ctx: RunContext): Promise<Findings> | Findings;
}

function operatorProblem(
  severity: 'error' | 'warning',
  message: string,
  extra: { field?: string | undefined; reason?: string | undefined } = {},
): ValidationProblem {
  return {
    source: 'operator',
    ...(extra.field !== undefined ? { field: extra.field } : {}),
    ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
    message,
    severity,
  };
}

/** The field path a message starts with (`spec.start: …`, `spec.configSelector is …`). */
function leadingField(message: string): string | undefined {
  return /^(spec(?:\.[A-Za-z0-9_]+|\[\d+\])*)/.exec(message)?.[1];
}

/**
 * Without `--cluster-version`: a ClusterVersion with no completed update, so the managed
 * validation stops (`UnknownCurrentVersion`) at the first check that needs the cluster.
 */
const OFFLINE_CLUSTER_VERSION: ClusterVersion = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  spec: { clusterID: '' },
};

const CHECK_NEEDS_CLUSTER = 'needs --cluster-version';

/** The upgraders' URL probe: validate runs no step, so no URL is ever probed. */
const NO_URL_PROBE: UrlProbe = () => Promise.reject(new Error('validate probes no URL'));

// ---- upgrade.managed.openshift.io/v1alpha1 UpgradeConfig -------------------------------------

const REASON_FIELD: Partial<Record<ValidationReasonName, string>> = {
  InvalidUpgradeAt: 'spec.upgradeAt',
  MissingTarget: 'spec.desired',
  InvalidImage: 'spec.desired.image',
  ImageUnresolvable: 'spec.desired.image',
  InvalidVersion: 'spec.desired.version',
  Downgrade: 'spec.desired.version',
  SameVersion: 'spec.desired.version',
  NotInAvailableUpdates: 'spec.desired.version',
  NotInUpdateGraph: 'spec.desired.version',
};

async function managedUpgradeConfigRules(object: JsonObject, ctx: RunContext): Promise<Findings> {
  const cr = object as unknown as ManagedUpgradeConfig;
  const out: Findings = { problems: [], skipped: [] };
  const name = cr.metadata?.name ?? '';
  const settings = defaultOperatorSettings();
  if (!acceptsUpgradeConfigName(settings, name)) {
    out.problems.push(
      operatorProblem(
        'warning',
        ignoredUpgradeConfigMessage(settings.upgradeConfigNames, settings.watchNamespace, name),
        { field: 'metadata.name', reason: 'Ignored' },
      ),
    );
  }
  const namespace = cr.metadata?.namespace;
  if (namespace !== undefined && namespace !== settings.watchNamespace) {
    out.problems.push(
      operatorProblem(
        'warning',
        `the operator watches UpgradeConfigs in ${settings.watchNamespace} only (WATCH_NAMESPACE) and never sees this one`,
        { field: 'metadata.namespace', reason: 'Ignored' },
      ),
    );
  }

  // The operator's validation, with look-ups that only record that they were reached.
  let registryAsked = false;
  let graphAsked = false;
  const deps: ValidationDeps = {
    releaseVersionOfImage: () => {
      registryAsked = true;
      return Promise.reject(new Error('offline: the registry is not asked'));
    },
    fetchGraph: () => {
      graphAsked = true;
      return Promise.reject(new Error('offline: the update service is not asked'));
    },
  };
  const cv = ctx.clusterVersion ?? OFFLINE_CLUSTER_VERSION;
  const cincinnati = ctx.operatorConfig.validation.cincinnati;
  const v = await validateUpgradeConfig(
    { config: cr, clusterVersion: cv, cincinnatiEnabled: cincinnati, now: ctx.nowMs },
    deps,
  );
  const desired = cr.spec?.desired ?? {};
  if (registryAsked) {
    out.skipped.push(`the version of the release image ${desired.image ?? ''} (needs the image registry)`);
    out.skipped.push(
      'comparing that version with the cluster’s: no downgrade, not the same version (needs the image registry and --cluster-version)',
    );
  } else if (ctx.clusterVersion === undefined && v.reason === 'UnknownCurrentVersion') {
    out.skipped.push(
      `comparing ${desired.version ?? ''} with the cluster’s current version: no downgrade, not the same version (${CHECK_NEEDS_CLUSTER})`,
    );
    out.skipped.push(
      `${desired.version ?? ''} among the ClusterVersion’s available or conditional updates, or with another channel than the cluster’s${cincinnati ? ' in the update graph' : ''} (${CHECK_NEEDS_CLUSTER})`,
    );
  } else if (graphAsked) {
    const from = currentClusterVersion(cv) ?? '';
    out.skipped.push(
      `${desired.version ?? ''} reachable from ${from} in channel ${desired.channel ?? ''} of the update graph (needs the update service)`,
    );
  } else {
    const refusal = validationRefusal(v);
    if (refusal)
      out.problems.push(
        operatorProblem(isValidationFailure(v) ? 'error' : 'warning', refusal.message, {
          field: REASON_FIELD[v.reason],
          reason: refusal.reason,
        }),
      );
  }

  // A past upgradeAt is a state, not an error: within the window the upgrade starts at once; past
  // it an upgrade that has not commenced fails by its upgrader's failure policy (OSD has one, ARO none).
  const policy = cr.spec ? upgraderFor(cr.spec.type, NO_URL_PROBE).failurePolicy : undefined;
  const failure = policy?.failsUnlessCommenced({ upgradeConfig: cr, config: ctx.operatorConfig }, ctx.nowMs);
  if (failure !== undefined)
    out.problems.push(operatorProblem('warning', failure, { field: 'spec.upgradeAt', reason: 'UpgradeFailed' }));
  return out;
}

/** The `config.yaml` of the managed operator's ConfigMap (undefined when missing). */
function operatorConfigText(object: JsonObject): string | undefined {
  const data = isJsonObject(object['data']) ? object['data'] : {};
  const text = data[MANAGED_UPGRADE_CONFIGMAP_KEY];
  return typeof text === 'string' ? text : undefined;
}

/** The managed operator's ConfigMap: every {@link parseManagedOperatorConfig} problem. */
function operatorConfigMapRules(object: JsonObject): Findings {
  const { problems } = parseManagedOperatorConfig(operatorConfigText(object));
  return {
    problems: problems.map((p) =>
      operatorProblem(p.severity, formatConfigProblems([p]), {
        field: `data[${MANAGED_UPGRADE_CONFIGMAP_KEY}]${p.key === MANAGED_UPGRADE_CONFIGMAP_KEY ? '' : `.${p.key}`}`,
        reason: 'InvalidOperatorConfig',
      }),
    ),
    skipped: [],
  };
}

function isOperatorConfigMap(object: JsonObject): boolean {
  const m = isJsonObject(object['metadata']) ? object['metadata'] : {};
  return (
    object['apiVersion'] === 'v1' && object['kind'] === 'ConfigMap' && m['name'] === MANAGED_UPGRADE_CONFIGMAP_NAME
  );
}

// ---- managedupgrade.appuio.io/v1beta1 ------------------------------------------------------

/** The run-time settings of an UpgradeJob's `spec.config` that fall back to defaults (logged by the controller). */
function jobConfigProblems(job: UpgradeJob, fieldPrefix: (field: string) => string): ValidationProblem[] {
  const out: ValidationProblem[] = [];
  const timing = jobTiming(job);
  if (!timing.ok) {
    out.push(operatorProblem('error', timing.error, { field: leadingField(timing.error), reason: 'InvalidSpec' }));
  } else {
    for (const p of timing.timing.problems)
      out.push(operatorProblem('warning', fieldPrefix(p), { field: fieldPrefix(leadingField(p) ?? 'spec.config') }));
  }
  for (const phase of ['preUpgradeHealthChecks', 'postUpgradeHealthChecks'] as const) {
    const t = effectiveHealthCheckTimeout(job.spec?.config[phase] ?? {});
    if (t.problem !== undefined)
      out.push(operatorProblem('warning', t.problem, { field: fieldPrefix(`spec.config.${phase}.timeout`) }));
  }
  for (const p of poolDelays(job).problems)
    out.push(
      operatorProblem('warning', fieldPrefix(p), {
        field: fieldPrefix(leadingField(p) ?? 'spec.config.machineConfigPools'),
      }),
    );
  return out;
}

function scheduledUpgradeConfigRules(object: JsonObject, ctx: RunContext): Findings {
  const config = object as unknown as ScheduledUpgradeConfig;
  const out: Findings = { problems: [], skipped: [] };
  const compiled = compileSchedulingPolicy(config.spec, ctx.localZoneId);
  if (!compiled.ok) {
    const p = compiled.problem;
    out.problems.push(operatorProblem('error', `${p.field}: ${p.message}`, { field: p.field, reason: p.reason }));
  } else {
    const next = nextScheduleTimes(
      compiled.policy.schedule,
      ctx.nowMs,
      ScheduledUpgradeConfigDefaults.nextPossibleSchedules,
    );
    if (next.times.length === 0 && next.error !== undefined)
      out.problems.push(operatorProblem('error', next.error, { field: 'spec.schedule', reason: 'NoNextSchedule' }));
  }
  // The template's settings as each UpgradeJob made from it will carry them.
  const job = buildScheduledUpgradeJob(config, { startAfterMs: ctx.nowMs, startBeforeMs: ctx.nowMs });
  out.problems.push(
    ...jobConfigProblems(job, (text) => text.replace(/^spec\.config\b/, 'spec.jobTemplate.spec.config')),
  );
  return out;
}

function upgradeJobRules(object: JsonObject, ctx: RunContext): Findings {
  const job = object as unknown as UpgradeJob;
  const out: Findings = { problems: jobConfigProblems(job, (text) => text), skipped: [] };
  const desired = desiredUpdateOf(job);
  if (desired && job.spec?.desiredVersionCheckAvailability !== false) {
    const cv = ctx.clusterVersion;
    if (cv === undefined) {
      out.skipped.push(
        `the desired release among the ClusterVersion’s available updates when the job starts (${CHECK_NEEDS_CLUSTER})`,
      );
    } else if (!sameDesiredUpdate(cv.spec.desiredUpdate, desired) && !isDesiredReleaseAvailable(cv, desired)) {
      out.problems.push(
        operatorProblem('warning', UpgradeJobMessage.withdrawn(desired.version ?? ''), {
          field: 'spec.desiredVersion',
          reason: UpgradeJobReason.UpgradeWithdrawn,
        }),
      );
    }
  }
  return out;
}

function upgradeJobHookRules(object: JsonObject): Findings {
  const hook = object as unknown as UpgradeJobHook;
  const problems: ValidationProblem[] = [];
  const anyJob: UpgradeJob = { metadata: { labels: {} } };
  (hook.spec?.selector?.matchExpressions ?? []).forEach((labelSelectorRequirement, index) => {
    // One requirement at a time: the selector's verdict on a job is "invalid" whatever its labels.
    const alone: UpgradeJobHook = {
      ...hook,
      spec: { ...hook.spec, selector: { matchExpressions: [labelSelectorRequirement] } },
    };
    if (selectorMatches(alone, anyJob) === 'invalid') {
      problems.push(
        operatorProblem('error', 'hook skipped: its selector is invalid', {
          field: `spec.selector.matchExpressions[${index}]`,
          reason: 'invalidSelector',
        }),
      );
    }
  });
  return { problems, skipped: [] };
}

function suspensionWindowRules(object: JsonObject): Findings {
  const { problems } = suspensionWindowMatches(object, [], []);
  return {
    problems: problems.map((p) =>
      operatorProblem('error', p, { field: leadingField(p), reason: SUSPENSION_WINDOW_INVALID_REASON }),
    ),
    skipped: [],
  };
}

function managedClusterVersionRules(object: JsonObject, ctx: RunContext): Findings {
  const r = renderClusterVersion((object as unknown as ManagedClusterVersion).spec, ctx.nowMs);
  if (r.ok) return { problems: [], skipped: [] };
  return {
    problems: r.errors.map((e) =>
      operatorProblem('error', unrenderableMessage([e]), {
        field: leadingField(e),
        reason: ClusterVersionSyncEventReason.InvalidSpec,
      }),
    ),
    skipped: [],
  };
}

async function nodeForceDrainRules(object: JsonObject, ctx: RunContext): Promise<Findings> {
  const fd = object as unknown as NodeForceDrain;
  const key = objectRef(object);
  const reason = NodeForceDrainProblemReason.Invalid;
  const parsed = parseForceDrainSpec(fd.spec);
  if (!parsed.ok)
    return {
      problems: parsed.problems.map((p) =>
        operatorProblem('error', invalidForceDrainMessage(key, [p]), { field: leadingField(p), reason }),
      ),
      skipped: [],
    };
  const program = parsed.settings.podJQSelector;
  if (program === undefined) return { problems: [], skipped: [] };
  const compiled = await ctx.jq.compile(program);
  if (compiled.ok) return { problems: [], skipped: [] };
  if (!compiled.compileError)
    return { problems: [], skipped: [`compiling spec.podJQSelector (jq could not be run: ${compiled.error})`] };
  return {
    problems: [
      operatorProblem('error', invalidForceDrainMessage(key, [podJqSelectorProblem(compiled.error)]), {
        field: 'spec.podJQSelector',
        reason,
      }),
    ],
    skipped: [],
  };
}

const KINDS: readonly KindRules[] = [
  {
    apiVersion: `${MANAGED_UPGRADE_GROUP}/v1alpha1`,
    kind: 'UpgradeConfig',
    crd: managedUpgradeConfigCrd,
    rules: managedUpgradeConfigRules,
  },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'UpgradeConfig',
    crd: scheduledUpgradeConfigCrd,
    rules: scheduledUpgradeConfigRules,
  },
  { apiVersion: `${APPUIO_GROUP}/v1beta1`, kind: 'UpgradeJob', crd: upgradeJobCrd, rules: upgradeJobRules },
  { apiVersion: `${APPUIO_GROUP}/v1beta1`, kind: 'UpgradeJobHook', crd: upgradeJobHookCrd, rules: upgradeJobHookRules },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'UpgradeSuspensionWindow',
    crd: upgradeSuspensionWindowCrd,
    rules: suspensionWindowRules,
  },
  {
    apiVersion: `${APPUIO_GROUP}/v1beta1`,
    kind: 'ClusterVersion',
    crd: managedClusterVersionCrd,
    rules: managedClusterVersionRules,
  },
  { apiVersion: `${APPUIO_GROUP}/v1beta1`, kind: 'NodeForceDrain', crd: nodeForceDrainCrd, rules: nodeForceDrainRules },
];

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
    const f = operatorConfigMapRules(o);
    return done(f.problems, f.skipped);
  }
  const rules = KINDS.find((k) => k.apiVersion === apiVersion && k.kind === kind);
  if (rules === undefined) {
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
  const admission = admissionProblems(o, rules.crd());
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
  const ctx: RunContext = {
    ...options,
    operatorConfig: parseManagedOperatorConfig(configMap && operatorConfigText(configMap.object)).config,
  };
  const out: ObjectValidation[] = [];
  for (const o of objects) out.push(await validateOne(o, ctx));
  return out;
}
