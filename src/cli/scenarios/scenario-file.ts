/**
 * Scenario files of `upgrade-operator simulate` (YAML; the named scenarios are the files of
 * `scenarios/`, which users copy and change, or `upgrade-operator snapshot` writes). A file names
 * the cluster (profile, version, channel, or its nodes, MachineSets, pools and firing alerts),
 * whether this project's operator runs in the loop (and its ConfigMap), manifests to apply,
 * actions (faults and interventions) with their triggers, when the run ends, and what a good run
 * looks like. Parsing and validation are pure; docs/simulation.md documents the format.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { parseDocument } from '../../lib/yaml-package.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { isJsonObject, type JsonValue } from '../../lib/json.js';
import { compileGoRegexp } from '../../lib/go-regexp.js';
import { didYouMean } from '../../lib/did-you-mean.js';
import { documentValue } from '../../lib/yaml-text.js';
import { UpgradeConditionType } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { UpgradeJobConditionType } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { COMPONENTS } from '../../sim/releases/payload-components.js';
import { schemaProblems } from '../schema-problems.js';
import { explicitTopologyProblems } from '../../sim/profiles/explicit.js';

const Name = Type.String({ minLength: 1 });
const Duration = Type.String({ minLength: 1, description: 'Go duration of virtual time, e.g. 40m, 1h30m' });

/** Faults of the embedded API server for chosen clients (src/apiserver/faults.ts). */
const ApiFaultsSchema = Type.Object(
  {
    errorRate: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'share of the chosen clients’ resource requests that fail (e.g. 0.05)',
      }),
    ),
    errors: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Literal('conflict'),
          Type.Literal('internal'),
          Type.Literal('unavailable'),
          Type.Literal('throttled'),
          Type.Literal('timeout'),
        ]),
        {
          minItems: 1,
          uniqueItems: true,
          description:
            'which errors (default all): 409 conflict (updates only), 500 internal, 503 unavailable, 429 throttled, 504 timeout',
        },
      ),
    ),
    watchDisconnectEvery: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Go duration: the chosen clients’ watches are cut after about this long (drawn between half and one and a half times it)',
      }),
    ),
    watchResumeGone: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'share of resumed watches answered 410 Expired (the informer re-lists)',
      }),
    ),
    clients: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'regular expression on the User-Agent (default: every client but the simulated cluster’s own, `simulated-cluster/…`)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** What can make an action happen (all given triggers must hold). */
const TriggerSchema = Type.Object(
  {
    phase: Type.Optional(Type.String({ description: 'the UpgradeConfig history phase' })),
    stepStarted: Type.Optional(Type.String({ description: 'this history condition is present and False' })),
    stepDone: Type.Optional(Type.String({ description: 'this history condition is True' })),
    workersUpdated: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'at least this many worker machines updated while the worker pool rolls',
      }),
    ),
    offered: Type.Optional(
      Type.String({ description: 'ClusterVersion offers an available update whose version starts with this' }),
    ),
    jobCondition: Type.Optional(
      Type.String({ description: 'the scheduled flow: the newest UpgradeJob has this condition True' }),
    ),
    progressing: Type.Optional(Type.String({ description: 'the ClusterVersion Progressing message contains this' })),
  },
  { additionalProperties: false },
);

