/**
 * `upgrade-operator preview`: the next maintenance windows of a schedule (`--cron`, `--iso-week`,
 * `--location`) or of APPUiO UpgradeConfigs (`-f`), each in UTC and in the schedule's zone, with
 * its ISO week and weekday, when its UpgradeJob would be created (`pinVersionWindow`), and which
 * UpgradeSuspensionWindow (`--suspension-windows`) or `spec.schedule.suspend` would suspend it.
 * A MUO UpgradeConfig in the `-f` file gives its upgrade (`spec.upgradeAt`) and, for OSD, when its
 * failure window closes (`upgradeWindow.timeOut` of `--operator-config`, else MUO's default).
 * `-o ics` writes the same as an iCalendar file (`preview-calendar.ts`).
 * The schedule math is the controller's (`scheduled/schedule/maintenance-schedule.ts`); the suspension
 * matching is the controller's too (`activeSuspensionWindow` at job creation,
 * `matchingSuspensionWindow` at the job's start).
 *
 * Input files are read like `kubectl apply -f` sends them and admitted like the API server admits
 * them (prune, default, validate with kube-apiserver's messages): see {@link readObjectFile} and
 * {@link admitObject}, which `hook-env` shares.
 */
import { readFileSync } from 'node:fs';
import type { ScheduledUpgradeConfig } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { UpgradeSuspensionWindow } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import {
  MANAGED_UPGRADE_GROUP,
  MANAGED_UPGRADE_VERSION,
} from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedOperatorConfig } from '../managed/config/managed-operator-config.js';
import { objectRef } from './object-ref.js';
import { RealClock, formatTime, type Clock } from '../lib/clock.js';
import type { JsonObject } from '../lib/json.js';
import { parseRfc3339 } from '../lib/rfc3339.js';
import { formatIsoWeekFilter } from '../scheduled/schedule/iso-week-filter.js';
import {
  nextScheduleTimes,
  scheduleTimeDetails,
  type MaintenanceSchedule,
  type ScheduleFields,
} from '../scheduled/schedule/maintenance-schedule.js';
import { compileSchedulingPolicy } from '../scheduled/schedule/next-job.js';
import { loadZone, processZoneId, UTC_ZONE, type Zone } from '../time/zone.js';
import { parseGoDurationMs } from '../lib/go-duration.js';
import { UpgradeJobDefaults } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { evaluateLabelSelector } from '../lib/label-selector.js';
import { activeSuspensionWindow } from '../scheduled/schedule/config-jobs.js';
import { buildScheduledUpgradeJob } from '../scheduled/steps/scheduled-upgrade-job.js';
import { jobTiming, matchingSuspensionWindow } from '../scheduled/steps/upgrade-job-gate.js';

// ---- Windows -----------------------------------------------------------------------------

/** The MUO UpgradeConfig's apiVersion. */
export const MANAGED_API_VERSION = `${MANAGED_UPGRADE_GROUP}/${MANAGED_UPGRADE_VERSION}`;

/** Why a window creates no UpgradeJob, or the job does not upgrade. */
export interface SuspensionMark {
  /**
   * `spec.schedule.suspend`; `configSelector`: a window selecting the config holds the job's
   * creation time (no job); `jobSelector`: a window selecting the job holds its start (the job
   * is skipped, marked succeeded).
   */
  readonly by: 'spec.schedule.suspend' | 'configSelector' | 'jobSelector';
  /** The UpgradeSuspensionWindow (for `spec.schedule.suspend`: the UpgradeConfig). */
  readonly name: string;
  readonly reason: string;
}

/** One maintenance window. */
export interface PreviewRow {
  /** `namespace/name` of the UpgradeConfig (with `-f`). */
  readonly upgradeConfig?: string;
  /** RFC 3339, UTC: the job's `startAfter`, a `status.nextPossibleSchedules[].time`. */
  readonly time: string;
  /** RFC 3339 with the zone's offset. */
  readonly local: string;
  /** The tz database name of the schedule's location (`Local` resolved). */
  readonly zone: string;
  readonly isoWeekYear: number;
  readonly isoWeek: number;
  readonly weekday: string;
  /** When the UpgradeJob is created and its version pinned (`time − pinVersionWindow`), if earlier than `time`. */
  readonly jobCreation?: string;
  readonly suspendedBy?: SuspensionMark;
  /** MUO UpgradeConfig, OSD: when the failure window closes (`upgradeAt + upgradeWindow.timeOut`), RFC 3339 UTC. */
  readonly windowCloses?: string;
}

