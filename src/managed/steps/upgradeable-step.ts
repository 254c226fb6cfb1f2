/**
 * Step 3 of the OSD upgrader, IsUpgradeable (docs/design/managed-flow.md#isupgradeable):
 * ClusterVersion `Upgradeable=False` blocks a minor (y-stream) upgrade; z-stream upgrades ignore
 * it. The error text is MUO's, and the failure notification reuses it when the window trips.
 */
// Only the pieces used: the package's index loads all of its 48 modules (docs/benchmarks.md#start-up-and-footprint-issue-17).
import parse from 'semver/functions/parse.js';
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import { clusterVersionCondition, currentVersion } from '../cluster-version/cluster-version-state.js';
import { WatchedKind, type StepContext } from './step-context.js';
import { commenced } from './step-support.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `time.UnixDate` layout (`Mon Jan _2 15:04:05 MST 2006`) in UTC, as MUO formats upgradeAt. */
export function goUnixDateUtc(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, ' ');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Pure: MUO's decision. Returns the cancellation text when the upgrade must not start. */
export function upgradeableBlock(input: {
  desired: string;
  current: string | undefined;
  upgradeable: { status: string; reason: string; message: string } | undefined;
  upgradeAt: string;
}): string | undefined {
  if (input.upgradeable?.status !== 'False') return undefined;
  const desired = parse(input.desired);
  const current = parse(input.current ?? '');
  if (!desired || !current)
    throw new Error(`cannot compare versions ${input.current ?? '(none)'} and ${input.desired}`);
  if (!(desired.major >= current.major && desired.minor > current.minor)) return undefined;
  const at = Date.parse(input.upgradeAt);
  const when = Number.isNaN(at) ? input.upgradeAt : goUnixDateUtc(at);
  return `cluster upgrade to version ${input.desired} on ${when} has been cancelled: ${input.upgradeable.reason}: ${input.upgradeable.message}`;
}

/** 3 IsUpgradeable (OSD). */
export const isUpgradeable: Step<StepContext> = {
  name: 'IsUpgradeable',
  condition: C.IsClusterUpgradable,
  async run(ctx) {
    if (commenced(ctx)) return outcome.done();
    const cv = ctx.cluster.clusterVersion();
    const block = upgradeableBlock({
      desired: ctx.upgradeConfig.spec?.desired.version ?? '',
      current: currentVersion(cv),
      upgradeable: clusterVersionCondition(cv, 'Upgradeable'),
      upgradeAt: ctx.upgradeConfig.spec?.upgradeAt ?? '',
    });
    if (block === undefined) return outcome.done();
    return outcome.failed(block, { reason: 'ClusterNotUpgradeable', waitFor: { kinds: [WatchedKind.ClusterVersion] } });
  },
};
