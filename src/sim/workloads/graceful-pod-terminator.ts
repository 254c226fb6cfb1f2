/**
 * Stands in for the kubelets of the simulated Nodes when the simulated cluster runs against an
 * external API server (`simulate --kubeconfig`): a real kube-apiserver without kubelets never
 * removes a gracefully deleted Pod, so drains would never end. The embedded API server does this
 * itself, on the same virtual clock.
 */
import { PodResource } from '../../api/builtin.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import type { Timer } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import type { SimContext } from '../context.js';

/** Virtual ms before a failed removal of a terminated pod is tried again. */
const RETRY_MS = 5_000;

/**
 * Stands in for the kubelet of the simulated Nodes on an external server: a Pod deleted with a
 * grace period is deleted again with grace 0 once that period has passed on the virtual clock
 * (the embedded server does this itself, on the same clock). Pods of `foreignNodes` (there
 * before the run, allowed by --force) are left to their own kubelet.
 */
export function startGracefulPodTerminator(
  ctx: SimContext,
  foreignNodes: ReadonlySet<string>,
  signal: AbortSignal,
): void {
  const log = ctx.logger.child({ component: 'sim-pod-termination' });
  // Its own informer: starting the shared factory now would list kinds before the cluster is installed.
  const informers = new InformerFactory({
    client: ctx.client,
    clock: ctx.clock,
    logger: log,
    random: ctx.random.fork('pod-termination'),
  });
  const pods = informers.informerFor(PodResource);
  const timers = new Map<string, Timer>();
  const consider = (pod: {
    metadata?: {
      uid?: string;
      name?: string;
      namespace?: string;
      deletionTimestamp?: string;
      deletionGracePeriodSeconds?: number;
    };
    spec?: { nodeName?: string };
  }): void => {
    const m = pod.metadata;
    const uid = m?.uid;
    const node = pod.spec?.nodeName;
    if (
      signal.aborted ||
      !m ||
      uid === undefined ||
      m.deletionTimestamp === undefined ||
      !node ||
      foreignNodes.has(node) ||
      timers.has(uid)
    )
      return;
    const grace = (m.deletionGracePeriodSeconds ?? 0) * 1000;
    timers.set(
      uid,
      ctx.clock.setTimer(grace, () => {
        const done = ctx.activity?.begin('sim pod termination');
        ctx.client
          .delete(PodResource, m.namespace, m.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid }, signal })
          .catch((err: unknown) => {
            if (isNotFound(err) || isConflict(err) || signal.aborted) return;
            log.warn(
              { pod: `${m.namespace ?? ''}/${m.name ?? ''}`, err: errorMessage(err) },
              'cannot remove a terminated pod; trying again',
            );
            timers.delete(uid);
            ctx.clock.setTimer(RETRY_MS, () => {
              const latest = pods.get(m.namespace, m.name ?? '');
              if (latest?.metadata?.uid === uid) consider(latest);
            });
          })
          .finally(() => done?.());
      }),
    );
  };
  pods.addHandlers({
    onAdd: consider,
    onUpdate: (_old, pod) => consider(pod),
    onDelete: (pod) => {
      const uid = pod.metadata?.uid;
      if (uid === undefined) return;
      timers.get(uid)?.cancel();
      timers.delete(uid);
    },
  });
  signal.addEventListener(
    'abort',
    () => {
      for (const t of timers.values()) t.cancel();
      timers.clear();
    },
    { once: true },
  );
  informers.start(signal);
}