/** What is previewed. */
export type PreviewSource =
  | { readonly kind: 'schedule'; readonly fields: ScheduleFields }
  | {
      readonly kind: 'config';
      readonly config: ScheduledUpgradeConfig;
      readonly windows: readonly UpgradeSuspensionWindow[];
    }
  | {
      readonly kind: 'managed';
      readonly config: ManagedUpgradeConfig;
      /** The operator ConfigMap's settings (`upgradeWindow.timeOut`). */
      readonly operatorConfig: ManagedOperatorConfig;
      /** When the OSD failure window closes, as the managed flow computes it (`upgradeWindowClosesAt`). */
      readonly windowClosesAt: number | undefined;
    };

/** Options of {@link previewWindows}. */
export interface PreviewOptions {
  /** Windows strictly after this instant (ms). */
  readonly fromMs: number;
  readonly count: number;
  /** What `Local` means. */
  readonly localZoneId: string;
}

/** What `-o ics` needs beyond the rows. */
export type PreviewCalendarFacts =
  | {
      readonly flow: 'scheduled';
      /** The UpgradeConfig's `namespace/name` or the schedule, for SUMMARY. */
      readonly label: string;
      /** Stable part of event UIDs: the config's `metadata.uid`, else `namespace/name`, else the schedule. */
      readonly uidBase: string;
      readonly zone: Zone;
      /** `spec.maxUpgradeStartDelay`: the job must start before `time +` this. */
      readonly maxUpgradeStartDelayMs: number;
      /** `spec.jobTemplate.spec.config.upgradeTimeout`: the job times out this long after `time`. */
      readonly upgradeTimeoutMs: number;
      /** The config's UpgradeSuspensionWindows that select it or its jobs and end after `fromMs`. */
      readonly suspensionWindows: readonly UpgradeSuspensionWindow[];
    }
  | {
      readonly flow: 'managed';
      readonly label: string;
      readonly uidBase: string;
      /** `spec.type`: only OSD has a failure window. */
      readonly upgradeType: string;
      /** `spec.desired`: the version, else the image. */
      readonly target: string;
      /** `upgradeWindow.timeOut` of the operator ConfigMap; 0: no failure window. */
      readonly windowTimeOutMs: number;
    };

/** The windows of one schedule. */
export interface Preview {
  /** One line saying what was previewed. */
  readonly title: string;
  /** The tz database name of the schedule's location (`Local` resolved). */
  readonly zone: string;
  readonly rows: PreviewRow[];
  /** Set when fewer than `count` windows exist within the search bounds: why. */
  readonly shortfall?: string;
  readonly calendar: PreviewCalendarFacts;
}

/** Outcome of {@link previewWindows}: the preview, or a one-line reason the schedule is unusable. */
export type PreviewResult = { ok: true; preview: Preview } | { ok: false; error: string };

function shortfallText(schedule: MaintenanceSchedule, found: number, count: number, error: string): string {
  const filter = schedule.isoWeek;
  const never =
    filter.kind === 'week' && (filter.week < 1 || filter.week > 53)
      ? `ISO week ${filter.week} does not exist, so the schedule never fires`
      : undefined;
  const what = found === 0 ? 'no window found' : `only ${found} of ${count} windows found`;
  return `${what}: ${never ?? error}`;
}

/**
 * The next `count` windows after `fromMs`, as the controller computes them (`nextPossibleSchedules`),
 * each marked with what would suspend it: `spec.schedule.suspend`; a window whose configSelector
 * selects the config at the job's creation time; a window whose jobSelector selects the job
 * (labels from `spec.jobTemplate`) at its `startAfter`. Windows without a namespace count as in
 * the config's namespace. Pure.
 */
