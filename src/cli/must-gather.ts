/**
 * `upgrade-operator must-gather`: collects, reading only, what a support case about an upgrade
 * needs, in OpenShift must-gather's layout (docs/must-gather.md):
 *
 *     timestamp                                   start and end of the collection
 *     status.json                                 `upgrade-operator status -o json`
 *     metrics.txt                                 the operator pods' /metrics
 *     gather-errors.txt                           what could not be read, and why (only when something failed)
 *     cluster-scoped-resources/<group>/<resource>/<name>.yaml
 *     namespaces/<ns>/<group>/<resource>/<name>.yaml
 *     namespaces/<ns>/core/events.yaml            the namespace's Events, as one List
 *     namespaces/<ns>/pods/<pod>/<pod>.yaml
 *     namespaces/<ns>/pods/<pod>/<container>/logs/current.log|previous.log
 *
 * It never reads a Secret; token-like values in ConfigMaps, environment variables and logs are
 * replaced by `[redacted]`. Only get and list (and `pods/log`, and with no `--metrics-url` outside
 * a cluster `pods/proxy` for the metrics) are sent. A part that cannot be read is noted in
 * gather-errors.txt and the rest is still collected; the command fails only when nothing at all
 * could be read. In a pod (`oc adm must-gather --image=…`, which runs /usr/bin/gather) it uses the
 * pod's service account and writes to `/must-gather`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { stringify } from '../lib/yaml-package.js';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { ConfigMapResource, DeploymentResource, EventResource, PodResource } from '../api/builtin.js';
import { MUST_GATHER_CLUSTER_KINDS, MUST_GATHER_FLOW_KINDS } from '../api/deploy/must-gather-rbac.js';
import { OPERATOR_LABELS } from '../api/deploy/operator-objects.js';
import { APPUIO_CONTROLLER_NAMESPACE } from '../api/managedupgrade.appuio.io/v1beta1/group.js';
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { KubeClient } from '../kube/client.js';
import { isInCluster } from '../kube/in-cluster-config.js';
import { isNotFound } from '../kube/status-error.js';
import { RealClock, type Clock } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { readStatusSnapshot } from './status.js';
import { assessUpgradeStatus } from './upgrade-status.js';
import { renderStatusJson } from './upgrade-status-render.js';
import { version } from './version.js';
import { readingClient } from './reading-client.js';
import { IN_POD_DEST_DIR } from './commands/must-gather.js';

/** The namespaces whose Events are collected besides the operator's (the upgrade's actors). */
export const UPGRADE_NAMESPACES: readonly string[] = [
  'openshift-cluster-version',
  'openshift-machine-config-operator',
  'openshift-machine-api',
];

/** Options of {@link mustGather}. */
export interface MustGatherOptions {
  destDir: string;
  /** The operator's namespaces (default: the managed flow's and the scheduled flow's). */
  namespaces: readonly string[];
  /** Fetch the metrics here instead of through the operator pods. */
  metricsUrl?: string;
}

/** What was collected. */
export interface MustGatherResult {
  files: string[];
  errors: string[];
}

const REDACTED = '[redacted]';
const SECRET_KEY = /(token|passw(or)?d|secret|credential|api[-_]?key|private[-_]?key|bearer|auth)/i;
/** Secrets that need no key to be recognised: JWTs (service-account tokens), OpenShift OAuth tokens, Authorization values. */
const SECRET_VALUES: readonly RegExp[] = [
  /eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g,
  /sha256~[\w-]{20,}/g,
  /\b(Bearer|Basic)\s+[\w.~+/=-]{8,}/gi,
];

/** A text with token-like values replaced: secret-looking values, and the value of any `key: value` / `key=value` whose key names a secret. */
export function redactText(text: string): string {
  let out = text;
  for (const re of SECRET_VALUES) out = out.replace(re, REDACTED);
  return out.replace(
    /^(\s*-?\s*["']?[\w.-]*(?:token|passw(?:or)?d|secret|credential|api[-_]?key|private[-_]?key)[\w.-]*["']?\s*[:=]\s*)(?!\[redacted\])(\S.*)$/gim,
    `$1${REDACTED}`,
  );
}

/** A ConfigMap with its data redacted (values under a secret-looking key entirely). */
function redactConfigMap<T extends KubeObjectLike & { data?: Record<string, string>; binaryData?: unknown }>(cm: T): T {
  const data = Object.fromEntries(
    Object.entries(cm.data ?? {}).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : redactText(v)]),
  );
  const { binaryData: _dropped, ...rest } = cm;
  return { ...rest, ...(cm.data ? { data } : {}) } as T;
}

