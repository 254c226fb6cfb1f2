/**
 * The operator's API requests against the shipped RBAC, for every test that runs a scenario.
 *
 * Every in-process run of a scenario in the tests goes through {@link runCheckedScenario}: it
 * records the requests of the operator (the same `run` composition, on the simulated cluster)
 * and fails the test when the Roles and ClusterRoles `upgrade-operator manifests` generates for
 * the flows the file runs do not allow one of them, naming the request and the scenario that
 * made it. So each scenario is checked where a test already runs it, at no extra run; a test
 * (`scenario-rbac-coverage.test.ts`) makes sure that no test runs a scenario unchecked and that
 * every named scenario with an operator is run by one. The RBAC tests of each flow collect the
 * requests of a few runs that, between them, use every verb of every rule (least privilege).
 *
 * Recording: the operator's clients report each request to an activity tracker synchronously,
 * before the request leaves; a wrapper around Transport notes which requests were started right
 * after such a report (the simulated cluster's clients report nothing).
 */
import assert from 'node:assert/strict';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID } from '../../cli/commands/run.js';
import { runScenario, type ScenarioOutcome } from '../../cli/scenarios/catalog.js';
import type { ScenarioFile } from '../../cli/scenarios/scenario-file.js';
import type { SimEnvironment } from '../../cli/scenarios/sim-environment.js';
import { Manager } from '../../kube/manager.js';
import { Transport, type HttpRequest } from '../../kube/transport.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { SeededRandom } from '../../lib/random.js';
import { permissionsByNamespace } from './managed-operator-manifests.js';
import {
  allowingGrants,
  requestAttributes,
  type RequestAttributes,
  type ResolvedGrant,
} from './rbac-authorizer.test-support.js';
import { scheduledRoles } from './scheduled-operator-manifests.js';

/** One request of the operator, and the path (a scenario, a variant of one, a test step) that made it. */
export interface OperatorRequest {
  method: string;
  path: string;
  source: string;
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

/** Starts recording the requests of `source`; one recorder at a time. */
export function recordOperatorRequests(source: string): RequestRecorder {
  const requests: OperatorRequest[] = [];
  let reported = false;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with .call(this) and put back
  const original = { request: Transport.prototype.request, stream: Transport.prototype.stream };
  Transport.prototype.request = function (this: Transport, req: HttpRequest) {
    reported = false;
    const p = original.request.call(this, req);
    if (reported) requests.push({ method: req.method, path: req.path, source });
    return p;
  };
  Transport.prototype.stream = function (this: Transport, req: HttpRequest) {
    reported = false;
    const p = original.stream.call(this, req);
    if (reported) requests.push({ method: req.method, path: req.path, source });
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

const VERSION = '0.0.0-test';

/** The managed flow's rules as `manifests` generates them (`deploy/managed/`), by the namespace they apply in. */
export function managedGrants(): ResolvedGrant[] {
  return [...permissionsByNamespace({ version: VERSION, leaseName: LEADER_ELECTION_ID })].flatMap(
    ([namespace, grants]) => grants.map((grant) => ({ namespace, grant })),
  );
}

/** The scheduled flow's rules as `manifests` generates them (`deploy/scheduled/`), for the operator in `namespace`. */
export function scheduledGrants(namespace?: string): ResolvedGrant[] {
  const options = {
    version: VERSION,
    leaseName: SCHEDULED_LEADER_ELECTION_ID,
    ...(namespace !== undefined ? { namespace } : {}),
  };
  return scheduledRoles(options).flatMap((role) => role.grants.map((grant) => ({ namespace: role.namespace, grant })));
}

/** The rules of the flows a scenario file runs (both flows' when it runs both: the two installs side by side). */
export function shippedGrantsFor(file: ScenarioFile): ResolvedGrant[] {
  const flows = file.operator?.flows ?? ['managed'];
  return [
    ...(flows.includes('managed') ? managedGrants() : []),
    ...(flows.includes('scheduled') ? scheduledGrants(file.operator?.namespace) : []),
  ];
}

function describe(attributes: RequestAttributes): string {
  const name = attributes.name !== undefined ? ` ${attributes.name}` : '';
  return `${attributes.verb} ${attributes.apiGroup || 'core'}/${attributes.resource}${name} in ${attributes.namespace ?? '(cluster)'}`;
}

/**
 * The requests no grant allows, one line per distinct request: what RBAC decides on, the first
 * such request, and every path that made it. Throws on a non-resource request.
 */
export function deniedRequests(requests: readonly OperatorRequest[], grants: readonly ResolvedGrant[]): string[] {
  const denied = new Map<string, { request: string; sources: Set<string> }>();
  for (const r of requests) {
    const a = requestAttributes(r.method, r.path);
    if (!a) throw new Error(`not a resource request: ${r.method} ${r.path}`);
    if (allowingGrants(grants, a).length > 0) continue;
    const key = describe(a);
    const entry = denied.get(key) ?? {
      request: `${r.method} ${r.path.split('?')[0] ?? ''}`,
      sources: new Set<string>(),
    };
    entry.sources.add(r.source);
    denied.set(key, entry);
  }
  return [...denied].map(([key, { request, sources }]) => `${key}  [${request}]  made by: ${[...sources].join(', ')}`);
}

/** Fails (an AssertionError naming each denied request and the paths that made it) unless every request is allowed. */
export function assertRequestsAllowed(requests: readonly OperatorRequest[], grants: readonly ResolvedGrant[]): void {
  const denied = deniedRequests(requests, grants);
  assert.ok(
    denied.length === 0,
    `the shipped RBAC (upgrade-operator manifests) denies ${denied.length} request(s) of the operator:\n  ${denied.join('\n  ')}`,
  );
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
      if (!used.has(`${i} ${verb}`))
        unused.push(`${verb} ${g.grant.rule.resources?.join(',') ?? ''} in ${g.namespace ?? '(cluster)'}`);
    }
  });
  return unused;
}

