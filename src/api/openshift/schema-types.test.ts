/**
 * Type-level proof that each schema's static type and the plain interface agree both ways
 * (checked by `tsc`; the runtime test only keeps the file a test file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type {
  ClusterVersionSchema,
  ClusterVersionStatusSchema,
  ConditionalUpdateSchema,
  ReleaseSchema,
  UpdateHistorySchema,
} from './config-v1/cluster-version-schema.js';
import type {
  ClusterVersion,
  ClusterVersionStatus,
  ConditionalUpdate,
  Release,
  UpdateHistory,
} from './config-v1/cluster-version.js';
import type { ClusterOperatorSchema, ClusterOperatorStatusSchema } from './config-v1/cluster-operator-schema.js';
import type { ClusterOperator, ClusterOperatorStatus } from './config-v1/cluster-operator.js';
import type { InfrastructureSchema } from './config-v1/infrastructure-schema.js';
import type { Infrastructure } from './config-v1/infrastructure.js';
import type {
  MachineConfigPoolConditionSchema,
  MachineConfigPoolSchema,
  MachineConfigPoolStatusSchema,
} from './machineconfiguration-v1/machine-config-pool-schema.js';
import type {
  MachineConfigPool,
  MachineConfigPoolCondition,
  MachineConfigPoolStatus,
} from './machineconfiguration-v1/machine-config-pool.js';
import type { MachineConfigSchema } from './machineconfiguration-v1/machine-config-schema.js';
import type { MachineConfig } from './machineconfiguration-v1/machine-config.js';
import type { MachineSetSchema } from './machine-v1beta1/machine-set-schema.js';
import type { MachineSet } from './machine-v1beta1/machine-set.js';
import type { MachineSchema, MachineStatusSchema } from './machine-v1beta1/machine-schema.js';
import type { Machine, MachineStatus } from './machine-v1beta1/machine.js';
import type { FileIntegritySchema } from './fileintegrity-v1alpha1/file-integrity-schema.js';
import type { FileIntegrity } from './fileintegrity-v1alpha1/file-integrity.js';

/** true when A and B are assignable to each other. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Mutual assignability plus the same top-level keys (optional keys escape plain assignability). */
type Same<A, B> = Mutual<A, B> extends true ? Mutual<keyof A, keyof B> : false;

const proofs = {
  release: true satisfies Same<Static<typeof ReleaseSchema>, Release>,
  history: true satisfies Same<Static<typeof UpdateHistorySchema>, UpdateHistory>,
  conditionalUpdate: true satisfies Same<Static<typeof ConditionalUpdateSchema>, ConditionalUpdate>,
  clusterVersionStatus: true satisfies Same<Static<typeof ClusterVersionStatusSchema>, ClusterVersionStatus>,
  clusterVersion: true satisfies Same<Static<typeof ClusterVersionSchema>, ClusterVersion>,
  clusterOperatorStatus: true satisfies Same<Static<typeof ClusterOperatorStatusSchema>, ClusterOperatorStatus>,
  clusterOperator: true satisfies Same<Static<typeof ClusterOperatorSchema>, ClusterOperator>,
  infrastructure: true satisfies Same<Static<typeof InfrastructureSchema>, Infrastructure>,
  poolCondition: true satisfies Same<Static<typeof MachineConfigPoolConditionSchema>, MachineConfigPoolCondition>,
  poolStatus: true satisfies Same<Static<typeof MachineConfigPoolStatusSchema>, MachineConfigPoolStatus>,
  pool: true satisfies Same<Static<typeof MachineConfigPoolSchema>, MachineConfigPool>,
  machineConfig: true satisfies Same<Static<typeof MachineConfigSchema>, MachineConfig>,
  machineSet: true satisfies Same<Static<typeof MachineSetSchema>, MachineSet>,
  machineStatus: true satisfies Same<Static<typeof MachineStatusSchema>, MachineStatus>,
  machine: true satisfies Same<Static<typeof MachineSchema>, Machine>,
  fileIntegrity: true satisfies Same<Static<typeof FileIntegritySchema>, FileIntegrity>,
};

void test('schema static types and interfaces agree (compile-time)', () => {
  assert.ok(Object.values(proofs).every((p) => p));
});