/** A pod with its environment's literal values redacted. */
function redactPod(pod: Pod): Pod {
  const containers = (list: Container[]): Container[] =>
    list.map((c) => ({
      ...c,
      ...(c.env
        ? {
            env: c.env.map((e) =>
              e.value === undefined ? e : { ...e, value: SECRET_KEY.test(e.name) ? REDACTED : redactText(e.value) },
            ),
          }
        : {}),
    }));
  if (!pod.spec) return pod;
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: containers(pod.spec.containers),
      ...(pod.spec.initContainers ? { initContainers: containers(pod.spec.initContainers) } : {}),
    },
  };
}

/** managedFields say who wrote what, not what is: left out, as they are long. */
function trimmed<T extends KubeObjectLike>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function groupDir(descriptor: Pick<ResourceDescriptor, 'group'>): string {
  return descriptor.group === '' ? 'core' : descriptor.group;
}

/** Collects into `options.destDir`. */
export async function mustGather(
  client: KubeClient,
  options: MustGatherOptions,
  clock: Clock,
): Promise<MustGatherResult> {
  const dest = resolve(options.destDir);
  const files: string[] = [];
  const errors: string[] = [];
  let reads = 0;
  const write = async (path: string, content: string): Promise<void> => {
    const file = join(dest, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    files.push(path);
  };
  const yaml = (obj: unknown): string => stringify(obj, { lineWidth: 0 });
  const attempt = async <T>(what: string, read: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await read();
      reads++;
      return value;
    } catch (err) {
      errors.push(`${what}: ${errorMessage(err)}`);
      return undefined;
    }
  };
  const objectPath = (descriptor: ResourceDescriptor, obj: KubeObjectLike): string => {
    const name = obj.metadata?.name ?? '';
    const ns = obj.metadata?.namespace;
    return descriptor.namespaced && ns
      ? `namespaces/${ns}/${groupDir(descriptor)}/${descriptor.plural}/${name}.yaml`
      : `cluster-scoped-resources/${groupDir(descriptor)}/${descriptor.plural}/${name}.yaml`;
  };
  /** Every object of a kind (in one namespace, or all): one file each. A kind the server does not serve is skipped quietly. */
  const collect = async <T extends KubeObjectLike>(
    descriptor: ResourceDescriptor<T>,
    options: { namespace?: string; labelSelector?: string; redact?: (obj: T) => T } = {},
  ): Promise<T[]> => {
    const what = `list ${descriptor.plural}.${groupDir(descriptor)}${options.namespace ? ` in ${options.namespace}` : ''}`;
    let notServed = false;
    const list = await attempt(what, async () => {
      try {
        return await client.list(descriptor, {
          ...(options.namespace ? { namespace: options.namespace } : {}),
          ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}),
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        notServed = true;
        return { metadata: {}, items: [] as T[] };
      }
    });
    if (!list || notServed) return [];
    for (const item of list.items) {
      const obj = trimmed({
        ...item,
        apiVersion: item.apiVersion ?? apiVersionOf(descriptor),
        kind: item.kind ?? descriptor.kind,
      });
      await write(objectPath(descriptor, obj), yaml(options.redact ? options.redact(obj) : obj));
    }
    return list.items;
  };

  const startedAt = new Date(clock.now()).toISOString();
  // The cluster, as the upgrade sees it.
  for (const descriptor of MUST_GATHER_CLUSTER_KINDS) await collect(descriptor);
  // Both flows' objects, wherever they are.
  const upgradeNamespaces = new Set<string>();
  for (const descriptor of MUST_GATHER_FLOW_KINDS) {
    for (const obj of await collect(descriptor))
      if (obj.metadata?.namespace) upgradeNamespaces.add(obj.metadata.namespace);
  }
  // The operator: its Deployments, its ConfigMap (never a Secret), its pods and their logs.
  const operatorPods: Pod[] = [];
  const selector = Object.entries(OPERATOR_LABELS)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  for (const ns of options.namespaces) {
    await collect(DeploymentResource, { namespace: ns, labelSelector: selector });
    await collect(ConfigMapResource, { namespace: ns, redact: redactConfigMap });
    operatorPods.push(...(await collect(PodResource, { namespace: ns, labelSelector: selector, redact: redactPod })));
  }
  for (const pod of operatorPods) {
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    // Also at the place OpenShift's must-gather puts a pod.
    await write(`namespaces/${ns}/pods/${name}/${name}.yaml`, yaml(redactPod(trimmed(pod))));
    for (const container of pod.spec?.containers ?? []) {
      const restarted = (pod.status?.containerStatuses ?? []).some(
        (s) => s.name === container.name && (s.restartCount ?? 0) > 0,
      );
      for (const previous of restarted ? [false, true] : [false]) {
        const text = await attempt(`logs of ${ns}/${name}/${container.name}${previous ? ' (previous)' : ''}`, () =>
          client.requestText({
            method: 'GET',
            path: `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}/log`,
            query: { container: container.name, ...(previous ? { previous: 'true' } : {}) },
          }),
        );
        if (text !== undefined)
          await write(
            `namespaces/${ns}/pods/${name}/${container.name}/logs/${previous ? 'previous' : 'current'}.log`,
            redactText(text),
          );
      }
    }
  }
  // Events of the operator's namespaces, of the upgrade's actors, and of the flows' objects.
  for (const ns of [...new Set([...options.namespaces, ...UPGRADE_NAMESPACES, ...upgradeNamespaces])].sort()) {
    const events = await attempt(`list events in ${ns}`, () => client.list(EventResource, { namespace: ns }));
    if (events && events.items.length > 0)
      await write(
        `namespaces/${ns}/core/events.yaml`,
        yaml({ apiVersion: 'v1', kind: 'EventList', items: events.items.map((e) => trimmed(e)) }),
      );
  }
  // A metrics snapshot: the URL given, else each operator pod's metrics port.
  const metrics: string[] = [];
  if (options.metricsUrl !== undefined) {
    const url = options.metricsUrl;
    const text = await attempt(`metrics from ${url}`, () => fetchText(url));
    if (text !== undefined) metrics.push(text);
  } else {
    for (const pod of operatorPods) {
      const ns = pod.metadata?.namespace ?? '';
      const name = pod.metadata?.name ?? '';
      const port = metricsPort(pod);
      if (port === undefined) continue;
      const ip = pod.status?.podIP;
      const text = await attempt(`metrics of ${ns}/${name}`, () =>
        isInCluster() && ip
          ? fetchText(`http://${ip.includes(':') ? `[${ip}]` : ip}:${port}/metrics`)
          : client.requestText({
              method: 'GET',
              path: `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}:${port}/proxy/metrics`,
            }),
      );
      if (text !== undefined) metrics.push(`# pod ${ns}/${name}\n${text}`);
    }
  }
  if (metrics.length > 0) await write('metrics.txt', metrics.join('\n'));
  // What `upgrade-operator status -o json` shows.
  const snapshot = await attempt('status', () => readStatusSnapshot(client));
  if (snapshot)
    await write(
      'status.json',
      renderStatusJson(assessUpgradeStatus(snapshot, client.serverTime() ?? clock.now()), false),
    );
  await write(
    'timestamp',
    `${startedAt} must-gather started (upgrade-operator v${version()})\n${new Date(clock.now()).toISOString()} must-gather finished\n`,
  );
  if (errors.length > 0) await write('gather-errors.txt', `${errors.join('\n')}\n`);
  if (reads === 0) throw new Error(`nothing could be read from the cluster:\n  ${errors.join('\n  ')}`);
  return { files, errors };
}

