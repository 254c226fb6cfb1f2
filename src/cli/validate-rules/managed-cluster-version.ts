/** `validate`'s rules for managedupgrade.appuio.io/v1beta1 ClusterVersions (the scheduled flow's template of config.openshift.io's). */
import type { ManagedClusterVersion } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import type { JsonObject } from '../../lib/json.js';
import { renderClusterVersion } from '../../scheduled/cluster-version/cluster-version-render.js';
import {
  ClusterVersionSyncEventReason,
  unrenderableMessage,
} from '../../scheduled/controllers/cluster-version-sync-controller.js';
import { CRD } from '../crds/managed-cluster-version.generated.js';
import { leadingField, operatorProblem, type Findings, type KindRules, type RunContext } from './findings.js';

function managedClusterVersionRules(object: JsonObject, ctx: RunContext): Findings {
  const r = renderClusterVersion((object as unknown as ManagedClusterVersion).spec, ctx.nowMs);
  if (r.ok) return { problems: [], skipped: [] };
  return {
    problems: r.errors.map((e) =>
      operatorProblem('error', unrenderableMessage([e]), {
        field: leadingField(e),
        reason: ClusterVersionSyncEventReason.InvalidSpec,
      }),
    ),
    skipped: [],
  };
}

/** The scheduled flow's ClusterVersion. */
export const kindRules: KindRules = { crd: CRD, rules: managedClusterVersionRules };
