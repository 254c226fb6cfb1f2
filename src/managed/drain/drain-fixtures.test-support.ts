/** Test fixtures for the drain code: the drain settings the tests share (objects: kube/object-fixtures.test-support.ts). */
import type { DrainSettings } from './drain-strategies.js';

export const MINUTE = 60_000;

/** nodeDrain.timeOut 45m, expectedNodeDrainTime 8m, PDBForceDrainTimeout 60m: PDB strategies at 68m. */
export const TEST_DRAIN_SETTINGS: DrainSettings = {
  drainTimeoutMs: 45 * MINUTE,
  pdbForceDrainTimeoutMs: 60 * MINUTE,
  expectedNodeDrainTimeMs: 8 * MINUTE,
  disableDrainStrategies: false,
  ignoredNamespacePatterns: [],
};
