/**
 * scheduledUpgradeConfigCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** scheduledUpgradeConfigCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'upgradeconfigs.managedupgrade.appuio.io' },
  spec: {
    group: 'managedupgrade.appuio.io',
    names: {
      kind: 'UpgradeConfig',
      listKind: 'UpgradeConfigList',
      plural: 'upgradeconfigs',
      shortNames: ['upc'],
      singular: 'upgradeconfig',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.spec.schedule.cron', name: 'Schedule', type: 'string' },
          { jsonPath: '.spec.schedule.isoWeek', name: 'ISO Week', type: 'string' },
          { jsonPath: '.spec.schedule.location', name: 'Location', type: 'string' },
          { jsonPath: '.spec.schedule.suspend', name: 'Suspended', type: 'boolean' },
          { jsonPath: '.status.nextPossibleSchedules[0].time', name: 'Next', type: 'string' },
          { jsonPath: '.status.lastScheduledUpgrade', name: 'Last Scheduled', priority: 1, type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        name: 'v1beta1',
        schema: {
          openAPIV3Schema: {
            description:
              'UpgradeConfig schedules cluster upgrades in recurring maintenance windows by creating UpgradeJobs.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'When to upgrade, and how each upgrade runs.',
                properties: {
                  jobTemplate: {
                    description: 'Template of the UpgradeJobs created for each window.',
                    properties: {
                      metadata: {
                        description: 'Labels and annotations copied to every UpgradeJob created.',
                        properties: {
                          annotations: {
                            additionalProperties: { type: 'string' },
                            description: 'Annotations of the object.',
                            type: 'object',
                          },
                          finalizers: {
                            description: 'Finalizers of the object.',
                            items: { type: 'string' },
                            type: 'array',
                          },
                          labels: {
                            additionalProperties: { type: 'string' },
                            description: 'Labels of the object.',
                            type: 'object',
                          },
                          name: { description: 'Name of the object.', type: 'string' },
                          namespace: { description: 'Namespace of the object.', type: 'string' },
                        },
                        type: 'object',
                      },
                      spec: {
                        description: 'Spec of the UpgradeJobs created.',
                        properties: {
                          config: {
                            description:
                              'How the upgrade runs: timeouts, health checks and MachineConfigPool handling.',
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
                                            description:
                                              'One label selector requirement: a key, an operator and values.',
                                            properties: {
                                              key: {
                                                description: 'The label key the selector applies to.',
                                                type: 'string',
                                              },
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
                                            key: {
                                              description: 'The label key the selector applies to.',
                                              type: 'string',
                                            },
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
                                        alertname: {
                                          description: 'Alert name to ignore.',
                                          minLength: 1,
                                          type: 'string',
                                        },
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
                                        alertname: {
                                          description: 'Alert name to ignore.',
                                          minLength: 1,
                                          type: 'string',
                                        },
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
                        },
                        required: ['config'],
                        type: 'object',
                      },
                    },
                    required: ['spec'],
                    type: 'object',
                  },
                  maxSchedulingDelay: {
                    default: '1h',
                    description:
                      'How late after its creation time a job may still be created; later windows are skipped.',
                    format: 'duration',
                    type: 'string',
                  },
                  maxUpgradeStartDelay: {
                    default: '1h',
                    description:
                      'How long after the window start the upgrade may still start (sets the job’s startBefore).',
                    format: 'duration',
                    type: 'string',
                  },
                  pinVersionWindow: {
                    description:
                      'How long before a window the job is created and its version pinned (Go duration); empty creates it at the window.',
                    type: 'string',
                  },
                  schedule: {
                    description: 'The schedule of maintenance windows.',
                    properties: {
                      cron: {
                        description:
                          'When maintenance windows start: a 5-field cron expression or descriptor (robfig/cron v3), optionally prefixed CRON_TZ=<zone>.',
                        type: 'string',
                      },
                      isoWeek: {
                        description: 'ISO 8601 week filter: @odd, @even or a week number.',
                        pattern: '^(@odd|@even|\\d{1,2})$',
                        type: 'string',
                      },
                      location: {
                        default: 'Local',
                        description:
                          'IANA time zone the cron expression is evaluated in; Local is the controller’s zone.',
                        type: 'string',
                      },
                      suspend: {
                        description: 'While true, due windows pass without creating upgrade jobs.',
                        type: 'boolean',
                      },
                    },
                    required: ['cron', 'location'],
                    type: 'object',
                  },
                  successfulJobsHistoryLimit: {
                    description: 'How many succeeded jobs to keep; 4 when unset, no limit when ≤ 0.',
                    type: 'integer',
                  },
                },
                required: ['jobTemplate', 'maxSchedulingDelay', 'maxUpgradeStartDelay', 'schedule'],
                type: 'object',
              },
              status: {
                description: 'Observed scheduling state.',
                properties: {
                  conditions: {
                    description:
                      'ScheduleValid (the schedule compiles) and Waiting (what the controller waits for); additions of this project.',
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
                  lastScheduledUpgrade: {
                    description:
                      'Start of the last window handled: a job created, or a window skipped because suspended.',
                    format: 'date-time',
                    type: 'string',
                  },
                  nextPossibleSchedules: {
                    description: 'The next windows of the schedule (suspension ignored).',
                    items: {
                      description: 'A coming maintenance window.',
                      properties: {
                        time: { description: 'Start of the window.', format: 'date-time', type: 'string' },
                      },
                      required: ['time'],
                      type: 'object',
                    },
                    type: 'array',
                  },
                },
                required: ['nextPossibleSchedules'],
                type: 'object',
              },
            },
            required: ['spec'],
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
