/**
 * A small `simulate -o json` report by hand, for the picture's tests: a 60-minute run from
 * 2026-03-02T00:00:00Z with one master that is cordoned, drained, rebooted and uncordoned, one
 * capacity clone created and deleted in the run, one pool, ClusterVersion 4.14.30 → 4.15.38,
 * Watchdog and one warning alert, one silence, the upgrade window and the operator's states.
 */
const T0 = Date.parse('2026-03-02T00:00:00Z');

/** RFC 3339 of `minutes` after the start. */
export function at(minutes: number): string {
  return new Date(T0 + minutes * 60_000).toISOString();
}

/** Virtual ms since the epoch of `minutes` after the start. */
export function ms(minutes: number): number {
  return T0 + minutes * 60_000;
}

/** One transition, `minutes` after the start. */
export function change(
  minutes: number,
  kind: string,
  name: string,
  field: string,
  from: unknown,
  to: unknown,
  extra: Record<string, string> = {},
): Record<string, unknown> {
  return { at: at(minutes), elapsedMs: minutes * 60_000, kind, name, field, from, to, ...extra };
}

const MASTER = 'master-0';
const CLONE = 'worker-clone-1';
const STATE = 'machineconfiguration.openshift.io/state';

/** The report, as JSON.parse gives it. */
export function sampleReport(): Record<string, unknown> {
  return {
    scenario: 'sample',
    seed: 3,
    ok: true,
    summary: '4.14.30 → 4.15.38 Upgraded, 60.0 virtual minutes',
    virtualMinutes: 60,
    conditions: [
      { type: 'StartedNotificationSent', status: 'True', startTime: at(5), completeTime: at(5), message: 'sent' },
      { type: 'ControlPlaneUpgraded', status: 'True', startTime: at(5), completeTime: at(40), message: 'done' },
    ],
    operatorStates: [
      {
        at: at(0),
        elapsedMs: 0,
        phase: 'Pending',
        step: '',
        message: '',
        waitingReason: 'WaitingForUpgradeTime',
        waiting: 'scheduled for 00:05',
        warning: '',
      },
      {
        at: at(5),
        elapsedMs: 5 * 60_000,
        phase: 'Upgrading',
        step: 'ControlPlaneUpgraded=False',
        message: '',
        waitingReason: 'WaitingForControlPlane',
        waiting: 'control plane 10%',
        warning: '',
      },
      {
        at: at(20),
        elapsedMs: 20 * 60_000,
        phase: 'Upgrading',
        step: 'ControlPlaneUpgraded=False',
        message: '',
        waitingReason: 'WaitingForControlPlane',
        waiting: 'control plane 50%',
        warning: 'NodeDrainTimeout: <b>pdb</b>',
      },
      {
        at: at(50),
        elapsedMs: 50 * 60_000,
        phase: 'Upgraded',
        step: 'CompletedNotificationSent=True',
        message: '',
        waitingReason: '',
        waiting: '',
        warning: 'NodeDrainTimeout: <b>pdb</b>',
      },
    ],
    windows: [
      { kind: 'UpgradeConfig', name: 'managed-upgrade-config', start: at(5), end: at(125), what: 'upgrade window' },
    ],
    transitions: [
      change(0, 'Node', CLONE, 'object', 'absent', 'present'),
      change(6, 'ClusterVersion', 'version', 'spec.desiredUpdate.version', null, '4.15.38'),
      change(7, 'ClusterVersion', 'version', 'status.history[0].state', 'Completed', 'Partial'),
      change(
        10,
        'ClusterVersion',
        'version',
        'condition/Progressing.message',
        'Working towards 4.15.38',
        'Working towards 4.15.38: 9 of 883 done (1% complete)',
      ),
      change(12, 'ClusterOperator', 'etcd', 'status.versions[operator]', '4.14.30', '4.15.38'),
      change(20, 'MachineConfigPool', 'master', 'condition/Updating', 'False', 'True', {
        reason: '',
        message: 'updating',
      }),
      change(20, 'MachineConfigPool', 'master', 'status.updatedMachineCount', 1, 0),
      change(20, 'Node', MASTER, STATE, 'Done', 'Working'),
      change(21, 'Node', MASTER, 'spec.unschedulable', false, true),
      change(25, 'Node', MASTER, 'condition/Ready', 'True', 'False', {
        reason: 'KubeletNotReady',
        message: 'rebooting',
      }),
      change(27, 'Node', MASTER, 'condition/Ready', 'False', 'True', { reason: 'KubeletReady', message: 'ready' }),
      change(28, 'Node', MASTER, 'spec.unschedulable', true, false),
      change(28, 'Node', MASTER, STATE, 'Working', 'Done'),
      change(29, 'MachineConfigPool', 'master', 'status.updatedMachineCount', 0, 1),
      change(30, 'MachineConfigPool', 'master', 'condition/Updating', 'True', 'False', {
        reason: '',
        message: 'updated',
      }),
      change(40, 'ClusterVersion', 'version', 'condition/Progressing', 'True', 'False', {
        message: 'Cluster version is 4.15.38',
      }),
      change(55, 'Node', CLONE, 'object', 'present', 'absent'),
    ],
    alerts: [
      {
        alertname: 'Watchdog',
        severity: 'none',
        labels: { alertname: 'Watchdog' },
        state: 'firing',
        forMs: 0,
        pendingSince: at(0),
        firedAt: at(0),
        resolvedAt: null,
        droppedAt: null,
      },
      {
        alertname: 'KubeNodeNotReady',
        severity: 'warning',
        labels: { alertname: 'KubeNodeNotReady', node: MASTER },
        state: 'resolved',
        forMs: 60_000,
        pendingSince: at(25),
        firedAt: at(26),
        resolvedAt: at(27),
        droppedAt: null,
      },
    ],
    silences: [
      {
        id: 's1',
        matchers: ['severity=~"(warning|info)"'],
        createdBy: 'managed-upgrade-operator',
        comment: 'control plane',
        startsAt: at(6),
        endsAt: at(40),
        updatedAt: at(40),
        state: 'expired',
      },
    ],
    final: {
      clusterVersion: {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterVersion',
        metadata: { name: 'version' },
        spec: { clusterID: 'x' },
        status: {
          history: [
            {
              state: 'Completed',
              version: '4.15.38',
              image: 'i',
              verified: true,
              startedTime: at(7),
              completionTime: at(40),
            },
            {
              state: 'Completed',
              version: '4.14.30',
              image: 'i',
              verified: false,
              startedTime: '2026-01-01T00:00:00Z',
              completionTime: '2026-01-01T01:00:00Z',
            },
          ],
        },
      },
      clusterOperators: [],
      machineConfigPools: [{ metadata: { name: 'master' }, status: { machineCount: 1, updatedMachineCount: 1 } }],
      nodes: [
        {
          metadata: {
            name: MASTER,
            labels: { 'node-role.kubernetes.io/master': '', 'topology.kubernetes.io/zone': 'zone-a' },
            annotations: { [STATE]: 'Done' },
          },
          spec: {},
        },
      ],
    },
    timeline: [],
  };
}
