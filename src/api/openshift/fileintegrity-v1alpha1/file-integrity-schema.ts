/** Schema of the File Integrity Operator's FileIntegrity for its CRD. Plain TS types: `file-integrity.ts`. */
import { Type } from 'typebox';
import type { Toleration } from 'kubernetes-types/core/v1.js';
import { map, typeMeta } from '../../schema.js';
import { typedString } from '../schema-common.js';
import type { FileIntegrityPhase } from './file-integrity.js';

const toleration = Type.Unsafe<Toleration>(
  Type.Object(
    {
      key: Type.Optional(Type.String({ description: 'Taint key the toleration applies to; empty means all keys.' })),
      operator: Type.Optional(Type.String({ description: 'Exists or Equal (default).' })),
      value: Type.Optional(Type.String({ description: 'Taint value to match with Equal.' })),
      effect: Type.Optional(Type.String({ description: 'Taint effect to match; empty means all effects.' })),
      tolerationSeconds: Type.Optional(
        Type.Integer({ description: 'How long a NoExecute taint is tolerated.', format: 'int64' }),
      ),
    },
    { description: 'A toleration of the scanner pods.' },
  ),
);

/** `spec` of a FileIntegrity. */
export const FileIntegritySpecSchema = Type.Object(
  {
    nodeSelector: Type.Optional(map(Type.String(), 'Nodes to scan.')),
    config: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ description: 'ConfigMap holding a custom AIDE configuration.' })),
          namespace: Type.Optional(Type.String({ description: 'Namespace of that ConfigMap.' })),
          key: Type.Optional(Type.String({ description: 'Key of the AIDE configuration in the ConfigMap.' })),
          gracePeriod: Type.Optional(Type.Integer({ description: 'Seconds between scans.', default: 900 })),
          maxBackups: Type.Optional(
            Type.Integer({ description: 'Database and log backups kept after a re-init.', default: 5 }),
          ),
          initialDelay: Type.Optional(Type.Integer({ description: 'Seconds before the first scan.' })),
        },
        { description: 'The AIDE configuration and scan cadence.' },
      ),
    ),
    debug: Type.Optional(Type.Boolean({ description: 'Verbose scanner logs.' })),
    tolerations: Type.Optional(Type.Array(toleration, { description: 'Tolerations of the scanner pods.' })),
  },
  { description: 'Which nodes to scan, and how.' },
);

/** A whole FileIntegrity. */
export const FileIntegritySchema = Type.Object(
  {
    ...typeMeta(),
    spec: Type.Optional(FileIntegritySpecSchema),
    status: Type.Optional(
      Type.Object(
        { phase: Type.Optional(typedString<FileIntegrityPhase>('Initializing, Active, Pending or Error.')) },
        { description: 'The observed state of the scans.' },
      ),
    ),
  },
  { description: 'File integrity scans (AIDE) of the cluster nodes.' },
);
