/**
 * The rehearsal file (docs/simulation.md#rehearsing-the-real-deployment): what `simulate
 * --operator external --rehearsal-out FILE` writes and `run --rehearsal FILE` reads, so that the
 * operator as deployed (its own process, its own flags) runs against a simulated cluster and keeps
 * that cluster's time. JSON: the API server's kubeconfig, the simulated Prometheus and
 * Alertmanager (and OCM), the flows the scenario expects and their namespace, and the scaled
 * clock. Writing, reading and merging are pure; nothing here loads the simulation.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { ClockScaling } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import type { Flow } from './commands/run.js';
import { schemaProblems } from './schema-problems.js';

/** The `kind` of a rehearsal file. */
export const REHEARSAL_KIND = 'UpgradeOperatorRehearsal';

const Url = Type.String({ minLength: 1, description: 'http(s) base URL' });
const Instant = Type.String({ minLength: 1, description: 'RFC 3339 with milliseconds, e.g. 2026-03-02T00:00:00.000Z' });

const RehearsalSchema = Type.Object(
  {
    kind: Type.Literal(REHEARSAL_KIND),
    scenario: Type.Optional(
      Type.String({ description: 'the scenario that wrote the file (for people; `run` ignores it)' }),
    ),
    kubeconfig: Type.String({ minLength: 1, description: "the API server's kubeconfig (absolute path)" }),
    context: Type.Optional(Type.String({ minLength: 1, description: 'a context other than its current-context' })),
    prometheusUrl: Url,
    alertmanagerUrl: Url,
    ocmUrl: Type.Optional(Url),
    flows: Type.Array(Type.Union([Type.Literal('managed'), Type.Literal('scheduled')]), {
      minItems: 1,
      uniqueItems: true,
    }),
    namespace: Type.String({ description: "the scheduled flow's namespace (run's --namespace)" }),
    clock: Type.Object(
      {
        virtualStart: Instant,
        wallOrigin: Instant,
        scale: Type.Number({ exclusiveMinimum: 0, description: 'virtual ms per wall ms' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** A rehearsal file's content. */
export type Rehearsal = Static<typeof RehearsalSchema>;

/** What `simulate` knows when it writes the file. */
export interface RehearsalParts {
  scenario: string;
  kubeconfig: string;
  context?: string;
  prometheusUrl: string;
  alertmanagerUrl: string;
  ocmUrl?: string;
  flows: readonly Flow[];
  namespace: string;
  scaling: ClockScaling;
}

/** The file's content from its parts, pure. */
export function rehearsal(parts: RehearsalParts): Rehearsal {
  return {
    kind: REHEARSAL_KIND,
    scenario: parts.scenario,
    kubeconfig: parts.kubeconfig,
    ...(parts.context !== undefined ? { context: parts.context } : {}),
    prometheusUrl: parts.prometheusUrl,
    alertmanagerUrl: parts.alertmanagerUrl,
    ...(parts.ocmUrl !== undefined ? { ocmUrl: parts.ocmUrl } : {}),
    flows: [...parts.flows],
    namespace: parts.namespace,
    clock: {
      virtualStart: new Date(parts.scaling.start).toISOString(),
      wallOrigin: new Date(parts.scaling.realOrigin).toISOString(),
      scale: parts.scaling.scale,
    },
  };
}

/** The clock of a (valid) rehearsal file. */
export function rehearsalScaling(file: Rehearsal): ClockScaling {
  return {
    start: Date.parse(file.clock.virtualStart),
    realOrigin: Date.parse(file.clock.wallOrigin),
    scale: file.clock.scale,
  };
}

export type ParsedRehearsal = { ok: true; rehearsal: Rehearsal } | { ok: false; problems: string[] };

/** Parses and checks a rehearsal file's text, pure; every problem at once. */
export function parseRehearsal(text: string): ParsedRehearsal {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`not JSON: ${errorMessage(err)}`] };
  }
  if (!Value.Check(RehearsalSchema, value)) return { ok: false, problems: schemaProblems(RehearsalSchema, value) };
  const problems: string[] = [];
  for (const key of ['prometheusUrl', 'alertmanagerUrl', 'ocmUrl'] as const) {
    const url = value[key];
    if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
      problems.push(`/${key}: ${JSON.stringify(url)} is not an http(s) URL`);
  }
  for (const key of ['virtualStart', 'wallOrigin'] as const) {
    const at = value.clock[key];
    if (!/^\d{4}-\d\d-\d\dT/.test(at) || Number.isNaN(Date.parse(at)))
      problems.push(`/clock/${key}: ${JSON.stringify(at)} is not an RFC 3339 time`);
  }
  if (!Number.isFinite(value.clock.scale)) problems.push('/clock/scale: must be a finite number');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rehearsal: value };
}

/** The options of `run` a rehearsal file sets. */
export interface RehearsedOptions {
  kubeconfig?: string;
  prometheusUrl: string;
  alertmanagerUrl: string;
  flows: Flow[];
  namespace: string;
  metricsBindAddress: string;
  collectorBindAddress: string;
  healthProbeBindAddress: string;
}

/**
 * Where a rehearsal's operator serves its metrics and probes unless told: loopback, any free port
 * (a workstation is no pod: MUO's fixed ports on every interface would clash and be exposed). The
 * log line `upgrade-operator starting` names the addresses.
 */
export const REHEARSAL_BIND_ADDRESS = '127.0.0.1:0';

/** Names of the options above, as commander calls them. */
export type RehearsedOption = keyof RehearsedOptions;

/**
 * `run`'s options with the file's values, pure: a flag given on the command line wins (`explicit`
 * names the options whose value did not come from a default); so does `--kubeconfig`. The
 * servers bind {@link REHEARSAL_BIND_ADDRESS} unless given.
 */
export function withRehearsal<T extends RehearsedOptions>(
  options: T,
  file: Rehearsal,
  explicit: ReadonlySet<RehearsedOption>,
): T {
  const pick = <K extends RehearsedOption>(key: K, value: T[K]): T[K] => (explicit.has(key) ? options[key] : value);
  return {
    ...options,
    kubeconfig: options.kubeconfig ?? file.kubeconfig,
    prometheusUrl: pick('prometheusUrl', file.prometheusUrl),
    alertmanagerUrl: pick('alertmanagerUrl', file.alertmanagerUrl),
    flows: pick('flows', [...file.flows]),
    namespace: pick('namespace', file.namespace),
    metricsBindAddress: pick('metricsBindAddress', REHEARSAL_BIND_ADDRESS),
    collectorBindAddress: pick('collectorBindAddress', REHEARSAL_BIND_ADDRESS),
    healthProbeBindAddress: pick('healthProbeBindAddress', REHEARSAL_BIND_ADDRESS),
  };
}