export function previewWindows(source: PreviewSource, options: PreviewOptions): PreviewResult {
  if (source.kind === 'managed') return previewManagedUpgrade(source, options);
  const config = source.kind === 'config' ? source.config : undefined;
  const ref = config ? objectRef(config as unknown as JsonObject) : '';
  const fields = source.kind === 'config' ? source.config.spec.schedule : source.fields;
  const compiled = compileSchedulingPolicy(config ? config.spec : { schedule: fields }, options.localZoneId);
  if (!compiled.ok) {
    const flag: Record<string, string> = {
      'spec.schedule.cron': '--cron',
      'spec.schedule.location': '--location',
      'spec.schedule.isoWeek': '--iso-week',
    };
    const where = config
      ? `UpgradeConfig ${ref}: ${compiled.problem.field}`
      : (flag[compiled.problem.field] ?? compiled.problem.field);
    return { ok: false, error: `${where}: ${compiled.problem.message}` };
  }
  const policy = compiled.policy;
  const schedule = policy.schedule;
  const next = nextScheduleTimes(schedule, options.fromMs, options.count);
  const namespace = config?.metadata?.namespace ?? '';
  const windows =
    source.kind === 'config'
      ? source.windows
          .map((w) => ({ ...w, metadata: { ...w.metadata, namespace: w.metadata?.namespace ?? namespace } }))
          .filter((w) => w.metadata.namespace === namespace)
      : [];
  const rows = next.times.map((text): PreviewRow => {
    const d = scheduleTimeDetails(schedule, text);
    const createAt = text - policy.pinVersionWindowMs;
    let suspendedBy: SuspensionMark | undefined;
    if (config) {
      const byConfig = activeSuspensionWindow(windows, config, createAt);
      const job = buildScheduledUpgradeJob(config, {
        startAfterMs: text,
        startBeforeMs: text + policy.maxUpgradeStartDelayMs,
      });
      const byJob = matchingSuspensionWindow(windows, job, text);
      if (policy.suspend)
        suspendedBy = {
          by: 'spec.schedule.suspend',
          name: config.metadata?.name ?? '',
          reason: 'Upgrade scheduling is suspended by .spec.schedule.suspend',
        };
      else if (byConfig) suspendedBy = { by: 'configSelector', ...byConfig };
      else if (byJob) suspendedBy = { by: 'jobSelector', ...byJob };
    }
    return {
      ...(config ? { upgradeConfig: ref } : {}),
      time: d.time,
      local: d.local,
      zone: schedule.zone.id,
      isoWeekYear: d.isoWeekYear,
      isoWeek: d.isoWeek,
      weekday: d.weekday,
      ...(createAt < text ? { jobCreation: formatTime(createAt) } : {}),
      ...(suspendedBy ? { suspendedBy } : {}),
    };
  });
  const week = formatIsoWeekFilter(schedule.isoWeek);
  const title = [
    config ? `UpgradeConfig ${ref}:` : 'Schedule:',
    `cron ${JSON.stringify(fields.cron)}`,
    ...(week !== '' ? [`isoWeek ${week}`] : []),
    `location ${schedule.zone.local ? `Local (${schedule.zone.id})` : schedule.zone.name}`,
    ...(config?.spec.pinVersionWindow ? [`pinVersionWindow ${config.spec.pinVersionWindow}`] : []),
  ].join(' ');
  const timing = config
    ? jobTiming(buildScheduledUpgradeJob(config, { startAfterMs: 0, startBeforeMs: policy.maxUpgradeStartDelayMs }))
    : undefined;
  const jobLabels = config?.spec.jobTemplate.metadata?.labels;
  const selects = (w: UpgradeSuspensionWindow): boolean =>
    (w.spec?.configSelector !== undefined &&
      evaluateLabelSelector(w.spec.configSelector, config?.metadata?.labels) === true) ||
    (w.spec?.jobSelector !== undefined && evaluateLabelSelector(w.spec.jobSelector, jobLabels) === true);
  const preview: Preview = {
    title,
    zone: schedule.zone.id,
    rows,
    ...(next.error !== undefined ? { shortfall: shortfallText(schedule, rows.length, options.count, next.error) } : {}),
    calendar: {
      flow: 'scheduled',
      label: config
        ? ref
        : `cron ${JSON.stringify(fields.cron)}${week !== '' ? ` isoWeek ${week}` : ''} ${schedule.zone.id}`,
      uidBase: config ? (config.metadata?.uid ?? ref) : `${fields.cron}|${week}|${schedule.zone.id}`,
      zone: schedule.zone,
      maxUpgradeStartDelayMs: policy.maxUpgradeStartDelayMs,
      upgradeTimeoutMs: timing?.ok ? timing.timing.timeoutMs : defaultUpgradeTimeoutMs(),
      suspensionWindows: windows.filter((w) => selects(w) && Date.parse(w.spec?.end ?? '') > options.fromMs),
    },
  };
  return { ok: true, preview };
}

