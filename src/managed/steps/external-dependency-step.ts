/**
 * Step 5 ExternalDependencyAvailabilityCheck (docs/design/managed-flow.md#external-dependencies):
 * every configured URL must answer below 400 within the configured timeout (in seconds, applied
 * once — MUO multiplied it twice). One attempt per URL per pass; a 5xx or transport failure is
 * retried on the next pass shortly after, so no reconcile sleeps.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import type { StepContext } from './step-context.js';
import { commenced, OUTSIDE_API_RETRY_MS } from './step-support.js';

/** Checks one URL: resolves undefined when available, else the reason. */
export type UrlProbe = (url: string, timeoutMs: number, signal: AbortSignal) => Promise<string | undefined>;

/** Makes step 5 over a URL probe (the CLI passes one built on the shared HTTP client). */
export function externalDependencyCheck(probe: UrlProbe): Step<StepContext> {
  return {
    name: 'ExternalDependencyAvailabilityCheck',
    condition: C.ExternalDependenciesAvailable,
    async run(ctx, signal) {
      if (commenced(ctx)) return outcome.done();
      const { urls, timeoutMs } = ctx.config.extDependencyAvailabilityChecks.http;
      if (urls.length === 0) return outcome.done();
      const answers = await Promise.all(
        urls.map(async (url) => ({ url, problem: await probe(url, timeoutMs, signal) })),
      );
      const failing = answers.filter((a) => a.problem !== undefined);
      if (failing.length === 0) return outcome.done();
      const text = failing.map((f) => `${f.url}: ${f.problem ?? ''}`).join('; ');
      return outcome.failed(`external dependencies unavailable: ${text}`, {
        reason: 'ExternalDependencyUnavailable',
        waitFor: { until: ctx.clock.now() + OUTSIDE_API_RETRY_MS },
      });
    },
  };
}
