/**
 * What a kubelet reports for a pod the simulation starts: Running with every container ready,
 * or a terminated phase (for Job pods).
 */
import type { Node, Pod, PodStatus } from 'kubernetes-types/core/v1.js';
import { formatTime } from '../../lib/clock.js';
import type { SeededRandom } from '../../lib/random.js';

function nodeIp(node: Node | undefined): string | undefined {
  return node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
}

/** The status of a started pod: phase Running, conditions True, containers running and ready. */
export function runningPodStatus(pod: Pod, node: Node | undefined, now: number, random: SeededRandom): PodStatus {
  const at = formatTime(now);
  const created = pod.metadata?.creationTimestamp ?? at;
  const podIP = `10.${128 + random.int(0, 3)}.${random.int(0, 255)}.${random.int(2, 254)}`;
  const hostIP = nodeIp(node);
  return {
    phase: 'Running',
    conditions: [
      { type: 'Initialized', status: 'True', lastTransitionTime: created },
      { type: 'Ready', status: 'True', lastTransitionTime: at },
      { type: 'ContainersReady', status: 'True', lastTransitionTime: at },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: created },
    ],
    ...(hostIP !== undefined ? { hostIP, hostIPs: [{ ip: hostIP }] } : {}),
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: created,
    qosClass: pod.status?.qosClass ?? 'BestEffort',
    containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: c.image ?? '',
      containerID: `cri-o://${hex(random, 64)}`,
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
      lastState: {},
    })),
  };
}

/** The status of a pod whose containers ended: Succeeded (exit 0) or Failed (exit 1). */
export function terminatedPodStatus(pod: Pod, phase: 'Succeeded' | 'Failed', now: number): PodStatus {
  const at = formatTime(now);
  const reason = phase === 'Succeeded' ? 'Completed' : 'Error';
  const exitCode = phase === 'Succeeded' ? 0 : 1;
  return {
    ...pod.status,
    phase,
    conditions: (pod.status?.conditions ?? []).map((c) =>
      c.type === 'Ready' || c.type === 'ContainersReady'
        ? { ...c, status: 'False', reason: 'PodCompleted', lastTransitionTime: at }
        : c,
    ),
    containerStatuses: (pod.status?.containerStatuses ?? []).map((s) => ({
      ...s,
      ready: false,
      started: false,
      state: {
        terminated: {
          exitCode,
          reason,
          startedAt: s.state?.running?.startedAt ?? at,
          finishedAt: at,
          containerID: s.containerID ?? '',
        },
      },
    })),
  };
}

function hex(random: SeededRandom, count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += '0123456789abcdef'[random.int(0, 15)] ?? '0';
  return s;
}
