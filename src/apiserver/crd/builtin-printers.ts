/**
 * Server-side table printers for the built-in kinds we serve, with the columns kube-apiserver
 * 1.29 prints (pkg/printers/internalversion): pods, nodes, namespaces, deployments,
 * daemonsets, jobs, poddisruptionbudgets, events, services, configmaps, secrets,
 * serviceaccounts, leases and CRDs. Other kinds get the default Name + Created At.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import { ageOf, humanDuration } from './human-duration.js';

/** One column: its definition fields and how to compute the cell. */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  priority?: number;
  description: string;
  cell: (obj: JsonObject, now: number) => JsonValue;
}

function get(obj: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  let v = obj;
  for (const p of path) v = isJsonObject(v) ? v[p] : undefined;
  return v;
}
function str(value: JsonValue | undefined, fallback = '<none>'): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
function num(value: JsonValue | undefined): number {
  return typeof value === 'number' ? value : 0;
}
function arr(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}
function objs(value: JsonValue | undefined): JsonObject[] {
  return arr(value).filter(isJsonObject);
}
function scalar(value: JsonValue | undefined, fallback: string): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : fallback;
}
function count(value: JsonValue | undefined): number {
  return isJsonObject(value) ? Object.keys(value).length : 0;
}

const age: PrinterColumn = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created.',
  cell: (o, now) => ageOf(get(o, 'metadata', 'creationTimestamp'), now),
};

function containers(value: JsonObject, ...path: string[]): JsonObject[] {
  return objs(get(value, ...path, 'containers'));
}
function wideWorkload(path: string[]): PrinterColumn[] {
  return [
    {
      name: 'Containers',
      type: 'string',
      priority: 1,
      description: 'Names of each container in the template.',
      cell: (o) =>
        containers(o, ...path)
          .map((c) => str(c['name'], ''))
          .join(','),
    },
    {
      name: 'Images',
      type: 'string',
      priority: 1,
      description: 'Images referenced by each container in the template.',
      cell: (o) =>
        containers(o, ...path)
          .map((c) => str(c['image'], ''))
          .join(','),
    },
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: 'The label selector of the workload.',
      cell: (o) => labelSelector(get(o, 'spec', 'selector')),
    },
  ];
}

