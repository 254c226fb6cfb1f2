/** `validate`'s rules for managedupgrade.appuio.io/v1beta1 UpgradeSuspensionWindows. */
import type { JsonObject } from '../../lib/json.js';
import { SUSPENSION_WINDOW_INVALID_REASON } from '../../scheduled/controllers/upgrade-suspension-window-controller.js';
import { suspensionWindowMatches } from '../../scheduled/schedule/suspension-window-matching.js';
import { CRD } from '../crds/upgrade-suspension-window.generated.js';
import { leadingField, operatorProblem, type Findings, type KindRules } from './findings.js';

function suspensionWindowRules(object: JsonObject): Findings {
  const { problems } = suspensionWindowMatches(object, [], []);
  return {
    problems: problems.map((p) =>
      operatorProblem('error', p, { field: leadingField(p), reason: SUSPENSION_WINDOW_INVALID_REASON }),
    ),
    skipped: [],
  };
}

/** The UpgradeSuspensionWindow. */
export const kindRules: KindRules = { crd: CRD, rules: suspensionWindowRules };
