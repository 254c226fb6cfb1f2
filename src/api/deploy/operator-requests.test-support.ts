/**
 * Records the API requests the operator makes in a simulated run, and checks them against
 * generated RBAC rules, for the RBAC coverage tests of both flows. The operator's clients report
 * each request to an activity tracker synchronously, before the request leaves; a wrapper around
 * Transport notes which requests were started right after such a report (the simulated cluster's
 * clients report nothing).
 */
import type { SimEnvironment } from '../../cli/scenarios/sim-environment.js';
import { Manager } from '../../kube/manager.js';
import { Transport, type HttpRequest } from '../../kube/transport.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { SeededRandom } from '../../lib/random.js';
import { allowingGrants, requestAttributes, type ResolvedGrant } from './rbac-authorizer.test-support.js';

/** One request of the operator. */
export interface OperatorRequest {
  method: string;
  path: string;
}

/** A recorder installed on Transport until `restore()`. */
export interface RequestRecorder {
  readonly requests: OperatorRequest[];
  /** Pass as the scenario runner's `onOperatorRequest`. */
  readonly onOperatorRequest: () => void;
  /** An activity tracker for an operator client made outside the scenario runner (leader election). */
  observing(inner: ActivityTracker): ActivityTracker;
  restore(): void;
}

/** Starts recording. */
export function recordOperatorRequests(): RequestRecorder {
  const requests: OperatorRequest[] = [];
  let reported = false;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with .call(this) and put back
  const original = { request: Transport.prototype.request, stream: Transport.prototype.stream };
  Transport.prototype.request = function (this: Transport, req: HttpRequest) {
    reported = false;
    const p = original.request.call(this, req);
    if (reported) requests.push({ method: req.method, path: req.path });
    return p;
  };
  Transport.prototype.stream = function (this: Transport, req: HttpRequest) {
    reported = false;
    const p = original.stream.call(this, req);
    if (reported) requests.push({ method: req.method, path: req.path });
    return p;
  };
  return {
    requests,
    onOperatorRequest: () => void (reported = true),
    observing(inner: ActivityTracker): ActivityTracker {
      return {
        begin(what: string): () => void {
          if (what.startsWith('http ')) reported = true;
          return inner.begin(what);
        },
      };
    },
    restore(): void {
      Transport.prototype.request = original.request;
      Transport.prototype.stream = original.stream;
    },
  };
}

/** The requests no grant allows, described; throws on a non-resource request. */
export function deniedRequests(requests: readonly OperatorRequest[], grants: readonly ResolvedGrant[]): string[] {
  const denied = new Set<string>();
  for (const r of requests) {
    const a = requestAttributes(r.method, r.path);
    if (!a) throw new Error(`not a resource request: ${r.method} ${r.path}`);
    if (allowingGrants(grants, a).length === 0) denied.add(`${a.verb} ${a.apiGroup || 'core'}/${a.resource}${a.name ? ` ${a.name}` : ''} in ${a.namespace ?? '(cluster)'}  [${r.method} ${r.path.split('?')[0] ?? ''}]`);
  }
  return [...denied];
}

/** Every verb of every grant no request used, as `<verb> <resources> in <namespace|(cluster)>`. */
export function unusedVerbs(requests: readonly OperatorRequest[], grants: readonly ResolvedGrant[]): string[] {
  const used = new Set<string>();
  for (const r of requests) {
    const a = requestAttributes(r.method, r.path);
    if (!a) continue;
    for (const g of allowingGrants(grants, a)) used.add(`${grants.indexOf(g)} ${a.verb}`);
  }
  const unused: string[] = [];
  grants.forEach((g, i) => {
    for (const verb of g.grant.rule.verbs) {
      if (!used.has(`${i} ${verb}`)) unused.push(`${verb} ${g.grant.rule.resources?.join(',') ?? ''} in ${g.namespace ?? '(cluster)'}`);
    }
  });
  return unused;
}

/**
 * Leader election as `upgrade-operator run` does it — acquire (create), renew for ten virtual
 * seconds, release — on a client whose requests the recorder sees.
 */
export async function exerciseLeaderElection(env: SimEnvironment, recorder: RequestRecorder, namespace: string, leaseName: string): Promise<void> {
  const client = env.newClient('upgrade-operator', namespace, recorder.observing(env.clock.activity));
  const manager = new Manager({
    client,
    clock: env.clock,
    logger: env.logger,
    random: new SeededRandom(1),
    leaderElection: { namespace, name: leaseName, identity: 'rbac-test', leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
  });
  const abort = new AbortController();
  const running = manager.start(abort.signal);
  const until = env.clock.now() + 10_000;
  await env.clock.run({ until: () => manager.leading && env.clock.now() >= until, signal: env.signal });
  abort.abort();
  await running;
  await client.close();
}