/** The UpgradeJob's default `upgradeTimeout` (12h), for a bare schedule. */
function defaultUpgradeTimeoutMs(): number {
  const d = parseGoDurationMs(UpgradeJobDefaults.upgradeTimeout);
  return d.ok ? d.ms : 0;
}

/**
 * A MUO UpgradeConfig: one row at `spec.upgradeAt` (shown in `Local`), with the close of the OSD
 * failure window as the managed flow computes it (`upgradeWindowClosesAt`: `upgradeAt +
 * upgradeWindow.timeOut`, none for ARO or a timeOut of 0). `fromMs` and `count` do not apply: an
 * UpgradeConfig holds one upgrade. Pure.
 */
export function previewManagedUpgrade(
  source: Extract<PreviewSource, { kind: 'managed' }>,
  options: Pick<PreviewOptions, 'localZoneId'>,
): PreviewResult {
  const { config, operatorConfig } = source;
  const ref = objectRef(config as unknown as JsonObject);
  const spec = config.spec;
  if (spec === undefined) return { ok: false, error: `UpgradeConfig ${ref}: spec is missing` };
  const at = parseRfc3339(spec.upgradeAt);
  if (at === undefined)
    return {
      ok: false,
      error: `UpgradeConfig ${ref}: spec.upgradeAt: ${JSON.stringify(spec.upgradeAt)} is not an RFC 3339 time`,
    };
  const local = loadZone('Local', options.localZoneId);
  const zone = local.ok ? local.zone : UTC_ZONE;
  const osd = spec.type === 'OSD';
  const windowTimeOutMs = osd ? operatorConfig.upgradeWindow.timeOutMs : 0;
  const closes = osd ? source.windowClosesAt : undefined;
  const target = spec.desired.version ?? spec.desired.image ?? '';
  const d = scheduleTimeDetails({ zone }, at);
  const row: PreviewRow = {
    upgradeConfig: ref,
    time: d.time,
    local: d.local,
    zone: zone.id,
    isoWeekYear: d.isoWeekYear,
    isoWeek: d.isoWeek,
    weekday: d.weekday,
    ...(closes !== undefined ? { windowCloses: formatTime(closes) } : {}),
  };
  const title = [
    `UpgradeConfig ${ref} (${MANAGED_API_VERSION}):`,
    `${spec.type} upgrade to ${target === '' ? '(no target)' : target}`,
    osd
      ? windowTimeOutMs > 0
        ? `upgradeWindow.timeOut ${windowTimeOutMs / 60_000}m`
        : 'no failure window (upgradeWindow.timeOut 0)'
      : 'no failure window (ARO)',
  ].join(' ');
  return {
    ok: true,
    preview: {
      title,
      zone: zone.id,
      rows: [row],
      calendar: {
        flow: 'managed',
        label: ref,
        uidBase: config.metadata?.uid ?? ref,
        upgradeType: spec.type,
        target,
        windowTimeOutMs: closes !== undefined ? windowTimeOutMs : 0,
      },
    },
  };
}

// ---- Rendering ---------------------------------------------------------------------------

function isoWeekText(row: PreviewRow): string {
  return `${row.isoWeekYear}-W${String(row.isoWeek).padStart(2, '0')}`;
}

function suspensionText(mark: SuspensionMark): string {
  if (mark.by === 'spec.schedule.suspend') return 'spec.schedule.suspend (no UpgradeJob)';
  return `${mark.name}${mark.reason ? `: ${mark.reason}` : ''} (${mark.by === 'configSelector' ? 'no UpgradeJob' : 'UpgradeJob skipped'})`;
}

