import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultManagedOperatorConfig } from '../config/managed-operator-config.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import { MINUTE, T0, fakeStepContext } from '../steps/step-context.test-support.js';
import { upgraderFor } from './upgrader.js';

const signal = new AbortController().signal;

void test('upgraderFor: spec.type OSD gives the 17 steps and a failure policy, ARO the 14 steps and none', () => {
  const probe: UrlProbe = () => Promise.resolve(undefined);
  const osd = upgraderFor('OSD', probe);
  const aro = upgraderFor('ARO', probe);
  assert.equal(osd.steps.length, 17);
  assert.notEqual(osd.failurePolicy, undefined);
  assert.equal(aro.steps.length, 14);
  assert.equal(aro.failurePolicy, undefined);
});

void test('upgraderFor: the external dependency check of either upgrader asks the probe it was given', async () => {
  const asked: string[] = [];
  const probe: UrlProbe = (url) => {
    asked.push(url);
    return Promise.resolve('HTTP 503');
  };
  for (const type of ['OSD', 'ARO'] as const) {
    const step = upgraderFor(type, probe).steps.find((s) => s.name === 'ExternalDependencyAvailabilityCheck');
    assert.ok(step);
    const f = fakeStepContext({ spec: { type }, now: T0 + MINUTE });
    const defaults = defaultManagedOperatorConfig();
    const ctx = {
      ...f.ctx,
      config: {
        ...defaults,
        extDependencyAvailabilityChecks: { http: { timeoutMs: 5000, urls: ['https://api.example.com/healthz'] } },
      },
    };
    const outcome = await step.run(ctx, signal);
    assert.equal(outcome.status, 'failed');
    assert.equal(
      outcome.status === 'failed' ? outcome.error : '',
      'external dependencies unavailable: https://api.example.com/healthz: HTTP 503',
    );
  }
  assert.deepEqual(asked, ['https://api.example.com/healthz', 'https://api.example.com/healthz']);
});