function labelSelector(sel: JsonValue | undefined): string {
  if (!isJsonObject(sel)) return '<none>';
  const parts: string[] = [];
  const labels = get(sel, 'matchLabels');
  if (isJsonObject(labels)) for (const k of Object.keys(labels).sort()) parts.push(`${k}=${str(labels[k], '')}`);
  for (const e of objs(get(sel, 'matchExpressions'))) {
    const values = arr(e['values'])
      .map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
      .join(',');
    const op = str(e['operator'], '');
    const key = str(e['key'], '');
    if (op === 'In' || op === 'NotIn') parts.push(`${key} ${op.toLowerCase()} (${values})`);
    else parts.push(op === 'Exists' ? key : `!${key}`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}

function podStatus(value: JsonObject): string {
  let reason = str(get(value, 'status', 'phase'), '');
  const statusReason = str(get(value, 'status', 'reason'), '');
  if (statusReason !== '') reason = statusReason;
  const inits = objs(get(value, 'status', 'initContainerStatuses'));
  const initTotal = arr(get(value, 'spec', 'initContainers')).length;
  let initializing = false;
  inits.forEach((value, index) => {
    if (initializing) return;
    const terminated = get(value, 'state', 'terminated');
    const waiting = get(value, 'state', 'waiting');
    if (isJsonObject(terminated) && num(terminated['exitCode']) === 0) return;
    initializing = true;
    if (isJsonObject(terminated))
      reason = `Init:${str(terminated['reason'], '') || (terminated['signal'] ? `Signal:${num(terminated['signal'])}` : `ExitCode:${num(terminated['exitCode'])}`)}`;
    else if (isJsonObject(waiting) && str(waiting['reason'], '') !== '' && waiting['reason'] !== 'PodInitializing')
      reason = `Init:${str(waiting['reason'])}`;
    else reason = `Init:${index}/${initTotal}`;
  });
  if (!initializing) {
    let hasRunning = false;
    for (const c of [...objs(get(value, 'status', 'containerStatuses'))].reverse()) {
      const waiting = get(c, 'state', 'waiting');
      const terminated = get(c, 'state', 'terminated');
      if (isJsonObject(waiting) && str(waiting['reason'], '') !== '') reason = str(waiting['reason']);
      else if (isJsonObject(terminated)) {
        reason =
          str(terminated['reason'], '') ||
          (terminated['signal'] ? `Signal:${num(terminated['signal'])}` : `ExitCode:${num(terminated['exitCode'])}`);
      } else if (isJsonObject(get(c, 'state', 'running')) && c['ready'] === true) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = objs(get(value, 'status', 'conditions')).some(
        (c) => c['type'] === 'Ready' && c['status'] === 'True',
      );
      reason = ready ? 'Running' : 'NotReady';
    }
  }
  if (get(value, 'metadata', 'deletionTimestamp') !== undefined)
    reason = statusReason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function podRestarts(value: JsonObject, now: number): string {
  let restarts = 0;
  let last = 0;
  for (const c of objs(get(value, 'status', 'containerStatuses'))) {
    restarts += num(c['restartCount']);
    const finished = get(c, 'lastState', 'terminated', 'finishedAt');
    if (typeof finished === 'string') last = Math.max(last, Date.parse(finished) || 0);
  }
  return restarts > 0 && last > 0 ? `${restarts} (${humanDuration(now - last)} ago)` : String(restarts);
}

const podColumns: PrinterColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    description: 'The aggregate readiness state of this pod for accepting traffic.',
    cell: (value) => {
      const st = objs(get(value, 'status', 'containerStatuses'));
      return `${st.filter((c) => c['ready'] === true).length}/${containers(value, 'spec').length}`;
    },
  },
  {
    name: 'Status',
    type: 'string',
    description: 'The aggregate status of the containers in this pod.',
    cell: podStatus,
  },
  {
    name: 'Restarts',
    type: 'string',
    description:
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    cell: podRestarts,
  },
  age,
  {
    name: 'IP',
    type: 'string',
    priority: 1,
    description: 'The IP address assigned to the pod.',
    cell: (o) => str(get(o, 'status', 'podIP')),
  },
  {
    name: 'Node',
    type: 'string',
    priority: 1,
    description: 'Name of the node this pod runs on.',
    cell: (o) => str(get(o, 'spec', 'nodeName')),
  },
  {
    name: 'Nominated Node',
    type: 'string',
    priority: 1,
    description: 'Node the scheduler nominated for this pod.',
    cell: (o) => str(get(o, 'status', 'nominatedNodeName')),
  },
  {
    name: 'Readiness Gates',
    type: 'string',
    priority: 1,
    description: 'Pod readiness gates.',
    cell: (value) => {
      const gates = objs(get(value, 'spec', 'readinessGates'));
      if (gates.length === 0) return '<none>';
      const conds = objs(get(value, 'status', 'conditions'));
      const ok = gates.filter((g) =>
        conds.some((c) => c['type'] === g['conditionType'] && c['status'] === 'True'),
      ).length;
      return `${ok}/${gates.length}`;
    },
  },
];

function nodeRoles(value: JsonObject): string {
  const labels = get(value, 'metadata', 'labels');
  const roles = new Set<string>();
  if (isJsonObject(labels)) {
    for (const [k, v] of Object.entries(labels)) {
      if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length)
        roles.add(k.slice('node-role.kubernetes.io/'.length));
      else if (k === 'kubernetes.io/role' && typeof v === 'string' && v !== '') roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeStatus(value: JsonObject): string {
  const ready = objs(get(value, 'status', 'conditions')).find((c) => c['type'] === 'Ready');
  const parts = [
    ready === undefined
      ? 'Unknown'
      : ready['status'] === 'True'
        ? 'Ready'
        : ready['status'] === 'False'
          ? 'NotReady'
          : 'Unknown',
  ];
  if (get(value, 'spec', 'unschedulable') === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeAddress(value: JsonObject, type: string): string {
  return str(objs(get(value, 'status', 'addresses')).find((a) => a['type'] === type)?.['address']);
}

const printers: Record<string, PrinterColumn[]> = {
  '/Pod': podColumns,
  '/Node': [
    { name: 'Status', type: 'string', description: 'The status of the node.', cell: nodeStatus },
    { name: 'Roles', type: 'string', description: 'The roles of the node.', cell: nodeRoles },
    age,
    {
      name: 'Version',
      type: 'string',
      description: 'Kubelet version reported by the node.',
      cell: (o) => str(get(o, 'status', 'nodeInfo', 'kubeletVersion'), ''),
    },
    {
      name: 'Internal-IP',
      type: 'string',
      priority: 1,
      description: 'Internal IP of the node.',
      cell: (o) => nodeAddress(o, 'InternalIP'),
    },
    {
      name: 'External-IP',
      type: 'string',
      priority: 1,
      description: 'External IP of the node.',
      cell: (o) => nodeAddress(o, 'ExternalIP'),
    },
    {
      name: 'OS-Image',
      type: 'string',
      priority: 1,
      description: 'OS image reported by the node.',
      cell: (o) => str(get(o, 'status', 'nodeInfo', 'osImage'), '<unknown>'),
    },
    {
      name: 'Kernel-Version',
      type: 'string',
      priority: 1,
      description: 'Kernel version reported by the node.',
      cell: (o) => str(get(o, 'status', 'nodeInfo', 'kernelVersion'), '<unknown>'),
    },
    {
      name: 'Container-Runtime',
      type: 'string',
      priority: 1,
      description: 'Container runtime reported by the node.',
      cell: (o) => str(get(o, 'status', 'nodeInfo', 'containerRuntimeVersion'), '<unknown>'),
    },
  ],
  '/Namespace': [
    {
      name: 'Status',
      type: 'string',
      description: 'The status of the namespace.',
      cell: (o) => str(get(o, 'status', 'phase'), ''),
    },
    age,
  ],
  'apps/Deployment': [
    {
      name: 'Ready',
      type: 'string',
      description: 'Number of the pod with ready state.',
      cell: (o) => `${num(get(o, 'status', 'readyReplicas'))}/${num(get(o, 'spec', 'replicas'))}`,
    },
    {
      name: 'Up-to-date',
      type: 'string',
      description:
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      cell: (o) => num(get(o, 'status', 'updatedReplicas')),
    },
    {
      name: 'Available',
      type: 'string',
      description: 'Total number of available pods targeted by this deployment.',
      cell: (o) => num(get(o, 'status', 'availableReplicas')),
    },
    age,
    ...wideWorkload(['spec', 'template', 'spec']),
  ],
  'apps/DaemonSet': [
    {
      name: 'Desired',
      type: 'integer',
      description: 'The number of nodes that should run the daemon pod.',
      cell: (o) => num(get(o, 'status', 'desiredNumberScheduled')),
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'The number of nodes running at least one daemon pod.',
      cell: (o) => num(get(o, 'status', 'currentNumberScheduled')),
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'The number of nodes whose daemon pod is ready.',
      cell: (o) => num(get(o, 'status', 'numberReady')),
    },
    {
      name: 'Up-to-date',
      type: 'integer',
      description: 'The number of nodes running the updated daemon pod.',
      cell: (o) => num(get(o, 'status', 'updatedNumberScheduled')),
    },
    {
      name: 'Available',
      type: 'integer',
      description: 'The number of nodes whose daemon pod is available.',
      cell: (o) => num(get(o, 'status', 'numberAvailable')),
    },
    {
      name: 'Node Selector',
      type: 'string',
      description: 'The node selector of the pod template.',
      cell: (o) => labelSelector({ matchLabels: get(o, 'spec', 'template', 'spec', 'nodeSelector') ?? {} }),
    },
    age,
    ...wideWorkload(['spec', 'template', 'spec']),
  ],
  'batch/Job': [
    {
      name: 'Completions',
      type: 'string',
      description: 'The completion status of the job.',
      cell: (o) =>
        `${num(get(o, 'status', 'succeeded'))}/${get(o, 'spec', 'completions') === undefined ? 1 : num(get(o, 'spec', 'completions'))}`,
    },
    {
      name: 'Duration',
      type: 'string',
      description: 'Time required to complete the job.',
      cell: (value, now) => {
        const start = get(value, 'status', 'startTime');
        if (typeof start !== 'string') return '';
        const done = get(value, 'status', 'completionTime');
        return humanDuration((typeof done === 'string' ? Date.parse(done) : now) - Date.parse(start));
      },
    },
    age,
    ...wideWorkload(['spec', 'template', 'spec']),
  ],
  'policy/PodDisruptionBudget': [
    {
      name: 'Min Available',
      type: 'string',
      description: 'The minimum number of pods that must be available.',
      cell: (o) => scalar(get(o, 'spec', 'minAvailable'), 'N/A'),
    },
    {
      name: 'Max Unavailable',
      type: 'string',
      description: 'The maximum number of pods that may be unavailable.',
      cell: (o) => scalar(get(o, 'spec', 'maxUnavailable'), 'N/A'),
    },
    {
      name: 'Allowed Disruptions',
      type: 'integer',
      description: 'Calculated number of pods that may be disrupted at this time.',
      cell: (o) => num(get(o, 'status', 'disruptionsAllowed')),
    },
    age,
  ],
  '/Event': eventColumns(),
  'events.k8s.io/Event': eventColumns(),
  '/Service': [
    {
      name: 'Type',
      type: 'string',
      description: 'The type of the service.',
      cell: (o) => str(get(o, 'spec', 'type'), 'ClusterIP'),
    },
    {
      name: 'Cluster-IP',
      type: 'string',
      description: 'The cluster IP of the service.',
      cell: (o) => str(get(o, 'spec', 'clusterIP')),
    },
    {
      name: 'External-IP',
      type: 'string',
      description: 'External IPs of the service.',
      cell: (value) => {
        const ips = [
          ...arr(get(value, 'spec', 'externalIPs')).map((i) => scalar(i, '')),
          ...objs(get(value, 'status', 'loadBalancer', 'ingress')).map((i) => scalar(i['ip'] ?? i['hostname'], '')),
        ];
        if (ips.length > 0) return ips.join(',');
        return get(value, 'spec', 'type') === 'LoadBalancer' ? '<pending>' : '<none>';
      },
    },
    {
      name: 'Port(s)',
      type: 'string',
      description: 'The ports of the service.',
      cell: (value) => {
        const ports = objs(get(value, 'spec', 'ports')).map(
          (p) => `${num(p['port'])}${p['nodePort'] ? `:${num(p['nodePort'])}` : ''}/${str(p['protocol'], 'TCP')}`,
        );
        return ports.length === 0 ? '<none>' : ports.join(',');
      },
    },
    age,
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: 'The selector of the service.',
      cell: (o) => labelSelector({ matchLabels: get(o, 'spec', 'selector') ?? {} }),
    },
  ],
  '/ConfigMap': [
    {
      name: 'Data',
      type: 'integer',
      description: 'Number of entries in data and binaryData.',
      cell: (o) => count(o['data']) + count(o['binaryData']),
    },
    age,
  ],
  '/Secret': [
    { name: 'Type', type: 'string', description: 'The type of the secret.', cell: (o) => str(o['type'], '') },
    { name: 'Data', type: 'integer', description: 'Number of entries in data.', cell: (o) => count(o['data']) },
    age,
  ],
  '/ServiceAccount': [
    {
      name: 'Secrets',
      type: 'string',
      description: 'Number of secrets of the service account.',
      cell: (o) => arr(o['secrets']).length,
    },
    age,
  ],
  'coordination.k8s.io/Lease': [
    {
      name: 'Holder',
      type: 'string',
      description: 'The holder of the lease.',
      cell: (o) => str(get(o, 'spec', 'holderIdentity'), ''),
    },
    age,
  ],
  'apiextensions.k8s.io/CustomResourceDefinition': [
    { name: 'Created At', type: 'date', description: 'Time the object was created.', cell: (o) => createdAt(o) },
  ],
};

function createdAt(value: JsonObject): JsonValue {
  const t = get(value, 'metadata', 'creationTimestamp');
  return typeof t === 'string' ? t : null;
}

function eventColumns(): PrinterColumn[] {
  const last = (o: JsonObject): JsonValue | undefined =>
    get(o, 'series', 'lastObservedTime') ??
    o['lastTimestamp'] ??
    o['eventTime'] ??
    get(o, 'metadata', 'creationTimestamp');
  const regarding = (o: JsonObject): JsonValue | undefined => o['involvedObject'] ?? o['regarding'];
  return [
    {
      name: 'Last Seen',
      type: 'string',
      description: 'Time since the event was last seen.',
      cell: (o, now) => ageOf(last(o), now),
    },
    { name: 'Type', type: 'string', description: 'Type of the event.', cell: (o) => str(o['type'], '') },
    { name: 'Reason', type: 'string', description: 'Reason of the event.', cell: (o) => str(o['reason'], '') },
    {
      name: 'Object',
      type: 'string',
      description: 'The object the event is about.',
      cell: (o) => `${str(get(regarding(o), 'kind'), '').toLowerCase()}/${str(get(regarding(o), 'name'), '')}`,
    },
    {
      name: 'Subobject',
      type: 'string',
      priority: 1,
      description: 'The field of the object the event is about.',
      cell: (o) => str(get(regarding(o), 'fieldPath'), ''),
    },
    {
      name: 'Source',
      type: 'string',
      priority: 1,
      description: 'The component reporting the event.',
      cell: (o) =>
        str(get(o, 'source', 'component'), '') || str(o['reportingController'] ?? o['reportingComponent'], ''),
    },
    {
      name: 'Message',
      type: 'string',
      description: 'A human-readable description of the event.',
      cell: (o) => str(o['message'] ?? o['note'], ''),
    },
    {
      name: 'First Seen',
      type: 'string',
      priority: 1,
      description: 'Time since the event was first seen.',
      cell: (o, now) => ageOf(o['firstTimestamp'] ?? o['eventTime'] ?? get(o, 'metadata', 'creationTimestamp'), now),
    },
    {
      name: 'Count',
      type: 'string',
      priority: 1,
      description: 'Number of times the event occurred.',
      cell: (o) => String(num(o['count'] ?? get(o, 'series', 'count')) || 1),
    },
    {
      name: 'Name',
      type: 'string',
      priority: 1,
      description: 'Name of the event.',
      cell: (o) => str(get(o, 'metadata', 'name'), ''),
    },
  ];
}

/** Whether a kind has a Name column first (events show it last, at priority 1). */
export function hasLeadingName(group: string, kind: string): boolean {
  return kind !== 'Event' || (group !== '' && group !== 'events.k8s.io');
}

/** The columns (after Name) of a built-in kind; the default printer's Created At otherwise. */
export function builtinColumns(group: string, kind: string): PrinterColumn[] {
  return (
    printers[`${group}/${kind}`] ?? [
      { name: 'Created At', type: 'date', description: 'Time the object was created.', cell: (o) => createdAt(o) },
    ]
  );
}