function apiVersionOf(descriptor: Pick<ResourceDescriptor, 'group' | 'version'>): string {
  return descriptor.group === '' ? descriptor.version : `${descriptor.group}/${descriptor.version}`;
}

/** The pod's metrics port: the container port named `http-metrics` or `metrics`. */
function metricsPort(pod: Pod): number | undefined {
  for (const c of pod.spec?.containers ?? [])
    for (const p of c.ports ?? []) if (p.name === 'http-metrics' || p.name === 'metrics') return p.containerPort;
  return undefined;
}

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

export interface MustGatherFlags {
  kubeconfig?: string;
  context?: string;
  destDir?: string;
  namespace: string[];
  metricsUrl?: string;
}

/** The action of `must-gather` (src/cli/commands/must-gather.ts defines its flags). */
export async function mustGatherAction(flags: MustGatherFlags): Promise<void> {
  const clock = new RealClock();
  const client = readingClient(clock, {
    command: 'must-gather',
    kubeconfig: flags.kubeconfig,
    context: flags.context,
  });
  const destDir =
    flags.destDir ??
    (isInCluster()
      ? IN_POD_DEST_DIR
      : `must-gather.local.${new Date(clock.now()).toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}`);
  try {
    const result = await mustGather(
      client,
      {
        destDir,
        namespaces: flags.namespace ?? [MANAGED_UPGRADE_OPERATOR_NAMESPACE, APPUIO_CONTROLLER_NAMESPACE],
        ...(flags.metricsUrl !== undefined ? { metricsUrl: flags.metricsUrl } : {}),
      },
      clock,
    );
    process.stdout.write(`${resolve(destDir)}: ${result.files.length} files\n`);
    if (result.errors.length > 0)
      process.stderr.write(
        `upgrade-operator must-gather: ${result.errors.length} parts could not be read (gather-errors.txt):\n  ${result.errors.join('\n  ')}\n`,
      );
  } finally {
    await client.close();
  }
}
