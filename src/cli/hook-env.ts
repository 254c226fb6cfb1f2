/**
 * `upgrade-operator hook-env`: the environment a hook Job would get for an UpgradeJob and an
 * event — computed by the controller's own function (`scheduled/hooks/hook-env.ts`), from the
 * UpgradeJob as the API server would store it (pruned, defaulted, validated: see `admitObject`),
 * with the `EVENT.reason` the controller passes for that event and `META.matchesDisruptiveHooks`
 * over the given hooks, as the controller computes it. Printed as a shell-safe dotenv file or as
 * a JSON object of name → value.
 */
import { readFileSync } from 'node:fs';
import type { EnvVar } from 'kubernetes-types/core/v1.js';
import { APPUIO_API_VERSION } from '../api/managedupgrade.appuio.io/v1beta1/group.js';
import {
  UpgradeJobConditionType,
  UpgradeJobReason,
} from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeEvent } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import type { UpgradeJobHook } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import type { UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { RealClock, type Clock } from '../lib/clock.js';
import type { JsonObject } from '../lib/json.js';
import { hookEnvironment } from '../scheduled/hooks/hook-env.js';
import { isFinalEvent, matchesDisruptiveHooks, selectHooks } from '../scheduled/hooks/hook-selection.js';
import { CRD as UPGRADE_JOB_HOOK_CRD } from './crds/upgrade-job-hook.generated.js';
import { CRD as UPGRADE_JOB_CRD } from './crds/upgrade-job.generated.js';
import { admitFileObjects } from './object-file.js';

function trueCondition(job: UpgradeJob, type: string): { reason: string } | undefined {
  return (job.status?.conditions ?? []).find((c) => c.type === type && c.status === 'True');
}

/**
 * The `EVENT.reason` the controller passes: `""` for Create, `Started`, `Completed`;
 * MachineConfigPoolUnpause: `Completed` at the success cleanup, else `DelayReached`; Success,
 * Failure and Finish: the reason of the job's true Succeeded or Failed condition.
 */
export function defaultEventReason(job: UpgradeJob, event: UpgradeEvent): string {
  const succeeded = trueCondition(job, UpgradeJobConditionType.Succeeded);
  const failed = trueCondition(job, UpgradeJobConditionType.Failed);
  switch (event) {
    case 'Create':
      return '';
    case 'Start':
      return UpgradeJobReason.Started;
    case 'UpgradeComplete':
      return UpgradeJobReason.Completed;
    case 'MachineConfigPoolUnpause':
      return succeeded ? UpgradeJobReason.Completed : UpgradeJobReason.DelayReached;
    case 'Success':
      return succeeded?.reason ?? '';
    case 'Failure':
      return failed?.reason ?? '';
    case 'Finish':
      return succeeded?.reason ?? failed?.reason ?? '';
  }
}

/** What {@link hookEnvPreview} needs. */
export interface HookEnvRequest {
  /** The UpgradeJob as stored (see `admitObject`). */
  job: UpgradeJob;
  event: UpgradeEvent;
  /** UpgradeJobHooks: they decide `META.matchesDisruptiveHooks`; without a namespace they count as in the job's. */
  hooks: readonly UpgradeJobHook[];
  /** `EVENT.reason`; default {@link defaultEventReason}. */
  reason?: string;
  /** `EVENT.pool`: required for MachineConfigPoolUnpause, refused for the others. */
  pool?: string;
  /** `EVENT.time` (ms). */
  now: number;
}

/** The environment, and remarks on how the controller would differ for this input. */
export interface HookEnvPreview {
  env: EnvVar[];
  notes: string[];
}

/** Outcome of {@link hookEnvPreview}. */
export type HookEnvResult = { ok: true; preview: HookEnvPreview } | { ok: false; error: string };

/** The environment the controller gives a hook Job for the request, with notes. Pure. */
export function hookEnvPreview(req: HookEnvRequest): HookEnvResult {
  const { job, event } = req;
  if (event === 'MachineConfigPoolUnpause' && req.pool === undefined)
    return { ok: false, error: '--pool is required for MachineConfigPoolUnpause (it becomes EVENT_pool)' };
  if (event !== 'MachineConfigPoolUnpause' && req.pool !== undefined)
    return { ok: false, error: `--pool applies to MachineConfigPoolUnpause only, not to ${event}` };
  const namespace = job.metadata?.namespace ?? '';
  const hooks = req.hooks.map((h) => ({
    ...h,
    metadata: { ...h.metadata, namespace: h.metadata?.namespace ?? namespace },
  }));
  const notes: string[] = [];
  if (isFinalEvent(event)) {
    const final = trueCondition(job, UpgradeJobConditionType.Succeeded)
      ? 'Succeeded'
      : trueCondition(job, UpgradeJobConditionType.Failed)
        ? 'Failed'
        : undefined;
    const fires =
      event === 'Finish' ? final !== undefined : event === 'Success' ? final === 'Succeeded' : final === 'Failed';
    if (!fires)
      notes.push(
        `the controller fires ${event} hooks only for a job with ${event === 'Failure' ? 'Failed' : event === 'Success' ? 'Succeeded' : 'Succeeded or Failed'}=True; this job has ${final ? `${final}=True` : 'neither'}`,
      );
  }
  const missing = [
    job.metadata?.uid ? '' : 'metadata.uid',
    job.metadata?.creationTimestamp ? '' : 'metadata.creationTimestamp',
  ].filter((f) => f !== '');
  if (missing.length > 0)
    notes.push(
      `the UpgradeJob has no ${missing.join(' and no ')}: the API server sets them, so the hook Job sees other values`,
    );
  if (hooks.length > 0) {
    const selection = selectHooks(job, hooks, event);
    for (const h of hooks) {
      const name = h.metadata.name ?? '';
      if (!(h.spec?.events ?? []).includes(event))
        notes.push(
          `hook ${name} does not run on ${event} (its events: ${(h.spec?.events ?? []).join(', ') || 'none'})`,
        );
    }
    for (const s of selection.skipped) notes.push(`hook ${s.hook} does not run for this job on ${event}: ${s.reason}`);
  }
  const { env, shadowed } = hookEnvironment({
    job,
    event,
    reason: req.reason ?? defaultEventReason(job, event),
    ...(req.pool !== undefined ? { pool: req.pool } : {}),
    now: req.now,
    matchesDisruptiveHooks: matchesDisruptiveHooks(job, hooks),
  });
  for (const name of new Set(shadowed))
    notes.push(`several keys sanitise to ${name}; the last in code point order wins`);
  return { ok: true, preview: { env, notes } };
}

/** A value in POSIX shell single quotes (`'` written as `'\''`): `set -a; . ./file` reads it back byte for byte. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `-o dotenv`: `NAME='value'` lines, in the env's (sorted) order. */
export function renderDotenv(env: readonly EnvVar[]): string {
  return env.map((e) => `${e.name}=${shellQuote(e.value ?? '')}\n`).join('');
}

/** `-o json`: one object, name → value (the values are the variables' text, itself JSON). */
export function renderEnvJson(env: readonly EnvVar[]): string {
  const out: Record<string, string> = {};
  for (const e of env) out[e.name] = e.value ?? '';
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** The flags of `hook-env`. */
export interface HookEnvFlags {
  job: string;
  event: UpgradeEvent;
  hook?: string[];
  reason?: string;
  pool?: string;
  time?: number;
  output: 'dotenv' | 'json';
}

/** What the command reads from outside; tests pass their own. */
export interface HookEnvDeps {
  clock: Clock;
  readFile(path: string): string;
  warn(text: string): void;
}

function admitFile(path: string, text: string, crd: JsonObject, deps: HookEnvDeps): JsonObject[] {
  return admitFileObjects(path, text, crd, { keepStatus: true, warn: (t) => deps.warn(t) });
}

/** The environment the flags ask for; throws a user-facing Error on bad input. */
export function hookEnvFor(flags: HookEnvFlags, deps: HookEnvDeps): HookEnvPreview {
  const jobs = admitFile(flags.job, deps.readFile(flags.job), UPGRADE_JOB_CRD, deps);
  if (jobs.length !== 1)
    throw new Error(`${flags.job}: expected one UpgradeJob (${APPUIO_API_VERSION}), found ${jobs.length}`);
  const hooks: JsonObject[] = [];
  for (const path of flags.hook ?? []) {
    const found = admitFile(path, deps.readFile(path), UPGRADE_JOB_HOOK_CRD, deps);
    if (found.length === 0) throw new Error(`${path}: no UpgradeJobHook (${APPUIO_API_VERSION}) found`);
    hooks.push(...found);
  }
  const r = hookEnvPreview({
    job: jobs[0] as unknown as UpgradeJob,
    event: flags.event,
    hooks,
    ...(flags.reason !== undefined ? { reason: flags.reason } : {}),
    ...(flags.pool !== undefined ? { pool: flags.pool } : {}),
    now: flags.time ?? deps.clock.now(),
  });
  if (!r.ok) throw new Error(r.error);
  for (const n of r.preview.notes) deps.warn(n);
  return r.preview;
}

/** What `hook-env` reads from outside when it runs for real. */
function nodeHookEnvDeps(): HookEnvDeps {
  return {
    clock: new RealClock(),
    readFile: (path) => readFileSync(path, 'utf8'),
    warn: (text) => void process.stderr.write(`Warning: ${text}\n`),
  };
}

/** The action of `hook-env` (src/cli/commands/hook-env.ts defines its flags). */
export function hookEnvAction(flags: HookEnvFlags, deps: HookEnvDeps = nodeHookEnvDeps()): void {
  const { env } = hookEnvFor(flags, deps);
  process.stdout.write(flags.output === 'json' ? renderEnvJson(env) : renderDotenv(env));
}
