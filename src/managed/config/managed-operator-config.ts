/**
 * The operator ConfigMap `managed-upgrade-operator-config`, key `config.yaml`
 * (docs/design/managed-flow.md#the-operator-configmap), parsed once into a fully typed
 * configuration.
 *
 * Differences from MUO, on purpose
 * (docs/design/managed-flow.md#configmap-defaults-are-not-applied): the documented defaults are
 * really applied; a missing or bad value falls back to its default and is reported as a
 * {@link ConfigProblem} instead of making every reconcile fail; durations are milliseconds; a bad
 * glob or regular expression is dropped instead of panicking; the HTTP check timeout is limited to
 * 1..60 s only when URLs are set.
 */
import {
  FeatureGate,
  MANAGED_UPGRADE_CONFIG_NAME,
  type FeatureGateName,
  type UpgradeType,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { FieldReader, isMapping } from './config-fields.js';
import type { ConfigProblem } from './config-problem.js';
import { globSyntaxError } from '../../lib/glob.js';
import { compileGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';
import { isHttpUrl } from '../../lib/url.js';
import { readGoYaml } from '../../lib/yaml-text.js';

/** Which provider supplies the upgrade policy (`configManager.source`). */
export type ConfigManagerSource = 'OCM' | 'LOCAL';

/** The whole operator configuration; durations in milliseconds. */
export interface ManagedOperatorConfig {
  /** `spec.type` of UpgradeConfigs the OCM provider writes. */
  upgradeType: UpgradeType;
  configManager: {
    /** The policy provider; undefined: none runs (the sync loop idles, the kill switch is skipped). */
    source: ConfigManagerSource | undefined;
    /** OCM API base URL (or the OCM Agent's, see {@link usesOcmAgent}). */
    ocmBaseUrl: string | undefined;
    /** Name of the UpgradeConfig the LOCAL provider reads. */
    localConfigName: string;
    /** Poll period of the policy provider (±10 % jitter is the caller's). */
    watchIntervalMs: number;
  };
  upgradeWindow: {
    /** OSD: fail an upgrade that has not commenced this long after it started; 0: never. */
    timeOutMs: number;
    /** OSD: send the "delayed" notification after this long; 0: never. */
    delayTriggerMs: number;
  };
  maintenance: {
    /** Length of the control-plane silence and the control-plane timeout threshold. */
    controlPlaneTimeMs: number;
    ignoredAlerts: { controlPlaneCriticals: string[] };
  };
  scale: {
    /** How long capacity reservation waits for the extra nodes. */
    timeOutMs: number;
    /** Extra `hive.openshift.io/machine-pool` values to reserve capacity for (Go `path.Match` globs). */
    extraMachinePools: string[];
  };
  nodeDrain: {
    /** Grace before the drain strategies act; also the drain-failure threshold. */
    timeOutMs: number;
    /** Expected time to drain one node: added to the PDB timeout, sizes the worker silence. */
    expectedNodeDrainTimeMs: number;
    /** When true, NodeKeeper only alerts and never deletes pods. */
    disableDrainStrategies: boolean;
    /** Pods in namespaces matching any of these (unanchored) are never touched by drain strategies. */
    ignoredNamespacePatterns: GoRegexp[];
  };
  healthCheck: { ignoredCriticals: string[]; ignoredNamespaces: string[] };
  extDependencyAvailabilityChecks: { http: { timeoutMs: number; urls: string[] } };
  /** `cincinnati`: check channel-changing upgrades against the update service. */
  validation: { cincinnati: boolean };
  /**
   * `requireRiskAcceptance` (an addition; MUO has no such key): a conditional update the cluster
   * version operator does not recommend (or could not evaluate) is not commenced until the
   * UpgradeConfig accepts each of its risks by name. Off (MUO's behaviour): it is commenced, with
   * a Warning Event and the `UpdateRecommended` condition naming each risk.
   */
  conditionalUpdates: { requireRiskAcceptance: boolean };
  /** `fedramp`: re-initialise FileIntegrity after the upgrade. */
  environment: { fedramp: boolean };
  featureGate: { enabled: FeatureGateName[] };
}

/** The documented defaults, in the ConfigMap's own units (minutes; seconds for the HTTP timeout). */
export const MANAGED_OPERATOR_CONFIG_DEFAULTS = {
  upgradeType: 'ARO',
  watchIntervalMinutes: 60,
  upgradeWindowTimeOutMinutes: 120,
  upgradeWindowDelayTriggerMinutes: 30,
  /** MUO's docs say 90, its struct tag 60; the docs' value. */
  controlPlaneTimeMinutes: 90,
  scaleTimeOutMinutes: 30,
  /** MUO documents none; the OSD production value. */
  nodeDrainTimeOutMinutes: 45,
  expectedNodeDrainTimeMinutes: 8,
  httpTimeoutSeconds: 15,
} as const;

/** Host and port that make the OCM client talk to the in-cluster OCM Agent. */
export const OCM_AGENT_ADDRESS = 'ocm-agent.openshift-ocm-agent-operator.svc.cluster.local:8081';

const TOP_LEVEL_KEYS = [
  'upgradeType',
  'configManager',
  'upgradeWindow',
  'maintenance',
  'scale',
  'nodeDrain',
  'healthCheck',
  'extDependencyAvailabilityChecks',
  'validation',
  'conditionalUpdates',
  'environment',
  'featureGate',
] as const;

const KNOWN_GATES: readonly string[] = Object.values(FeatureGate);
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The parsed configuration and every problem found on the way. */
export interface ParsedManagedOperatorConfig {
  config: ManagedOperatorConfig;
  problems: ConfigProblem[];
}

/**
 * Parses the `config.yaml` text of the operator ConfigMap (YAML 1.1, as gopkg.in/yaml.v2).
 * Never throws: `undefined`, empty or unparsable text gives the defaults plus a problem.
 */
export function parseManagedOperatorConfig(text: string | undefined): ParsedManagedOperatorConfig {
  const problems: ConfigProblem[] = [];
  if (text === undefined || text.trim() === '') {
    problems.push({
      key: 'config.yaml',
      message: 'missing or empty; every setting takes its default',
      severity: 'warning',
    });
    return { config: defaultManagedOperatorConfig(), problems };
  }
  const read = readGoYaml(text);
  if (!read.ok) {
    problems.push({
      key: 'config.yaml',
      message: `is not valid YAML (${read.error}); every setting takes its default`,
      severity: 'error',
    });
    return { config: defaultManagedOperatorConfig(), problems };
  }
  const js = read.value;
  if (js === null || js === undefined) {
    problems.push({
      key: 'config.yaml',
      message: 'missing or empty; every setting takes its default',
      severity: 'warning',
    });
    return { config: defaultManagedOperatorConfig(), problems };
  }
  if (!isMapping(js)) {
    problems.push({
      key: 'config.yaml',
      message: 'must be a YAML mapping; every setting takes its default',
      severity: 'error',
    });
    return { config: defaultManagedOperatorConfig(), problems };
  }
  const root: Record<string, unknown> = { ...js };
  const reader = new FieldReader(problems, root);
  reader.unknownKeys(TOP_LEVEL_KEYS);
  return { config: readConfig(reader), problems };
}

/** The configuration with every default applied (what an empty ConfigMap gives). */
export function defaultManagedOperatorConfig(): ManagedOperatorConfig {
  return readConfig(new FieldReader([], {}));
}

/** True when `gate` is listed in `featureGate.enabled`. */
export function isFeatureGateEnabled(config: ManagedOperatorConfig, gate: FeatureGateName): boolean {
  return config.featureGate.enabled.includes(gate);
}

/** True when `configManager.ocmBaseUrl` points at the OCM Agent rather than the OCM API. */
export function usesOcmAgent(config: ManagedOperatorConfig): boolean {
  return config.configManager.ocmBaseUrl?.includes(OCM_AGENT_ADDRESS) ?? false;
}

function readConfig(fieldReader: FieldReader): ManagedOperatorConfig {
  const d = MANAGED_OPERATOR_CONFIG_DEFAULTS;
  const cm = fieldReader.section('configManager', ['source', 'ocmBaseUrl', 'localConfigName', 'watchInterval']);
  const source = readSource(cm);
  const window = fieldReader.section('upgradeWindow', ['timeOut', 'delayTrigger']);
  const maintenance = fieldReader.section('maintenance', ['controlPlaneTime', 'ignoredAlerts']);
  const ignoredAlerts = maintenance.section('ignoredAlerts', ['controlPlaneCriticals']);
  const scale = fieldReader.section('scale', ['timeOut', 'extraMachinePools']);
  const drain = fieldReader.section('nodeDrain', [
    'timeOut',
    'expectedNodeDrainTime',
    'disableDrainStrategies',
    'ignoredNamespacePatterns',
  ]);
  const health = fieldReader.section('healthCheck', ['ignoredCriticals', 'ignoredNamespaces']);
  const ext = fieldReader.section('extDependencyAvailabilityChecks', ['http']);
  const http = ext.section('http', ['timeout', 'urls']);
  const urls = http.stringList('urls', (u) => (isHttpUrl(u) ? undefined : 'must be an http or https URL'));
  return {
    upgradeType: readUpgradeType(fieldReader),
    configManager: {
      source,
      ocmBaseUrl: readOcmBaseUrl(cm, source),
      localConfigName: readLocalConfigName(cm, source),
      watchIntervalMs: cm.minutes('watchInterval', { default: d.watchIntervalMinutes, range: 'positive' }),
    },
    upgradeWindow: {
      timeOutMs: window.minutes('timeOut', { default: d.upgradeWindowTimeOutMinutes, range: 'nonNegative' }),
      delayTriggerMs: window.minutes('delayTrigger', {
        default: d.upgradeWindowDelayTriggerMinutes,
        range: 'nonNegative',
      }),
    },
    maintenance: {
      controlPlaneTimeMs: maintenance.minutes('controlPlaneTime', {
        default: d.controlPlaneTimeMinutes,
        range: 'positive',
        required: true,
      }),
      ignoredAlerts: { controlPlaneCriticals: ignoredAlerts.stringList('controlPlaneCriticals') },
    },
    scale: {
      timeOutMs: scale.minutes('timeOut', { default: d.scaleTimeOutMinutes, range: 'positive', required: true }),
      extraMachinePools: scale.stringList('extraMachinePools', (path) => {
        const err = globSyntaxError(path);
        return err === undefined ? undefined : `${err} ${JSON.stringify(path)}`;
      }),
    },
    nodeDrain: {
      timeOutMs: drain.minutes('timeOut', { default: d.nodeDrainTimeOutMinutes, range: 'positive', required: true }),
      expectedNodeDrainTimeMs: drain.minutes('expectedNodeDrainTime', {
        default: d.expectedNodeDrainTimeMinutes,
        range: 'positive',
        required: true,
      }),
      disableDrainStrategies: drain.bool('disableDrainStrategies', false),
      ignoredNamespacePatterns: readNamespacePatterns(drain),
    },
    healthCheck: {
      ignoredCriticals: health.stringList('ignoredCriticals'),
      ignoredNamespaces: health.stringList('ignoredNamespaces'),
    },
    extDependencyAvailabilityChecks: { http: { timeoutMs: readHttpTimeout(http, urls.length > 0), urls } },
    validation: { cincinnati: fieldReader.section('validation', ['cincinnati']).bool('cincinnati', false) },
    conditionalUpdates: {
      requireRiskAcceptance: fieldReader
        .section('conditionalUpdates', ['requireRiskAcceptance'])
        .bool('requireRiskAcceptance', false),
    },
    environment: { fedramp: fieldReader.section('environment', ['fedramp']).bool('fedramp', false) },
    featureGate: { enabled: readFeatureGates(fieldReader.section('featureGate', ['enabled'])) },
  };
}

function readUpgradeType(fieldReader: FieldReader): UpgradeType {
  const v = fieldReader.string('upgradeType');
  if (v === undefined || v === '') return MANAGED_OPERATOR_CONFIG_DEFAULTS.upgradeType;
  if (v === 'OSD' || v === 'ARO') return v;
  fieldReader.report('upgradeType', `must be OSD or ARO (got ${JSON.stringify(v)}); using the default ARO`);
  return MANAGED_OPERATOR_CONFIG_DEFAULTS.upgradeType;
}

function readSource(cm: FieldReader): ConfigManagerSource | undefined {
  const v = cm.string('source');
  if (v === undefined || v === '') return undefined;
  const upper = v.toUpperCase();
  if (upper === 'OCM' || upper === 'LOCAL') return upper;
  cm.report('source', `must be OCM or LOCAL (got ${JSON.stringify(v)}); no upgrade policy provider runs`);
  return undefined;
}

function readOcmBaseUrl(cm: FieldReader, source: ConfigManagerSource | undefined): string | undefined {
  const v = cm.string('ocmBaseUrl');
  if (v === undefined || v === '') {
    if (source === 'OCM') cm.report('ocmBaseUrl', 'must be set when source is OCM; the OCM provider cannot run');
    return undefined;
  }
  if (isHttpUrl(v)) return v;
  cm.report('ocmBaseUrl', `must be an http or https URL (got ${JSON.stringify(v)}); ignored`);
  return undefined;
}

function readLocalConfigName(cm: FieldReader, source: ConfigManagerSource | undefined): string {
  const v = cm.string('localConfigName');
  if (v === undefined || v === '') {
    if (source === 'LOCAL')
      cm.report('localConfigName', `not set; using the default ${MANAGED_UPGRADE_CONFIG_NAME}`, 'warning');
    return MANAGED_UPGRADE_CONFIG_NAME;
  }
  if (v.length <= 253 && DNS1123_SUBDOMAIN.test(v)) return v;
  cm.report(
    'localConfigName',
    `must be a valid object name (got ${JSON.stringify(v)}); using the default ${MANAGED_UPGRADE_CONFIG_NAME}`,
  );
  return MANAGED_UPGRADE_CONFIG_NAME;
}

function readNamespacePatterns(drain: FieldReader): GoRegexp[] {
  const out: GoRegexp[] = [];
  drain.stringList('ignoredNamespacePatterns', (path) => {
    const r = compileGoRegexp(path);
    if (!r.ok) return `${JSON.stringify(path)} is not a usable regular expression: ${r.error}`;
    out.push(r.regexp);
    return undefined;
  });
  return out;
}

/** MUO requires 1..60 s even without URLs (docs/design/managed-flow.md#health-check-bugs); here only when URLs are set. */
function readHttpTimeout(http: FieldReader, hasUrls: boolean): number {
  const def = MANAGED_OPERATOR_CONFIG_DEFAULTS.httpTimeoutSeconds;
  const v = http.raw('timeout');
  if (v === undefined) return def * 1000;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    http.report('timeout', `must be a non-negative number of seconds; using the default ${def}`);
    return def * 1000;
  }
  if (hasUrls && (v < 1 || v > 60)) {
    http.report('timeout', `must be between 1 and 60 seconds when urls are set (got ${v}); using the default ${def}`);
    return def * 1000;
  }
  return v * 1000;
}

function readFeatureGates(gates: FieldReader): FeatureGateName[] {
  const out: FeatureGateName[] = [];
  for (const name of gates.stringList('enabled')) {
    if (!KNOWN_GATES.includes(name)) {
      gates.report(
        'enabled',
        `unknown feature gate ${JSON.stringify(name)} (ignored); known gates: ${KNOWN_GATES.join(', ')}`,
        'warning',
      );
    } else if (!out.includes(name as FeatureGateName)) {
      out.push(name as FeatureGateName);
    }
  }
  return out;
}
