/** `validate`'s rules for managedupgrade.appuio.io/v1beta1 NodeForceDrains. */
import type { NodeForceDrain } from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import type { JsonObject } from '../../lib/json.js';
import {
  invalidForceDrainMessage,
  NodeForceDrainProblemReason,
  podJqSelectorProblem,
} from '../../scheduled/controllers/node-force-drain-controller.js';
import { parseForceDrainSpec } from '../../scheduled/drain/force-drain.js';
import { CRD } from '../crds/node-force-drain.generated.js';
import { objectRef } from '../object-ref.js';
import { leadingField, operatorProblem, type Findings, type KindRules, type RunContext } from './findings.js';

async function nodeForceDrainRules(object: JsonObject, ctx: RunContext): Promise<Findings> {
  const fd = object as unknown as NodeForceDrain;
  const key = objectRef(object);
  const reason = NodeForceDrainProblemReason.Invalid;
  const parsed = parseForceDrainSpec(fd.spec);
  if (!parsed.ok)
    return {
      problems: parsed.problems.map((p) =>
        operatorProblem('error', invalidForceDrainMessage(key, [p]), { field: leadingField(p), reason }),
      ),
      skipped: [],
    };
  const program = parsed.settings.podJQSelector;
  if (program === undefined) return { problems: [], skipped: [] };
  const compiled = await ctx.jq.compile(program);
  if (compiled.ok) return { problems: [], skipped: [] };
  if (!compiled.compileError)
    return { problems: [], skipped: [`compiling spec.podJQSelector (jq could not be run: ${compiled.error})`] };
  return {
    problems: [
      operatorProblem('error', invalidForceDrainMessage(key, [podJqSelectorProblem(compiled.error)]), {
        field: 'spec.podJQSelector',
        reason,
      }),
    ],
    skipped: [],
  };
}

/** The NodeForceDrain. */
export const kindRules: KindRules = { crd: CRD, rules: nodeForceDrainRules };
