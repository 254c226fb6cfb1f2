/**
 * managedUpgradeConfigCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** managedUpgradeConfigCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'upgradeconfigs.upgrade.managed.openshift.io' },
  spec: {
    group: 'upgrade.managed.openshift.io',
    names: {
      kind: 'UpgradeConfig',
      listKind: 'UpgradeConfigList',
      plural: 'upgradeconfigs',
      shortNames: ['upgrade'],
      singular: 'upgradeconfig',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.spec.desired.version', name: 'desired_version', type: 'string' },
          { jsonPath: '.status.history[0].phase', name: 'phase', type: 'string' },
          { jsonPath: '.status.history[0].conditions[0].type', name: 'stage', type: 'string' },
          { jsonPath: '.status.history[0].conditions[0].status', name: 'status', type: 'string' },
          { jsonPath: '.status.history[0].conditions[0].reason', name: 'reason', type: 'string' },
          { jsonPath: '.status.history[0].conditions[0].message', name: 'message', type: 'string' },
        ],
        name: 'v1alpha1',
        schema: {
          openAPIV3Schema: {
            description:
              'UpgradeConfig tells the managed upgrade operator which OpenShift release to upgrade to, and when.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'The desired upgrade: target release, start time, upgrader and drain policy.',
                properties: {
                  PDBForceDrainTimeout: {
                    description:
                      'Minutes a node drain blocked by a PodDisruptionBudget is respected before pods are removed by force; 0 forces the drain once the expected node drain time has passed.',
                    format: 'int32',
                    minimum: 0,
                    type: 'integer',
                  },
                  capacityReservation: {
                    description: 'Add one extra worker per worker MachineSet for the duration of the upgrade.',
                    type: 'boolean',
                  },
                  desired: {
                    description: 'The OpenShift release to upgrade to.',
                    properties: {
                      channel: {
                        description: 'Update channel the cluster version operator uses, e.g. stable-4.15.',
                        type: 'string',
                      },
                      image: {
                        description: 'Release image by digest; when set it takes precedence over version and channel.',
                        type: 'string',
                      },
                      version: { description: 'OpenShift version to upgrade to, e.g. 4.15.3.', type: 'string' },
                    },
                    type: 'object',
                  },
                  type: {
                    description: 'Which upgrader runs the upgrade: OSD or ARO.',
                    enum: ['OSD', 'ARO'],
                    type: 'string',
                  },
                  upgradeAt: {
                    description:
                      'Earliest time the upgrade may start (RFC 3339; checked by the operator, not the API).',
                    type: 'string',
                  },
                },
                required: ['PDBForceDrainTimeout', 'desired', 'type', 'upgradeAt'],
                type: 'object',
              },
              status: {
                description: 'The observed progress of upgrades.',
                properties: {
                  conditions: {
                    description:
                      'Why the upgrade is or is not moving, in words an SRE understands (an addition of upgrade-operator; MUO has no such field): `Waiting` (True while the upgrade waits or refuses, with the reason), `ConfigurationValid` (False when the operator ConfigMap has values that were replaced by their defaults) and `UpdateRecommended` (False or Unknown when the cluster version operator does not recommend the target or could not evaluate it; names each risk and its URL).',
                    items: {
                      description: 'One aspect of the current state of this object (metav1.Condition).',
                      properties: {
                        lastTransitionTime: {
                          description: 'When the condition last changed status.',
                          format: 'date-time',
                          type: 'string',
                        },
                        message: {
                          description: 'A human-readable message about the transition; may be empty.',
                          maxLength: 32768,
                          type: 'string',
                        },
                        observedGeneration: {
                          description: 'The .metadata.generation the condition was set from.',
                          format: 'int64',
                          minimum: 0,
                          type: 'integer',
                        },
                        reason: {
                          description: "A CamelCase identifier of the reason for the condition's last transition.",
                          maxLength: 1024,
                          minLength: 1,
                          pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
                          type: 'string',
                        },
                        status: {
                          description: 'Status of the condition: True, False or Unknown.',
                          enum: ['True', 'False', 'Unknown'],
                          type: 'string',
                        },
                        type: {
                          description: 'Type of the condition, in CamelCase or foo.example.com/CamelCase.',
                          maxLength: 316,
                          pattern:
                            '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
                          type: 'string',
                        },
                      },
                      required: ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
                      type: 'object',
                    },
                    type: 'array',
                    'x-kubernetes-list-map-keys': ['type'],
                    'x-kubernetes-list-type': 'map',
                  },
                  history: {
                    description: 'Every upgrade attempted, the newest first.',
                    items: {
                      description: 'The record of one upgrade.',
                      properties: {
                        completeTime: {
                          description: 'When the upgrade completed.',
                          format: 'date-time',
                          type: 'string',
                        },
                        conditions: {
                          description: 'One condition per upgrade step, the most recently started first.',
                          items: {
                            description: 'The state of one upgrade step.',
                            properties: {
                              completeTime: {
                                description: 'When the step completed.',
                                format: 'date-time',
                                type: 'string',
                              },
                              lastProbeTime: {
                                description: 'When the step was last checked.',
                                format: 'date-time',
                                type: 'string',
                              },
                              lastTransitionTime: {
                                description: 'When the status last changed.',
                                format: 'date-time',
                                type: 'string',
                              },
                              message: {
                                description: 'Human-readable details of the last transition.',
                                type: 'string',
                              },
                              reason: {
                                description: "Short reason for the condition's last transition.",
                                type: 'string',
                              },
                              startTime: { description: 'When the step started.', format: 'date-time', type: 'string' },
                              status: { description: 'Status of the step: True, False or Unknown.', type: 'string' },
                              type: { description: 'The upgrade step this condition reports on.', type: 'string' },
                            },
                            required: ['status', 'type'],
                            type: 'object',
                          },
                          type: 'array',
                        },
                        phase: {
                          description: 'Phase of this upgrade.',
                          enum: ['New', 'Pending', 'Upgrading', 'Upgraded', 'Failed'],
                          type: 'string',
                        },
                        precedingVersion: {
                          description: 'The version the cluster ran before this upgrade.',
                          type: 'string',
                        },
                        startTime: { description: 'When the upgrade started.', format: 'date-time', type: 'string' },
                        version: { description: 'The desired version this entry tracks.', type: 'string' },
                        workerCompleteTime: {
                          description: 'When all worker nodes had upgraded.',
                          format: 'date-time',
                          type: 'string',
                        },
                        workerStartTime: {
                          description: 'When the worker nodes started to upgrade.',
                          format: 'date-time',
                          type: 'string',
                        },
                      },
                      required: ['phase'],
                      type: 'object',
                    },
                    type: 'array',
                  },
                },
                type: 'object',
              },
            },
            type: 'object',
          },
        },
        served: true,
        storage: true,
        subresources: { status: {} },
      },
    ],
  },
};
