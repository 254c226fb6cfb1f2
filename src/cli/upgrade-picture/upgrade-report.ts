/**
 * The JSON report of `simulate -o json` (docs/simulation.md#the-json-report) as the picture reads
 * it: the parts it draws, checked for shape, with a clear problem for anything else. Pure.
 */
import type { AlertEpisode, SilenceRecord } from '../../sim/recorder/alerts-report.js';
import type { FinalObjects, Transition } from '../../sim/recorder/cluster-recorder.js';
import type { MaintenanceWindow, OperatorState } from '../scenarios/operator-record.js';

/** An UpgradeConfig history condition as the report lists it. */
export interface ReportCondition {
  type: string;
  status: string;
  message?: string;
  startTime?: string;
  completeTime?: string;
}

/** What the picture draws of a report. */
export interface UpgradeReport {
  scenario: string;
  seed: number | null;
  ok: boolean | null;
  summary: string;
  /** Virtual ms since the epoch at which the scenario started (elapsedMs 0). */
  originMs: number;
  /** Virtual ms since the epoch at which the run ended. */
  endMs: number;
  conditions: ReportCondition[];
  operatorStates: OperatorState[];
  windows: MaintenanceWindow[];
  transitions: Transition[];
  alerts: AlertEpisode[];
  silences: SilenceRecord[];
  final: FinalObjects;
}

export type ReadReport = { ok: true; report: UpgradeReport } | { ok: false; problem: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An optional array field: the array, [] when absent, or a problem. */
function arrayField<T>(record: Record<string, unknown>, key: string, problems: string[]): T[] {
  const field = record[key];
  if (field === undefined) return [];
  if (!Array.isArray(field)) {
    problems.push(`"${key}" must be an array`);
    return [];
  }
  if (!field.every(isRecord)) {
    problems.push(`every entry of "${key}" must be an object`);
    return [];
  }
  return field as T[];
}

/** The origin (elapsedMs 0) from the first entry that has both its time and its elapsed ms. */
function originOf(entries: ReadonlyArray<{ at?: unknown; elapsedMs?: unknown }>): number | undefined {
  for (const e of entries) {
    const at = typeof e.at === 'string' ? Date.parse(e.at) : NaN;
    if (!Number.isNaN(at) && typeof e.elapsedMs === 'number') return at - e.elapsedMs;
  }
  return undefined;
}

/** Reads a parsed JSON report; every problem is named. */
export function readUpgradeReport(value: unknown): ReadReport {
  if (!isRecord(value)) return { ok: false, problem: 'the report must be a JSON object (simulate -o json)' };
  const problems: string[] = [];
  if (!Array.isArray(value['transitions']) || !isRecord(value['final']))
    return {
      ok: false,
      problem:
        'not a report of `upgrade-operator simulate -o json`: it has no "transitions" array and "final" object (was it written by --list?)',
    };
  const transitions = arrayField<Transition>(value, 'transitions', problems);
  const operatorStates = arrayField<OperatorState>(value, 'operatorStates', problems);
  const conditions = arrayField<ReportCondition>(value, 'conditions', problems);
  const windows = arrayField<MaintenanceWindow>(value, 'windows', problems);
  const alerts = arrayField<AlertEpisode>(value, 'alerts', problems);
  const silences = arrayField<SilenceRecord>(value, 'silences', problems);
  const final = value['final'];
  for (const key of ['clusterOperators', 'machineConfigPools', 'nodes'])
    if (final[key] !== undefined && !(Array.isArray(final[key]) && final[key].every(isRecord)))
      problems.push(`"final.${key}" must be an array of objects`);
  const minutes = value['virtualMinutes'];
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0)
    problems.push('"virtualMinutes" must be a number of minutes');
  const originMs = originOf(transitions) ?? originOf(operatorStates);
  if (originMs === undefined)
    problems.push('no entry of "transitions" or "operatorStates" has an "at" time and an "elapsedMs"');
  if (problems.length > 0 || originMs === undefined || typeof minutes !== 'number')
    return { ok: false, problem: `not a usable simulate report: ${problems.join('; ')}` };
  return {
    ok: true,
    report: {
      scenario: typeof value['scenario'] === 'string' ? value['scenario'] : '',
      seed: typeof value['seed'] === 'number' ? value['seed'] : null,
      ok: typeof value['ok'] === 'boolean' ? value['ok'] : null,
      summary: typeof value['summary'] === 'string' ? value['summary'] : '',
      originMs,
      endMs: originMs + minutes * 60_000,
      conditions,
      operatorStates,
      windows,
      transitions,
      alerts,
      silences,
      final: {
        clusterVersion: isRecord(final['clusterVersion'])
          ? (final['clusterVersion'] as unknown as FinalObjects['clusterVersion'])
          : null,
        clusterOperators: (final['clusterOperators'] ?? []) as FinalObjects['clusterOperators'],
        machineConfigPools: (final['machineConfigPools'] ?? []) as FinalObjects['machineConfigPools'],
        nodes: (final['nodes'] ?? []) as FinalObjects['nodes'],
      },
    },
  };
}
