/**
 * `upgrade-operator validate`: judges UpgradeConfigs, UpgradeJobs, hooks, suspension windows,
 * ClusterVersions, NodeForceDrains and the managed operator's ConfigMap offline, as the API server
 * and the operator would (docs/configuration.md#upgrade-operator-validate) — for CI on a GitOps
 * repository, before the objects reach a cluster. The verdicts are {@link validateObjects}'s; this
 * module reads the files (`-f FILE|DIR|-`, `-R`), the optional `--cluster-version` file, and
 * renders text or JSON.
 *
 * Exit codes: 0 when every object is valid (warnings allowed), 1 when an object is invalid or an
 * input cannot be read, 2 for usage errors.
 */
import { splitApiVersion } from '../api/resource.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from './commander-package.js';
import type { ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';
import type { JqSelector, PodJqSelector } from '../integrations/jq-selector.js';
import { RealClock, type Clock } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { processZoneId } from '../time/zone.js';
import { admitObject, objectsOfKind, readFileDocuments, readObjectFile } from './object-file.js';
import {
  validateObjects,
  type InputObject,
  type ObjectValidation,
  type ValidateObjectsOptions,
  type ValidationProblem,
} from './validate-objects.js';

/** A file that cannot be read, or a document in it that is not a YAML object. */
export interface InputError {
  readonly file: string;
  readonly document?: number;
  readonly message: string;
}

/** Everything `validate` found. */
export interface ValidateReport {
  readonly objects: ObjectValidation[];
  /** Unreadable files and documents (not YAML, not an object). */
  readonly errors: InputError[];
  /** No object invalid and no input error. */
  readonly valid: boolean;
}

/** The file system as `validate` reads it; tests pass their own stdin. */
export interface ValidateIo {
  readFile(path: string): string;
  readStdin(): string;
  isDirectory(path: string): boolean;
  /** The names in a directory. */
  readDir(path: string): string[];
}

/** The real file system and process stdin. */
export function nodeValidateIo(): ValidateIo {
  return {
    readFile: (path) => readFileSync(path, 'utf8'),
    readStdin: () => readFileSync(0, 'utf8'),
    isDirectory: (path) => statSync(path).isDirectory(),
    readDir: (path) => readdirSync(path),
  };
}

const MANIFEST_FILE = /\.(ya?ml|json)$/;
/** kustomize's own files, not objects: skipped when a directory is read (`kubectl apply -k` reads them). */
const KUSTOMIZATION_FILE = /^(kustomization\.ya?ml|Kustomization)$/;

/**
 * The files the `-f` arguments name, in order: a file as given, `-` for stdin, a directory's
 * `*.yaml`, `*.yml` and `*.json` files sorted by name but `kustomization.yaml` (its subdirectories
 * too, depth first, with `recursive`). A path that cannot be read is an error, the others are still read.
 */
export function collectInputs(
  paths: readonly string[],
  recursive: boolean,
  io: ValidateIo,
): { files: { path: string; text: string }[]; errors: InputError[] } {
  const files: { path: string; text: string }[] = [];
  const errors: InputError[] = [];
  const visit = (path: string, fromDir: boolean): void => {
    try {
      if (path === '-' && !fromDir) {
        files.push({ path: '-', text: io.readStdin() });
        return;
      }
      if (io.isDirectory(path)) {
        if (fromDir && !recursive) return;
        for (const name of [...io.readDir(path)].sort()) {
          const child = join(path, name);
          if (io.isDirectory(child)) {
            if (recursive) visit(child, true);
          } else if (MANIFEST_FILE.test(name) && !KUSTOMIZATION_FILE.test(name)) {
            visit(child, true);
          }
        }
        return;
      }
      files.push({ path, text: io.readFile(path) });
    } catch (err) {
      errors.push({ file: path, message: `cannot read: ${errorMessage(err)}` });
    }
  };
  for (const p of paths) visit(p, false);
  return { files, errors };
}

/**
 * The config.openshift.io ClusterVersion of a `--cluster-version` file (`oc get clusterversion
 * version -o yaml`, or a `List` holding it), admitted with its status as the API server stores it.
 * Rejects with a user-facing Error when the file holds none, several, or an invalid one. The CRD
 * (src/cli/crds/) is imported only when the flag is given.
 */
export async function parseClusterVersionFile(path: string, text: string): Promise<ClusterVersion> {
  const found = objectsOfKind(readObjectFile(text, path), 'config.openshift.io/v1', 'ClusterVersion');
  if (found.length !== 1)
    throw new Error(`${path}: expected one ClusterVersion (config.openshift.io/v1), found ${found.length}`);
  const { CRD } = await import('./crds/openshift-cluster-version.generated.js');
  const r = admitObject(found[0]!.object, CRD, { keepStatus: true });
  if (!r.ok) throw new Error(`${path}: ${r.message}`);
  return r.object as unknown as ClusterVersion;
}

/** What {@link validateInputs} needs besides the paths. */
export interface ValidateRun extends ValidateObjectsOptions {
  readonly io: ValidateIo;
  readonly recursive: boolean;
}

/** Reads the files and judges every object in them. */
export async function validateInputs(paths: readonly string[], run: ValidateRun): Promise<ValidateReport> {
  const { files, errors } = collectInputs(paths, run.recursive, run.io);
  const inputs: InputObject[] = [];
  for (const f of files) {
    for (const d of readFileDocuments(f.text)) {
      if (!d.ok) errors.push({ file: f.path, document: d.document, message: `document ${d.document} ${d.error}` });
      else for (const object of d.objects) inputs.push({ file: f.path, document: d.document, object });
    }
  }
  const objects = await validateObjects(inputs, run);
  return { objects, errors, valid: errors.length === 0 && objects.every((o) => o.verdict !== 'invalid') };
}

// ---- Rendering ---------------------------------------------------------------------------

/** `Kind.group` (kubectl's spelling), `Kind` for the core group. */
function kindText(objectValidation: ObjectValidation): string {
  const { group } = splitApiVersion(objectValidation.apiVersion);
  return group === '' ? objectValidation.kind || '(no kind)' : `${objectValidation.kind || '(no kind)'}.${group}`;
}

function problemText(validationProblem: ValidationProblem): string {
  const where =
    validationProblem.field !== undefined &&
    validationProblem.field !== '' &&
    !validationProblem.message.includes(validationProblem.field)
      ? `${validationProblem.field}: `
      : '';
  const tag =
    validationProblem.reason !== undefined
      ? `${validationProblem.source} ${validationProblem.reason}`
      : validationProblem.source;
  return `  ${validationProblem.severity} [${tag}] ${where}${validationProblem.message}`;
}

/** The text report: one line per object, its problems and skipped checks indented, input errors, a summary. */
export function renderValidateText(report: ValidateReport): string {
  const lines: string[] = [];
  for (const o of report.objects) {
    const ref = o.namespace !== undefined ? `${o.namespace}/${o.name}` : o.name;
    lines.push(`${o.file}:${o.document} ${kindText(o)} ${ref || '(no name)'}: ${o.verdict}`);
    for (const p of o.problems) lines.push(problemText(p));
    for (const s of o.skipped) lines.push(`  skipped: ${s}`);
  }
  for (const e of report.errors) lines.push(`${e.file}: error: ${e.message}`);
  const count = (v: ObjectValidation['verdict']): number => report.objects.filter((o) => o.verdict === v).length;
  const summary = [
    `${report.objects.length} object(s): ${count('valid')} valid`,
    `${count('valid with warnings')} valid with warnings`,
    `${count('invalid')} invalid`,
    `${count('not checked')} not checked`,
    ...(report.errors.length > 0 ? [`${report.errors.length} input error(s)`] : []),
  ].join(', ');
  lines.push(summary);
  return `${lines.join('\n')}\n`;
}

/** `-o json`: `{ objects, errors, valid }`. */
export function renderValidateJson(report: ValidateReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

// ---- The command -------------------------------------------------------------------------

/** The flags of `validate`. */
export interface ValidateFlags {
  filename: string[];
  recursive?: boolean;
  clusterVersion?: string;
  localZone?: string;
  output: 'text' | 'json';
}

/** What the command reads from outside; tests pass their own. */
export interface ValidateDeps {
  clock: Clock;
  localZoneId: string;
  io: ValidateIo;
}

/** Runs the checks the flags ask for and renders them; throws a user-facing Error on an unusable `--cluster-version`. */
export async function runValidate(
  flags: ValidateFlags,
  deps: ValidateDeps,
): Promise<{ report: ValidateReport; output: string }> {
  const clusterVersion =
    flags.clusterVersion === undefined
      ? undefined
      : await parseClusterVersionFile(flags.clusterVersion, readOrThrow(flags.clusterVersion, deps.io));
  // jq (a worker thread) is started for the first podJQSelector only.
  let started: Promise<JqSelector> | undefined;
  const jqSelector = (): Promise<JqSelector> =>
    (started ??= import('../integrations/jq-selector.js').then((m) => new m.JqSelector()));
  const jq: PodJqSelector = {
    compile: async (program) => (await jqSelector()).compile(program),
    matches: async (program, input) => (await jqSelector()).matches(program, input),
  };
  try {
    const report = await validateInputs(flags.filename, {
      io: deps.io,
      recursive: flags.recursive === true,
      nowMs: deps.clock.now(),
      localZoneId: flags.localZone ?? deps.localZoneId,
      jq,
      ...(clusterVersion !== undefined ? { clusterVersion } : {}),
    });
    return { report, output: flags.output === 'json' ? renderValidateJson(report) : renderValidateText(report) };
  } finally {
    if (started !== undefined) await (await started).close();
  }
}

function readOrThrow(path: string, io: ValidateIo): string {
  try {
    return path === '-' ? io.readStdin() : io.readFile(path);
  } catch (err) {
    throw new Error(`${path}: cannot read: ${errorMessage(err)}`, { cause: err });
  }
}

/** The action of `validate` (src/cli/commands/validate.ts defines its flags). */
export async function validateAction(flags: ValidateFlags): Promise<void> {
  const deps: ValidateDeps = { clock: new RealClock(), localZoneId: processZoneId(), io: nodeValidateIo() };
  const { report, output } = await runValidate(flags, deps);
  process.stdout.write(output);
  if (!report.valid) throw new CommanderError(1, 'upgrade-operator.invalid', 'invalid objects');
}
