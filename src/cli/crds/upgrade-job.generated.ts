/**
 * upgradeJobCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** upgradeJobCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'upgradejobs.managedupgrade.appuio.io' },
  spec: {
    group: 'managedupgrade.appuio.io',
    names: {
      kind: 'UpgradeJob',
      listKind: 'UpgradeJobList',
      plural: 'upgradejobs',
      shortNames: ['upj'],
      singular: 'upgradejob',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.spec.desiredVersion.version', name: 'Version', type: 'string' },
          { jsonPath: '.spec.startAfter', name: 'Start After', type: 'string' },
          { jsonPath: '.spec.startBefore', name: 'Start Before', priority: 1, type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Started")].status', name: 'Started', type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Succeeded")].status', name: 'Succeeded', type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Failed")].status', name: 'Failed', type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Failed")].reason', name: 'Reason', priority: 1, type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        name: 'v1beta1',
        schema: {
          openAPIV3Schema: {
            description:
              'UpgradeJob is one cluster upgrade, created by an UpgradeConfig for one maintenance window, or by hand.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'One scheduled upgrade: when it may start, the release, and how it runs.',
                properties: {
                  config: {
                    description: 'How the upgrade runs: timeouts, health checks and MachineConfigPool handling.',
                    properties: {
                      machineConfigPools: {
                        description: 'Per-pool settings, e.g. delayed node updates.',
                        items: {
                          description: 'How the upgrade treats the selected MachineConfigPools.',
                          properties: {
                            delayUpgrade: {
                              description: 'Delays the update of the selected pools by pausing them.',
                              properties: {
                                delayMax: {
                                  description:
                                    'Latest time after spec.startAfter by which the pools must have been unpaused, else the job fails (Go duration).',
                                  type: 'string',
                                },
                                delayMin: {
                                  description:
                                    'How long after spec.startAfter the pools stay paused before they may update (Go duration).',
                                  type: 'string',
                                },
                              },
                              type: 'object',
                            },
                            matchLabels: {
                              description:
                                'Selects the MachineConfigPools this entry configures: empty selects all pools, absent selects none.',
                              properties: {
                                matchExpressions: {
                                  description: 'Label selector requirements, ANDed.',
                                  items: {
                                    description: 'One label selector requirement: a key, an operator and values.',
                                    properties: {
                                      key: { description: 'The label key the selector applies to.', type: 'string' },
                                      operator: {
                                        description:
                                          "The key's relationship to the values: In, NotIn, Exists or DoesNotExist.",
                                        type: 'string',
                                      },
                                      values: {
                                        description:
                                          'Values for In and NotIn (non-empty); empty for Exists and DoesNotExist.',
                                        items: { type: 'string' },
                                        type: 'array',
                                        'x-kubernetes-list-type': 'atomic',
                                      },
                                    },
                                    required: ['key', 'operator'],
                                    type: 'object',
                                  },
                                  type: 'array',
                                  'x-kubernetes-list-type': 'atomic',
                                },
                                matchLabels: {
                                  additionalProperties: { type: 'string' },
                                  description:
                                    'Labels that must all be present with these values; ANDed with matchExpressions.',
                                  type: 'object',
                                },
                              },
                              type: 'object',
                              'x-kubernetes-map-type': 'atomic',
                            },
                          },
                          type: 'object',
                        },
                        type: 'array',
                      },
                      pauseMachineConfigPoolsOnFailure: {
                        description: 'Pause still-updating MachineConfigPools when the upgrade fails.',
                        properties: {
                          enabled: {
                            description: 'Pause the selected pools that are still updating when the job fails.',
                            type: 'boolean',
                          },
                          selector: {
                            description: 'Selects the pools to pause; empty selects all pools.',
                            properties: {
                              matchExpressions: {
                                description: 'Label selector requirements, ANDed.',
                                items: {
                                  description: 'One label selector requirement: a key, an operator and values.',
                                  properties: {
                                    key: { description: 'The label key the selector applies to.', type: 'string' },
                                    operator: {
                                      description:
                                        "The key's relationship to the values: In, NotIn, Exists or DoesNotExist.",
                                      type: 'string',
                                    },
                                    values: {
                                      description:
                                        'Values for In and NotIn (non-empty); empty for Exists and DoesNotExist.',
                                      items: { type: 'string' },
                                      type: 'array',
                                      'x-kubernetes-list-type': 'atomic',
                                    },
                                  },
                                  required: ['key', 'operator'],
                                  type: 'object',
                                },
                                type: 'array',
                                'x-kubernetes-list-type': 'atomic',
                              },
                              matchLabels: {
                                additionalProperties: { type: 'string' },
                                description:
                                  'Labels that must all be present with these values; ANDed with matchExpressions.',
                                type: 'object',
                              },
                            },
                            type: 'object',
                            'x-kubernetes-map-type': 'atomic',
                          },
                        },
                        type: 'object',
                      },
                      postUpgradeHealthChecks: {
                        description: 'Health checks after the upgrade.',
                        properties: {
                          checkCriticalAlerts: {
                            description:
                              'Unhealthy while a critical alert fires (extension of the design; off by default).',
                            type: 'boolean',
                          },
                          checkDegradedOperators: {
                            description:
                              'Unhealthy while a ClusterOperator is Degraded or unavailable (extension of the design; off by default).',
                            type: 'boolean',
                          },
                          customQueries: {
                            description: 'Extra PromQL health queries.',
                            items: {
                              properties: {
                                query: {
                                  description: 'PromQL; a non-empty result means unhealthy.',
                                  minLength: 1,
                                  type: 'string',
                                },
                              },
                              required: ['query'],
                              type: 'object',
                            },
                            type: 'array',
                          },
                          excludeAlerts: {
                            description: 'Critical alerts to ignore.',
                            items: {
                              properties: {
                                alertname: { description: 'Alert name to ignore.', minLength: 1, type: 'string' },
                              },
                              required: ['alertname'],
                              type: 'object',
                            },
                            type: 'array',
                          },
                          excludeNamespaces: {
                            description: 'Namespaces whose critical alerts are ignored.',
                            items: { minLength: 1, type: 'string' },
                            type: 'array',
                          },
                          excludeOperators: {
                            description: 'ClusterOperator names ignored by checkDegradedOperators.',
                            items: { minLength: 1, type: 'string' },
                            type: 'array',
                          },
                          skipDegradedOperatorsCheck: {
                            description: 'Skip the check of the ClusterVersion for degraded operators.',
                            type: 'boolean',
                          },
                          timeout: {
                            default: '1h',
                            description: 'How long the cluster may stay unhealthy before the check fails.',
                            format: 'duration',
                            type: 'string',
                          },
                        },
                        required: ['timeout'],
                        type: 'object',
                      },
                      preUpgradeHealthChecks: {
                        description: 'Health checks before the upgrade.',
                        properties: {
                          checkCriticalAlerts: {
                            description:
                              'Unhealthy while a critical alert fires (extension of the design; off by default).',
                            type: 'boolean',
                          },
                          checkDegradedOperators: {
                            description:
                              'Unhealthy while a ClusterOperator is Degraded or unavailable (extension of the design; off by default).',
                            type: 'boolean',
                          },
                          customQueries: {
                            description: 'Extra PromQL health queries.',
                            items: {
                              properties: {
                                query: {
                                  description: 'PromQL; a non-empty result means unhealthy.',
                                  minLength: 1,
                                  type: 'string',
                                },
                              },
                              required: ['query'],
                              type: 'object',
                            },
                            type: 'array',
                          },
                          excludeAlerts: {
                            description: 'Critical alerts to ignore.',
                            items: {
                              properties: {
                                alertname: { description: 'Alert name to ignore.', minLength: 1, type: 'string' },
                              },
                              required: ['alertname'],
                              type: 'object',
                            },
                            type: 'array',
                          },
                          excludeNamespaces: {
                            description: 'Namespaces whose critical alerts are ignored.',
                            items: { minLength: 1, type: 'string' },
                            type: 'array',
                          },
                          excludeOperators: {
                            description: 'ClusterOperator names ignored by checkDegradedOperators.',
                            items: { minLength: 1, type: 'string' },
                            type: 'array',
                          },
                          skipDegradedOperatorsCheck: {
                            description: 'Skip the check of the ClusterVersion for degraded operators.',
                            type: 'boolean',
                          },
                          timeout: {
                            default: '1h',
                            description: 'How long the cluster may stay unhealthy before the check fails.',
                            format: 'duration',
                            type: 'string',
                          },
                        },
                        required: ['timeout'],
                        type: 'object',
                      },
                      upgradeTimeout: {
                        default: '12h',
                        description: 'How long after spec.startAfter the upgrade may take before it fails.',
                        format: 'duration',
                        type: 'string',
                      },
                    },
                    required: ['postUpgradeHealthChecks', 'preUpgradeHealthChecks', 'upgradeTimeout'],
                    type: 'object',
                  },
                  desiredVersion: {
                    description:
                      'The release to upgrade to; absent for a job created when no update was available (hooks and checks still run).',
                    properties: {
                      architecture: {
                        description:
                          'Desired cluster architecture: Multi to migrate to a multi-architecture payload, or empty. Needs version; excludes image.',
                        enum: ['Multi', ''],
                        type: 'string',
                      },
                      force: {
                        description:
                          'Update even if the image failed verification or upgradeable checks. Use only with images verified out of band.',
                        type: 'boolean',
                      },
                      image: {
                        description: 'Release image of the update; cannot be combined with architecture.',
                        type: 'string',
                      },
                      version: {
                        description: 'Semantic version of the update; required when architecture is set.',
                        type: 'string',
                      },
                    },
                    type: 'object',
                    'x-kubernetes-validations': [
                      {
                        message: 'cannot set both Architecture and Image',
                        rule: 'has(self.architecture) && has(self.image) ? (self.architecture == "" || self.image == "") : true',
                      },
                      {
                        message: 'Version must be set if Architecture is set',
                        rule: 'has(self.architecture) && self.architecture != "" ? self.version != "" : true',
                      },
                    ],
                  },
                  desiredVersionCheckAvailability: {
                    description:
                      'Fail the job if desiredVersion is no longer among the available updates. Defaults to true.',
                    type: 'boolean',
                  },
                  startAfter: {
                    description: 'The upgrade starts at or after this time; timeouts and pool delays count from it.',
                    format: 'date-time',
                    type: 'string',
                  },
                  startBefore: {
                    description:
                      'If the upgrade has not started by this time, the job fails as expired (or is skipped in a suspension window).',
                    format: 'date-time',
                    type: 'string',
                  },
                },
                required: ['config', 'startAfter', 'startBefore'],
                type: 'object',
              },
              status: {
                description: 'Observed state of the upgrade.',
                properties: {
                  conditions: {
                    description:
                      'The state of the upgrade: Started, health checks, UpgradeCompleted, Paused, Succeeded, Failed.',
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
                  hookTracker: {
                    description: 'Outcomes of the hook Jobs run for this upgrade.',
                    items: {
                      description: 'The remembered outcome of one hook Job.',
                      properties: {
                        hookEvent: { description: 'The event the hook ran for.', type: 'string' },
                        message: { description: 'Message of the hook Job outcome.', type: 'string' },
                        status: { description: 'Outcome of the hook Job: active, complete or failed.', type: 'string' },
                        trackingKey: {
                          description: 'Distinguishes several runs for one event, e.g. the pool name.',
                          type: 'string',
                        },
                        upgradeJobHook: { description: 'Name of the UpgradeJobHook.', type: 'string' },
                      },
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