/** What an action does (exactly one key). */
const DoSchema = Type.Object(
  {
    degradeOperator: Type.Optional(
      Type.Object({ name: Name, reason: Name, message: Name }, { additionalProperties: false }),
    ),
    makeOperatorUnavailable: Type.Optional(
      Type.Object(
        { name: Name, reason: Type.Optional(Name), message: Type.Optional(Name) },
        { additionalProperties: false },
      ),
    ),
    stickOperator: Type.Optional(Name),
    unstickOperator: Type.Optional(Name),
    setUpgradeable: Type.Optional(
      Type.Object(
        { name: Name, upgradeable: Type.Boolean(), reason: Type.Optional(Name), message: Type.Optional(Name) },
        { additionalProperties: false },
      ),
    ),
    clearOperatorFaults: Type.Optional(Name),
    alertmanager: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('error')])),
    prometheus: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('error')])),
    updateService: Type.Optional(
      Type.Union([Type.Literal('up'), Type.Literal('refused'), Type.Literal('unavailable')]),
    ),
    setRisks: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.Union([Type.Boolean(), Type.Literal('error')]), {
        description:
          'the CVO’s risk table becomes this: conditional-update risk name → applies (true), does not (false) or cannot be evaluated (error); the CVO re-evaluates a risk at most once an hour',
      }),
    ),
    blockNodeJoin: Type.Optional(Type.Object({ machineSet: Name }, { additionalProperties: false })),
    restartOperator: Type.Optional(Type.Literal(true)),
    stopOperator: Type.Optional(
      Type.Literal(true, { description: 'the operator process goes away (e.g. its node is down) until startOperator' }),
    ),
    startOperator: Type.Optional(Type.Literal(true, { description: 'a new operator process starts' })),
    apply: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
    setChannel: Type.Optional(Name),
    upgradeToLatest: Type.Optional(
      Type.String({
        description:
          'set desiredUpdate (version and image) to the newest offered update whose version starts with this',
      }),
    ),
    ocmReschedule: Type.Optional(
      Type.Object(
        { nextRunIn: Duration },
        { additionalProperties: false, description: 'move the first OCM policy to this long after the scenario start' },
      ),
    ),
    ocmCancel: Type.Optional(
      Type.Literal(true, {
        description: 'cancel the first OCM policy (state cancelled), as an SRE cancelling the upgrade in OCM does',
      }),
    ),
    restartClusterVersionOperator: Type.Optional(
      Type.Literal(true, {
        description:
          'the cluster-version operator pod restarts: no status for the restart gap, then its counter starts from zero again',
      }),
    ),
    silence: Type.Optional(
      Type.Object(
        {
          comment: Name,
          createdBy: Name,
          matchers: Type.Array(
            Type.Object(
              { name: Name, value: Type.String(), isRegex: Type.Optional(Type.Boolean()) },
              { additionalProperties: false },
            ),
            { minItems: 1 },
          ),
          startsAt: Type.Optional(
            Type.String({ description: 'RFC 3339 or `{{ +<duration> }}` after the start (default the start)' }),
          ),
          endsAt: Type.String({ description: 'RFC 3339 or `{{ +<duration> }}` after the start' }),
        },
        {
          additionalProperties: false,
          description:
            'create a silence in the simulated Alertmanager through its API, as `amtool silence add` does (e.g. one another operator left)',
        },
      ),
    ),
    apiFaults: Type.Optional(
      Type.Union([ApiFaultsSchema, Type.Literal('off')], {
        description: 'replace the API server’s faults (`off` or {}: none)',
      }),
    ),
    apiOutage: Type.Optional(
      Type.Object(
        { for: Duration },
        {
          additionalProperties: false,
          description: 'the API server is down for the chosen clients this long (connections dropped, watches cut)',
        },
      ),
    ),
    pausePool: Type.Optional(
      Type.String({ minLength: 1, description: 'set spec.paused on this MachineConfigPool, as an administrator does' }),
    ),
    unpausePool: Type.Optional(
      Type.String({ minLength: 1, description: 'clear spec.paused on this MachineConfigPool' }),
    ),
    patch: Type.Optional(
      Type.Object(
        {
          apiVersion: Name,
          kind: Name,
          namespace: Type.Optional(Name),
          name: Name,
          subresource: Type.Optional(
            Type.Literal('status', {
              description:
                'patch the status subresource, as `kubectl patch --subresource=status` (e.g. a status history left by another operator)',
            }),
          ),
          merge: Type.Record(Type.String(), Type.Unknown()),
        },
        {
          additionalProperties: false,
          description: 'a JSON merge patch of one object, as `kubectl patch --type merge` (e.g. a new desired version)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const ActionSchema = Type.Object(
  {
    name: Name,
    after: Type.Optional(Duration),
    when: Type.Optional(TriggerSchema),
    do: DoSchema,
  },
  { additionalProperties: false },
);

const ObjectRefSchema = Type.Object(
  { apiVersion: Name, kind: Name, namespace: Type.Optional(Name), labelSelector: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

const ObjectConditionSchema = Type.Object(
  {
    apiVersion: Name,
    kind: Name,
    namespace: Type.Optional(Name),
    type: Name,
    status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')]),
    reason: Type.Optional(Type.String({ description: 'and this reason' })),
  },
  { additionalProperties: false, description: 'some object of this kind has this condition' },
);

const ExpectSchema = Type.Object(
  {
    phase: Type.Optional(Type.String({ description: 'the UpgradeConfig ends in this phase' })),
    conditionTrue: Type.Optional(Type.Array(Name, { description: 'history conditions that end True' })),
    clusterVersionCompleted: Type.Optional(
      Type.Boolean({ description: 'ClusterVersion history ends Completed for the desired version' }),
    ),
    poolsUpdated: Type.Optional(Type.Boolean({ description: 'every MachineConfigPool ends fully updated' })),
    waitingSeen: Type.Optional(
      Type.Array(Type.String(), { description: 'one Waiting message during the run contains all of these' }),
    ),
    events: Type.Optional(
      Type.Array(Type.Object({ namespace: Name, reason: Name }, { additionalProperties: false }), {
        description: 'at least one Event of each',
      }),
    ),
    absent: Type.Optional(Type.Array(ObjectRefSchema, { description: 'no such object is left' })),
    desiredUpdateImage: Type.Optional(
      Type.Boolean({ description: 'ClusterVersion spec.desiredUpdate names a release image' }),
    ),
    actionsRun: Type.Optional(Type.Integer({ minimum: 0 })),
    ocmStates: Type.Optional(
      Type.Array(Name, { description: 'the states the first OCM policy went through, in order, each reported once' }),
    ),
    objectConditions: Type.Optional(Type.Array(ObjectConditionSchema)),
  },
  { additionalProperties: false },
);

/** How the simulated Job controller ends matching Jobs (first match wins; default: success after about a minute). */
const JobRuleSchema = Type.Object(
  {
    match: Type.Object(
      {
        namespace: Type.Optional(Name),
        name: Type.Optional(Type.String({ minLength: 1, description: 'a regular expression the Job name must match' })),
        labels: Type.Optional(Type.Record(Type.String(), Type.String())),
      },
      { additionalProperties: false },
    ),
    outcome: Type.Union([Type.Literal('succeed'), Type.Literal('fail')]),
    after: Type.Optional(Duration),
  },
  { additionalProperties: false },
);

const RoleSchema = Type.Union([Type.Literal('master'), Type.Literal('worker'), Type.Literal('infra')]);

/** A node of an explicit node list (`cluster.nodes`, as `upgrade-operator snapshot` writes it). */
const NodeSchema = Type.Object(
  {
    name: Name,
    role: RoleSchema,
    zone: Type.Optional(Name),
    labels: Type.Optional(Type.Record(Type.String(), Type.String())),
    taints: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Name,
            value: Type.Optional(Type.String()),
            effect: Type.Union([
              Type.Literal('NoSchedule'),
              Type.Literal('PreferNoSchedule'),
              Type.Literal('NoExecute'),
            ]),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    machineSet: Type.Optional(Name),
  },
  { additionalProperties: false },
);

const MachineSetSchema = Type.Object(
  {
    name: Name,
    role: Type.Union([Type.Literal('worker'), Type.Literal('infra')]),
    zone: Name,
    instanceType: Type.Optional(Name),
  },
  { additionalProperties: false },
);

const PoolSchema = Type.Object(
  {
    name: RoleSchema,
    maxUnavailable: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+%?$' })])),
    paused: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const FiringAlertSchema = Type.Object(
  {
    labels: Type.Record(Type.String(), Type.String(), { description: 'the alert’s labels, alertname among them' }),
    annotations: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

/** What `upgrade-operator snapshot` found that the run does not act on: for the reader. */
const SnapshotInfoSchema = Type.Object(
  {
    takenAt: Type.String({ description: 'RFC 3339: when the snapshot was taken' }),
    anonymized: Type.Optional(Type.Boolean()),
    availableUpdates: Type.Optional(Type.Array(Name, { description: 'ClusterVersion status.availableUpdates' })),
    conditionalUpdates: Type.Optional(
      Type.Array(
        Type.Object(
          { version: Name, risks: Type.Array(Type.String()), recommended: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
        { description: 'ClusterVersion status.conditionalUpdates: version, risk names, the Recommended status' },
      ),
    ),
    notes: Type.Optional(Type.Array(Type.String(), { description: 'what the file does not reproduce, and why' })),
  },
  { additionalProperties: false },
);

/** The file. */
export const ScenarioFileSchema = Type.Object(
  {
    description: Name,
    start: Type.Optional(Type.String({ description: 'virtual start time, RFC 3339 (default 2026-03-02T00:00:00Z)' })),
    cluster: Type.Object(
      {
        profile: Type.Optional(Name),
        version: Name,
        channel: Name,
        workers: Type.Optional(Type.Integer({ minimum: 0, description: "worker nodes (default: the profile's)" })),
        infraNodes: Type.Optional(Type.Integer({ minimum: 0, description: 'nodes of an infra pool (default 0)' })),
        nodes: Type.Optional(
          Type.Array(NodeSchema, {
            minItems: 1,
            description: 'the nodes, replacing the profile’s (not with workers or infraNodes)',
          }),
        ),
        machineSets: Type.Optional(
          Type.Array(MachineSetSchema, { description: 'with nodes: the MachineSets that own nodes naming them' }),
        ),
        pools: Type.Optional(
          Type.Array(PoolSchema, { description: 'settings of the master, worker and infra pools at install' }),
        ),
        alerts: Type.Optional(
          Type.Array(FiringAlertSchema, { description: 'alerts firing from the start to the end of the run' }),
        ),
        jobs: Type.Optional(Type.Array(JobRuleSchema, { description: 'how batch Jobs (e.g. hook Jobs) end' })),
        apiFaults: Type.Optional(ApiFaultsSchema),
        apiOutageOnReboot: Type.Optional(
          Type.Boolean({
            description:
              'single-node: the API server is down for the chosen clients while the node is NotReady (default true)',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    operator: Type.Optional(
      Type.Object(
        {
          flows: Type.Optional(
            Type.Array(Type.Union([Type.Literal('managed'), Type.Literal('scheduled')]), {
              minItems: 1,
              description: 'as `run --flows` (default managed)',
            }),
          ),
          config: Type.Optional(Type.String({ description: 'the managed flow: the operator ConfigMap `config.yaml`' })),
          namespace: Type.Optional(Name),
        },
        { additionalProperties: false },
      ),
    ),
    ocm: Type.Optional(
      Type.Object(
        {
          nodeDrainGracePeriod: Type.Optional(
            Type.Object({ value: Type.Integer({ minimum: 0 }), unit: Name }, { additionalProperties: false }),
          ),
          agent: Type.Optional(
            Type.Boolean({
              description:
                'the operator reaches OCM through the simulated in-cluster OCM agent: {{ ocmUrl }} is then the agent’s URL, whose path names the agent’s service address (default false)',
            }),
          ),
          policies: Type.Array(
            Type.Object(
              {
                version: Name,
                nextRunIn: Duration,
                upgradeType: Type.Optional(Type.Union([Type.Literal('OSD'), Type.Literal('ARO')])),
                capacityReservation: Type.Optional(Type.Boolean()),
              },
              { additionalProperties: false },
            ),
          ),
        },
        {
          additionalProperties: false,
          description: 'a simulated OCM with these upgrade policies; the operator config reaches it as {{ ocmUrl }}',
        },
      ),
    ),
    manifests: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
    actions: Type.Optional(Type.Array(ActionSchema)),
    end: Type.Optional(
      Type.Object(
        {
          phase: Type.Optional(
            Type.Array(Name, {
              description: 'stop once the UpgradeConfig reaches one of these phases (default Upgraded, Failed)',
            }),
          ),
          clusterUpgraded: Type.Optional(
            Type.Boolean({
              description: 'stop once ClusterVersion has Completed its desired update and every pool is updated',
            }),
          ),
          objectCondition: Type.Optional(ObjectConditionSchema),
          timeout: Type.Optional(Duration),
        },
        { additionalProperties: false },
      ),
    ),
    expect: Type.Optional(ExpectSchema),
    snapshot: Type.Optional(SnapshotInfoSchema),
  },
  { additionalProperties: false },
);

export type ScenarioFile = Static<typeof ScenarioFileSchema>;
export type ScenarioAction = Static<typeof ActionSchema>;
export type ScenarioTrigger = Static<typeof TriggerSchema>;
export type ScenarioDo = Static<typeof DoSchema>;
export type ScenarioExpect = Static<typeof ExpectSchema>;
export type ObjectRef = Static<typeof ObjectRefSchema>;
export type ObjectCondition = Static<typeof ObjectConditionSchema>;
export type ScenarioJobRule = Static<typeof JobRuleSchema>;
export type ScenarioApiFaults = Static<typeof ApiFaultsSchema>;

/** A parsed scenario, or every problem found (`path: message`). */
export type ParsedScenario = { ok: true; scenario: ScenarioFile } | { ok: false; problems: string[] };

/** Virtual ms of a Go duration field, or a problem. */
function durationProblem(path: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const r = parseGoDurationMs(text);
  return r.ok ? (r.ms < 0 ? `${path}: must not be negative` : undefined) : `${path}: ${r.error}`;
}

/** The managed flow's history phases, as triggers and expectations name them. */
const PHASES = ['New', 'Pending', 'Upgrading', 'Upgraded', 'Failed'];
/** The ClusterOperators of the simulated release payload. */
const CLUSTER_OPERATORS = COMPONENTS.flatMap((component) => component.clusterOperators ?? []);

/**
 * Names that must be among the known ones, or the trigger never fires and the expectation never
 * holds: step conditions, UpgradeJob conditions, phases, ClusterOperators. Each unknown one is a
 * problem with its path and the closest known name.
 */
function nameProblems(file: ScenarioFile): string[] {
  const out: string[] = [];
  const check = (path: string, name: string | undefined, known: readonly string[], what: string): void => {
    if (name !== undefined && !known.includes(name))
      out.push(`${path}: unknown ${what} ${JSON.stringify(name)}${didYouMean(name, known)}`);
  };
  const steps = Object.values(UpgradeConditionType);
  const jobConditions = Object.values(UpgradeJobConditionType);
  file.actions?.forEach((action, index) => {
    const when = `/actions/${index}/when`;
    check(`${when}/stepStarted`, action.when?.stepStarted, steps, 'step condition');
    check(`${when}/stepDone`, action.when?.stepDone, steps, 'step condition');
    check(`${when}/jobCondition`, action.when?.jobCondition, jobConditions, 'UpgradeJob condition');
    check(`${when}/phase`, action.when?.phase, PHASES, 'phase');
    const act = `/actions/${index}/do`;
    check(`${act}/degradeOperator/name`, action.do.degradeOperator?.name, CLUSTER_OPERATORS, 'ClusterOperator');
    check(
      `${act}/makeOperatorUnavailable/name`,
      action.do.makeOperatorUnavailable?.name,
      CLUSTER_OPERATORS,
      'ClusterOperator',
    );
    check(`${act}/stickOperator`, action.do.stickOperator, CLUSTER_OPERATORS, 'ClusterOperator');
    check(`${act}/unstickOperator`, action.do.unstickOperator, CLUSTER_OPERATORS, 'ClusterOperator');
    check(`${act}/setUpgradeable/name`, action.do.setUpgradeable?.name, CLUSTER_OPERATORS, 'ClusterOperator');
    check(`${act}/clearOperatorFaults`, action.do.clearOperatorFaults, CLUSTER_OPERATORS, 'ClusterOperator');
  });
  check('/expect/phase', file.expect?.phase, PHASES, 'phase');
  file.expect?.conditionTrue?.forEach((type, index) =>
    check(`/expect/conditionTrue/${index}`, type, steps, 'step condition'),
  );
  return out;
}

/** Parses and validates a scenario file's text. */
export function parseScenarioFile(text: string): ParsedScenario {
  const read = documentValue(parseDocument(text));
  if (!read.ok) return { ok: false, problems: [`YAML: ${read.error}`] };
  const value = read.value;
  if (!Value.Check(ScenarioFileSchema, value))
    return { ok: false, problems: schemaProblems(ScenarioFileSchema, value) };
  const problems: string[] = [...nameProblems(value)];
  value.actions?.forEach((action, index) => {
    const keys = Object.keys(action.do);
    if (keys.length !== 1)
      problems.push(`/actions/${index}/do: exactly one action, got ${keys.length === 0 ? 'none' : keys.join(', ')}`);
    const d = durationProblem(`/actions/${index}/after`, action.after);
    if (d) problems.push(d);
    for (const k of ['restartOperator', 'stopOperator', 'startOperator'] as const) {
      if (action.do[k] && !value.operator) problems.push(`/actions/${index}/do/${k}: the scenario runs no operator`);
    }
    for (const k of ['ocmReschedule', 'ocmCancel'] as const) {
      if (action.do[k] && !value.ocm) problems.push(`/actions/${index}/do/${k}: the scenario has no ocm`);
    }
    if (typeof action.do.apiFaults === 'object')
      problems.push(...apiFaultsProblems(`/actions/${index}/do/apiFaults`, action.do.apiFaults));
    const o = durationProblem(`/actions/${index}/do/apiOutage/for`, action.do.apiOutage?.for);
    if (o) problems.push(o);
    const r = durationProblem(`/actions/${index}/do/ocmReschedule/nextRunIn`, action.do.ocmReschedule?.nextRunIn);
    if (r) problems.push(r);
    const silence = action.do.silence;
    if (silence)
      for (const k of ['startsAt', 'endsAt'] as const) {
        const p = timeProblem(`/actions/${index}/do/silence/${k}`, silence[k]);
        if (p) problems.push(p);
      }
  });
  value.ocm?.policies.forEach((policy, index) => {
    const d = durationProblem(`/ocm/policies/${index}/nextRunIn`, policy.nextRunIn);
    if (d) problems.push(d);
  });
  const flows = value.operator?.flows ?? ['managed'];
  if (value.operator && flows.includes('managed') && value.operator.config === undefined)
    problems.push('/operator/config: the managed flow needs the operator ConfigMap');
  if (value.ocm && !value.operator?.config?.includes('{{ ocmUrl }}'))
    problems.push('/operator/config: with ocm, configManager.ocmBaseUrl must be {{ ocmUrl }}');
  if (value.start !== undefined && Number.isNaN(Date.parse(value.start))) problems.push('/start: not an RFC 3339 time');
  value.cluster.jobs?.forEach((job, index) => {
    const d = durationProblem(`/cluster/jobs/${index}/after`, job.after);
    if (d) problems.push(d);
    const name = job.match.name === undefined ? undefined : compileGoRegexp(job.match.name);
    if (name?.ok === false) problems.push(`/cluster/jobs/${index}/match/name: ${name.error}`);
  });
  if (value.cluster.apiFaults) problems.push(...apiFaultsProblems('/cluster/apiFaults', value.cluster.apiFaults));
  if (value.cluster.apiOutageOnReboot === true && value.cluster.profile !== 'single-node') {
    problems.push('/cluster/apiOutageOnReboot: only a single-node cluster loses its API server while its node reboots');
  }
  if (value.cluster.nodes && (value.cluster.workers !== undefined || value.cluster.infraNodes !== undefined))
    problems.push('/cluster/nodes: not with workers or infraNodes (the list is every node)');
  problems.push(...explicitTopologyProblems(value.cluster, value.cluster.profile ?? 'ha-cloud'));
  value.cluster.alerts?.forEach((alert, index) => {
    if (!alert.labels['alertname']) problems.push(`/cluster/alerts/${index}/labels: alertname is required`);
  });
  const t = durationProblem('/end/timeout', value.end?.timeout);
  if (t) problems.push(t);
  value.manifests?.forEach((manifest, index) => {
    if (typeof manifest['apiVersion'] !== 'string' || typeof manifest['kind'] !== 'string')
      problems.push(`/manifests/${index}: apiVersion and kind are required`);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, scenario: value };
}

/** Virtual ms of a valid Go duration (0 when it does not parse). */
function durationMsOf(text: string): number {
  const r = parseGoDurationMs(text);
  return r.ok ? r.ms : 0;
}

/** Problems of an `apiFaults` block the schema cannot see: its duration and its regular expression. */
function apiFaultsProblems(path: string, scenarioApiFaults: ScenarioApiFaults): string[] {
  const out: string[] = [];
  const d = durationProblem(`${path}/watchDisconnectEvery`, scenarioApiFaults.watchDisconnectEvery);
  if (d) out.push(d);
  else if (
    scenarioApiFaults.watchDisconnectEvery !== undefined &&
    durationMsOf(scenarioApiFaults.watchDisconnectEvery) === 0
  )
    out.push(`${path}/watchDisconnectEvery: must be positive`);
  const clients = scenarioApiFaults.clients === undefined ? undefined : compileGoRegexp(scenarioApiFaults.clients);
  if (clients?.ok === false) out.push(`${path}/clients: ${clients.error}`);
  return out;
}

const TIME_TEMPLATE = /^\{\{\s*\+\s*([^}\s]+)\s*\}\}$/;

/** A problem of a time field: neither `{{ +<duration> }}` nor RFC 3339. */
function timeProblem(path: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const m = TIME_TEMPLATE.exec(text);
  if (m) return durationProblem(path, m[1]);
  return Number.isNaN(Date.parse(text)) ? `${path}: neither {{ +<duration> }} nor an RFC 3339 time` : undefined;
}

/**
 * Replaces every string `{{ +<duration> }}` in a manifest by the RFC 3339 time that long after
 * `start` (virtual epoch ms), so a file can say "ten minutes from the start" for `upgradeAt`.
 * Throws on a bad duration.
 */
export function expandTimes(value: JsonValue, start: number, format: (ms: number) => string): JsonValue {
  if (typeof value === 'string') {
    const m = TIME_TEMPLATE.exec(value);
    if (!m) return value;
    const d = parseGoDurationMs(m[1]!);
    if (!d.ok) throw new Error(`${value}: ${d.error}`);
    return format(start + d.ms);
  }
  if (Array.isArray(value)) return value.map((v) => expandTimes(v, start, format));
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandTimes(v, start, format)]));
  return value;
}
