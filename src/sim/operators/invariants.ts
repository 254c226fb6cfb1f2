/**
 * The ClusterOperator invariant of docs/design/cluster-model.md#invariants (with
 * docs/design/cluster-model.md#clusteroperator-shape,
 * docs/design/cluster-model.md#how-an-operator-rolls-out): the `operator` version changes exactly
 * once per update, after a Progressing=True period. A transition check, fed with the successive
 * states of one ClusterOperator; pure. That every operator reached the target by the end of an
 * update is checked when the ClusterVersion completes (`cvo/invariants.ts`), so together they give
 * "exactly once".
 */
import { operatorVersion, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';

/** What the check reads of one state of a ClusterOperator. */
export interface OperatorState {
  /** The `operator` version (undefined when not reported). */
  readonly version: string | undefined;
  /** Progressing=True. */
  readonly progressing: boolean;
}

/** The state of a ClusterOperator as the check reads it. */
export function operatorState(co: ClusterOperator): OperatorState {
  return {
    version: operatorVersion(co),
    progressing: co.status?.conditions?.some((c) => c.type === 'Progressing' && c.status === 'True') ?? false,
  };
}

/** What the check remembers of one ClusterOperator between states. */
export interface OperatorTrack {
  readonly version: string | undefined;
  /** A state since the last version change (excluding the changing state) had Progressing=True. */
  readonly progressedSinceChange: boolean;
  /** When the operator last reached each version (ms; the first state seen counts as reaching it). */
  readonly reachedAt: ReadonlyMap<string, number>;
}

/**
 * Whether an update to `version` started after `since` (ms): a later update to the same
 * version (a rollback and back) may change the operator to it again. Default: never.
 */
export type UpdateStartedSince = (version: string, since: number) => boolean;

/**
 * Feeds the next state of ClusterOperator `name` seen at `at` (ms). A change of the `operator`
 * version is a violation when no state since the previous change had Progressing=True, when the
 * operator reached that version before and no update to it started since (a second change in
 * one update), or when the version disappears.
 */
export function trackOperatorVersion(
  name: string,
  track: OperatorTrack | undefined,
  state: OperatorState,
  at: number,
  updateStartedSince: UpdateStartedSince = () => false,
): { track: OperatorTrack; violations: string[] } {
  if (!track) {
    const reachedAt = new Map<string, number>();
    if (state.version !== undefined) reachedAt.set(state.version, at);
    return { track: { version: state.version, progressedSinceChange: state.progressing, reachedAt }, violations: [] };
  }
  if (state.version === track.version) {
    return {
      track: state.progressing && !track.progressedSinceChange ? { ...track, progressedSinceChange: true } : track,
      violations: [],
    };
  }
  const violations: string[] = [];
  const from = track.version ?? '(none)';
  if (state.version === undefined) {
    violations.push(`clusteroperator ${name}: operator version ${from} disappeared`);
    return { track: { ...track, version: undefined, progressedSinceChange: state.progressing }, violations };
  }
  // A version reported for the first time (an operator new in this payload) is its install, not a change.
  if (track.version !== undefined && !track.progressedSinceChange) {
    violations.push(
      `clusteroperator ${name}: operator version changed ${from} → ${state.version} without a Progressing=True period before`,
    );
  }
  const earlier = track.reachedAt.get(state.version);
  if (earlier !== undefined && !updateStartedSince(state.version, earlier)) {
    violations.push(
      `clusteroperator ${name}: operator version changed to ${state.version} a second time in one update (${from} → ${state.version})`,
    );
  }
  const reachedAt = new Map(track.reachedAt);
  reachedAt.set(state.version, at);
  return { track: { version: state.version, progressedSinceChange: false, reachedAt }, violations };
}

/** Every violation over a sequence of states of one ClusterOperator (for tests over recorded samples). */
export function operatorSequenceViolations(
  name: string,
  states: ReadonlyArray<OperatorState & { readonly at: number }>,
  updateStartedSince?: UpdateStartedSince,
): string[] {
  let track: OperatorTrack | undefined;
  const out: string[] = [];
  for (const s of states) {
    const r = trackOperatorVersion(name, track, s, s.at, updateStartedSince);
    track = r.track;
    out.push(...r.violations);
  }
  return out;
}