/** What {@link runCheckedScenario} takes besides the catalogue runner's options. */
export interface RequestCheckOptions {
  /** The rules to check against (default: {@link shippedGrantsFor} the file). */
  grants?: readonly ResolvedGrant[];
  /** Steps that go on with the run once the scenario ended (the operator still runs); their requests are the run's too. */
  continueWith?: (outcome: ScenarioOutcome) => Promise<void>;
  /** Only record: the caller checks the requests of several runs together (the RBAC tests of each flow). */
  deferCheck?: boolean;
}

/**
 * Runs a scenario with the catalogue's runner (`simulate`'s), recording the operator's requests,
 * then fails, naming each denied request and `name`, when the shipped RBAC does not allow one of
 * them (the run is closed first). Returns the outcome and the requests, each with `name` as its
 * source; the caller closes the run. Every in-process scenario run of the tests goes through here.
 */
export async function runCheckedScenario(
  env: SimEnvironment,
  name: string,
  file: ScenarioFile,
  options: Parameters<typeof runScenario>[2],
  check: RequestCheckOptions = {},
): Promise<ScenarioOutcome & { requests: OperatorRequest[] }> {
  const recorder = recordOperatorRequests(name);
  let outcome: ScenarioOutcome | undefined;
  try {
    outcome = await runScenario(env, file, {
      ...options,
      onOperatorRequest: (what: string) => {
        recorder.onOperatorRequest();
        options.onOperatorRequest?.(what);
      },
    });
    await check.continueWith?.(outcome);
    if (check.deferCheck !== true) assertRequestsAllowed(recorder.requests, check.grants ?? shippedGrantsFor(file));
  } catch (err) {
    await outcome?.run.close();
    throw err;
  } finally {
    recorder.restore();
  }
  return { ...outcome, requests: recorder.requests };
}

/**
 * Leader election as `upgrade-operator run` does it — acquire (create), renew for ten virtual
 * seconds, release — on a client whose requests are recorded, with `source` `leader election`.
 */
export async function exerciseLeaderElection(
  env: SimEnvironment,
  namespace: string,
  leaseName: string,
): Promise<OperatorRequest[]> {
  const recorder = recordOperatorRequests('leader election');
  try {
    const client = env.newClient('upgrade-operator', namespace, recorder.observing(env.clock.activity));
    const manager = new Manager({
      client,
      clock: env.clock,
      logger: env.logger,
      random: new SeededRandom(1),
      leaderElection: {
        namespace,
        name: leaseName,
        identity: 'rbac-test',
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      },
    });
    const abort = new AbortController();
    const running = manager.start(abort.signal);
    const until = env.clock.now() + 10_000;
    await env.clock.run({ until: () => manager.leading && env.clock.now() >= until, signal: env.signal });
    abort.abort();
    await running;
    await client.close();
  } finally {
    recorder.restore();
  }
  return recorder.requests;
}