/** A table of the windows: one section per preview, columns padded, optional columns only when used. */
export function renderPreviewTable(previews: readonly Preview[]): string {
  const sections = previews.map((preview) => {
    const pinned = preview.rows.some((r) => r.jobCreation !== undefined);
    const closing = preview.rows.some((r) => r.windowCloses !== undefined);
    const suspended = preview.rows.some((r) => r.suspendedBy !== undefined);
    const header = [
      'TIME (UTC)',
      `LOCAL (${preview.zone})`,
      'ISO WEEK',
      'WEEKDAY',
      ...(pinned ? ['JOB CREATED'] : []),
      ...(closing ? ['FAILS UNLESS STARTED BY'] : []),
      ...(suspended ? ['SUSPENDED'] : []),
    ];
    const body = preview.rows.map((r) => [
      r.time,
      r.local,
      isoWeekText(r),
      r.weekday,
      ...(pinned ? [r.jobCreation ?? r.time] : []),
      ...(closing ? [r.windowCloses ?? ''] : []),
      ...(suspended ? [r.suspendedBy ? suspensionText(r.suspendedBy) : ''] : []),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
    const line = (cells: string[]): string =>
      cells
        .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('   ')
        .trimEnd();
    const lines = [preview.title, ...(preview.rows.length > 0 ? [line(header), ...body.map(line)] : [])];
    if (preview.shortfall !== undefined) lines.push(`Note: ${preview.shortfall}`);
    return `${lines.join('\n')}\n`;
  });
  return sections.join('\n');
}

/** `-o json`: every window of every preview, as one JSON array. */
export function renderPreviewJson(previews: readonly Preview[]): string {
  return `${JSON.stringify(
    previews.flatMap((p) => p.rows),
    null,
    2,
  )}\n`;
}

// ---- The command -------------------------------------------------------------------------

/** The flags of `preview`. */
export interface PreviewFlags {
  cron?: string;
  isoWeek?: string;
  location?: string;
  filename?: string;
  suspensionWindows?: string;
  operatorConfig?: string;
  from?: number;
  count: number;
  output: 'table' | 'json' | 'ics';
}

/** What the command reads from outside; tests pass their own. */
export interface PreviewDeps {
  clock: Clock;
  localZoneId: string;
  readFile(path: string): string;
  warn(text: string): void;
}

/** The previews the flags ask for; throws a user-facing Error on bad input. */
export async function previewsFor(flags: PreviewFlags, deps: PreviewDeps): Promise<Preview[]> {
  const options: PreviewOptions = {
    fromMs: flags.from ?? deps.clock.now(),
    count: flags.count,
    localZoneId: deps.localZoneId,
  };
  const sources: PreviewSource[] = [];
  if (flags.filename !== undefined) {
    if (flags.cron !== undefined || flags.isoWeek !== undefined || flags.location !== undefined)
      throw new Error('-f takes the schedule from the UpgradeConfig: drop --cron, --iso-week and --location');
    // The admission code (the API server's schema validation) loads only with -f: `preview --cron` never loads it.
    const { previewFileSources } = await import('./preview-files.js');
    sources.push(...previewFileSources({ ...flags, filename: flags.filename }, deps));
  } else if (flags.cron !== undefined) {
    if (flags.suspensionWindows !== undefined)
      throw new Error('--suspension-windows needs -f: windows select UpgradeConfigs and UpgradeJobs by their labels');
    if (flags.operatorConfig !== undefined)
      throw new Error('--operator-config needs -f with a MUO UpgradeConfig (upgrade.managed.openshift.io/v1alpha1)');
    sources.push({
      kind: 'schedule',
      fields: { cron: flags.cron, isoWeek: flags.isoWeek, location: flags.location ?? 'Local' },
    });
  } else {
    throw new Error('give a schedule with --cron, or UpgradeConfigs with -f');
  }
  return sources.map((previewSource) => {
    const r = previewWindows(previewSource, options);
    if (!r.ok) throw new Error(r.error);
    if (r.preview.rows.length === 0) throw new Error(`${r.preview.title}: ${r.preview.shortfall ?? 'no window found'}`);
    return r.preview;
  });
}

/** What `preview` reads from outside when it runs for real. */
export function nodePreviewDeps(): PreviewDeps {
  return {
    clock: new RealClock(),
    localZoneId: processZoneId(),
    readFile: (path) => readFileSync(path, 'utf8'),
    warn: (text) => void process.stderr.write(`Warning: ${text}\n`),
  };
}

/** The action of `preview` (src/cli/commands/preview.ts defines its flags). */
export async function previewAction(flags: PreviewFlags, deps: PreviewDeps = nodePreviewDeps()): Promise<void> {
  const previews = await previewsFor(flags, deps);
  if (flags.output === 'ics') {
    const { renderPreviewCalendar } = await import('./preview-calendar.js');
    process.stdout.write(renderPreviewCalendar(previews, deps.clock.now()));
  } else process.stdout.write(flags.output === 'json' ? renderPreviewJson(previews) : renderPreviewTable(previews));
  if (flags.output !== 'table')
    for (const p of previews) if (p.shortfall !== undefined) deps.warn(`${p.title} ${p.shortfall}`);
}
