/** The definition of `upgrade-operator status`; its action is src/cli/status.ts, loaded when it runs. */
import { Command, InvalidArgumentError, Option } from '../commander-package.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import type { StatusOptions } from '../status.js';

/** What `--details` expands. */
export const DETAILS = ['nodes', 'operators', 'health', 'all'] as const;
/** A `--details` value. */
export type Details = (typeof DETAILS)[number];

/** `--interval` default. */
export const DEFAULT_INTERVAL_MS = 5_000;

/** `--request-timeout` default: a read-only command must not wait for good on a server that never answers. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** `--interval`: a Go duration, at least one second. */
export function parseInterval(value: string): number {
  const r = parseGoDurationMs(value);
  if (!r.ok) throw new InvalidArgumentError(r.error);
  if (r.ms < 1000) throw new InvalidArgumentError('must be at least 1s');
  return r.ms;
}

/** `--request-timeout`: a Go duration (`0`: no limit), as kubectl takes it; a bare number is seconds. */
export function parseRequestTimeout(value: string): number {
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  const r = parseGoDurationMs(value);
  if (!r.ok) throw new InvalidArgumentError(r.error);
  if (r.ms < 0) throw new InvalidArgumentError('must not be negative');
  return r.ms;
}

/** `--details`: a comma-separated subset of nodes, operators, health, all. */
export function parseDetails(value: string, previous: Details[] = []): Details[] {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = list.filter((s) => !(DETAILS as readonly string[]).includes(s));
  if (bad.length > 0 || list.length === 0)
    throw new InvalidArgumentError(`must be ${DETAILS.join(', ')} (got ${JSON.stringify(value)})`);
  return [...new Set([...previous, ...(list as Details[])])];
}

/** The subcommand. */
export function statusCommand(): Command {
  return new Command('status')
    .description(
      'Show an upgrade in progress, like `oc adm upgrade status`: control plane, worker pools and nodes (who blocks a drain), update health, and the upgrade operator’s UpgradeConfigs and UpgradeJobs. Reads only.',
    )
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--context <name>', 'a context other than the kubeconfig’s current-context')
    .option('-w, --watch', 'redraw every --interval until Ctrl-C')
    .addOption(
      new Option('--interval <duration>', 'with --watch: time between snapshots (Go duration)')
        .argParser(parseInterval)
        .default(DEFAULT_INTERVAL_MS, '5s'),
    )
    .option('--details <what>', `expand sections: ${DETAILS.join(', ')} (comma-separated)`, parseDetails)
    .addOption(
      new Option('-o, --output <format>', 'text, or the report as JSON').choices(['text', 'json']).default('text'),
    )
    .addOption(
      new Option(
        '--request-timeout <duration>',
        'how long one request to the API server may take before it is given up (0: no limit), as kubectl’s',
      )
        .argParser(parseRequestTimeout)
        .default(DEFAULT_REQUEST_TIMEOUT_MS, '30s'),
    )
    .action(async (options: StatusOptions) => (await import('../status.js')).statusAction(options));
}
