/**
 * upgradeJobHookCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** upgradeJobHookCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'upgradejobhooks.managedupgrade.appuio.io' },
  spec: {
    group: 'managedupgrade.appuio.io',
    names: {
      kind: 'UpgradeJobHook',
      listKind: 'UpgradeJobHookList',
      plural: 'upgradejobhooks',
      shortNames: ['upjh'],
      singular: 'upgradejobhook',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.spec.events', name: 'Events', type: 'string' },
          { jsonPath: '.spec.run', name: 'Run', type: 'string' },
          { jsonPath: '.spec.failurePolicy', name: 'Failure Policy', type: 'string' },
          { jsonPath: '.spec.disruptive', name: 'Disruptive', priority: 1, type: 'boolean' },
          { jsonPath: '.status.claimedBy.name', name: 'Claimed By', type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        name: 'v1beta1',
        schema: {
          openAPIV3Schema: {
            description: 'UpgradeJobHook runs a Job on events of the UpgradeJobs it selects.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'When the hook runs and the Job it runs.',
                properties: {
                  disruptive: {
                    description:
                      'Marks the hook as disruptive; informational, shown in metrics and META_matchesDisruptiveHooks.',
                    type: 'boolean',
                  },
                  events: {
                    description:
                      'Events the hook runs on. Create, Start, UpgradeComplete and MachineConfigPoolUnpause wait for the hook Job; Finish, Success and Failure do not.',
                    items: {
                      description: 'An upgrade event.',
                      enum: [
                        'Create',
                        'Start',
                        'UpgradeComplete',
                        'MachineConfigPoolUnpause',
                        'Finish',
                        'Success',
                        'Failure',
                      ],
                      type: 'string',
                    },
                    type: 'array',
                  },
                  failurePolicy: {
                    description:
                      'Abort fails the UpgradeJob when the hook Job fails; Ignore only logs it. Defaults to Ignore.',
                    enum: ['Abort', 'Ignore'],
                    type: 'string',
                  },
                  run: {
                    description: 'Run for the Next UpgradeJob only (claimed for good), or for All. Defaults to All.',
                    enum: ['Next', 'All'],
                    type: 'string',
                  },
                  selector: {
                    description: 'UpgradeJobs the hook runs for, by label; empty selects all in the namespace.',
                    properties: {
                      matchExpressions: {
                        description: 'Label selector requirements, ANDed.',
                        items: {
                          description: 'One label selector requirement: a key, an operator and values.',
                          properties: {
                            key: { description: 'The label key the selector applies to.', type: 'string' },
                            operator: {
                              description: "The key's relationship to the values: In, NotIn, Exists or DoesNotExist.",
                              type: 'string',
                            },
                            values: {
                              description: 'Values for In and NotIn (non-empty); empty for Exists and DoesNotExist.',
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
                        description: 'Labels that must all be present with these values; ANDed with matchExpressions.',
                        type: 'object',
                      },
                    },
                    type: 'object',
                    'x-kubernetes-map-type': 'atomic',
                  },
                  template: {
                    description: 'The batch Job created for each run.',
                    properties: {
                      metadata: {
                        description: 'Labels and annotations of the hook Jobs.',
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
                        description: 'Spec of the hook Jobs; fields not listed are kept unvalidated.',
                        properties: {
                          activeDeadlineSeconds: {
                            description:
                              'Seconds the Job may be active before it fails; set it, or a hung hook blocks the upgrade.',
                            format: 'int64',
                            type: 'integer',
                          },
                          backoffLimit: {
                            description: 'Retries before the Job is marked failed; default 6.',
                            format: 'int32',
                            type: 'integer',
                          },
                          completionMode: {
                            description: 'How pod completions are tracked.',
                            enum: ['NonIndexed', 'Indexed'],
                            type: 'string',
                          },
                          completions: { description: 'Successful pods needed.', format: 'int32', type: 'integer' },
                          manualSelector: {
                            description: 'Use the given selector instead of a generated one.',
                            type: 'boolean',
                          },
                          parallelism: { description: 'Pods running at once.', format: 'int32', type: 'integer' },
                          podFailurePolicy: {
                            description: 'How pod failures count towards the backoff limit.',
                            type: 'object',
                            'x-kubernetes-preserve-unknown-fields': true,
                          },
                          selector: {
                            description: 'Pods the Job counts; normally generated.',
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
                          suspend: { description: 'Create the Job suspended.', type: 'boolean' },
                          template: {
                            description: 'Template of the hook pods.',
                            properties: {
                              metadata: {
                                description: 'Metadata of the hook pods.',
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
                                description: 'Spec of the hook pod; fields not listed are kept unvalidated.',
                                properties: {
                                  activeDeadlineSeconds: {
                                    description: 'Seconds the pod may run before it is stopped.',
                                    format: 'int64',
                                    type: 'integer',
                                  },
                                  containers: {
                                    description: 'Containers of the pod; at least one.',
                                    items: {
                                      description: 'A container of the hook pod.',
                                      properties: {
                                        args: {
                                          description: "Arguments; replace the image's CMD. $(VAR) is expanded.",
                                          items: { type: 'string' },
                                          type: 'array',
                                          'x-kubernetes-list-type': 'atomic',
                                        },
                                        command: {
                                          description: "Entrypoint; replaces the image's ENTRYPOINT.",
                                          items: { type: 'string' },
                                          type: 'array',
                                          'x-kubernetes-list-type': 'atomic',
                                        },
                                        env: {
                                          description:
                                            'Environment variables. The controller appends EVENT_*, JOB_* and META_* variables.',
                                          items: {
                                            description: 'An environment variable of a container.',
                                            properties: {
                                              name: {
                                                description: 'Name of the environment variable.',
                                                type: 'string',
                                              },
                                              value: {
                                                description:
                                                  'Value; $(VAR) references to earlier variables are expanded.',
                                                type: 'string',
                                              },
                                              valueFrom: {
                                                description:
                                                  'Source of the value: a field, resource, ConfigMap key or Secret key.',
                                                type: 'object',
                                                'x-kubernetes-preserve-unknown-fields': true,
                                              },
                                            },
                                            required: ['name'],
                                            type: 'object',
                                          },
                                          type: 'array',
                                        },
                                        envFrom: {
                                          description: 'Sources of environment variables.',
                                          items: {
                                            description: 'A ConfigMap or Secret to take variables from.',
                                            type: 'object',
                                            'x-kubernetes-preserve-unknown-fields': true,
                                          },
                                          type: 'array',
                                          'x-kubernetes-list-type': 'atomic',
                                        },
                                        image: { description: 'Container image.', type: 'string' },
                                        imagePullPolicy: {
                                          description: 'Always, Never or IfNotPresent.',
                                          type: 'string',
                                        },
                                        name: {
                                          description: 'Name of the container, a DNS label unique in the pod.',
                                          type: 'string',
                                        },
                                        resources: {
                                          description: 'Compute resource requests and limits.',
                                          type: 'object',
                                          'x-kubernetes-preserve-unknown-fields': true,
                                        },
                                        securityContext: {
                                          description: 'Security options of the container.',
                                          type: 'object',
                                          'x-kubernetes-preserve-unknown-fields': true,
                                        },
                                        volumeMounts: {
                                          description: 'Volumes to mount.',
                                          items: {
                                            description: 'A volume mount.',
                                            type: 'object',
                                            'x-kubernetes-preserve-unknown-fields': true,
                                          },
                                          type: 'array',
                                        },
                                        workingDir: { description: 'Working directory.', type: 'string' },
                                      },
                                      required: ['name'],
                                      type: 'object',
                                      'x-kubernetes-preserve-unknown-fields': true,
                                    },
                                    type: 'array',
                                  },
                                  initContainers: {
                                    description: 'Init containers, run in order before the containers.',
                                    items: {
                                      description: 'An init container of the hook pod.',
                                      properties: {
                                        args: {
                                          description: "Arguments; replace the image's CMD. $(VAR) is expanded.",
                                          items: { type: 'string' },
                                          type: 'array',
                                          'x-kubernetes-list-type': 'atomic',
                                        },
                                        command: {
                                          description: "Entrypoint; replaces the image's ENTRYPOINT.",
                                          items: { type: 'string' },
                                          type: 'array',
                                          'x-kubernetes-list-type': 'atomic',
                                        },
                                        env: {
                                          description:
                                            'Environment variables. The controller appends EVENT_*, JOB_* and META_* variables.',
                                          items: {
                                            description: 'An environment variable of a container.',
                                            properties: {
                                              name: {
                                                description: 'Name of the environment variable.',
                                                type: 'string',
                                              },
                                              value: {
                                                description:
                                                  'Value; $(VAR) references to earlier variables are expanded.',
                                                type: 'string',
                                              },
                                              valueFrom: {
                                                description:
                                                  'Source of the value: a field, resource, ConfigMap key or Secret key.',
                                                type: 'object',
                                                'x-kubernetes-preserve-unknown-fields': true,
                                              },
                                            },
                                            required: ['name'],
                                            type: 'object',
                                          },
                                          type: 'array',
                                        },
                                        envFrom: {
                                          description: 'Sources of environment variables.',
                                          items: {
                                            description: 'A ConfigMap or Secret to take variables from.',
                                            type: 'object',
                                            'x-kubernetes-preserve-unknown-fields': true,
                                          },
                                          type: 'array',
                                          'x-kubernetes-list-type': 'atomic',
                                        },
                                        image: { description: 'Container image.', type: 'string' },
                                        imagePullPolicy: {
                                          description: 'Always, Never or IfNotPresent.',
                                          type: 'string',
                                        },
                                        name: {
                                          description: 'Name of the container, a DNS label unique in the pod.',
                                          type: 'string',
                                        },
                                        resources: {
                                          description: 'Compute resource requests and limits.',
                                          type: 'object',
                                          'x-kubernetes-preserve-unknown-fields': true,
                                        },
                                        securityContext: {
                                          description: 'Security options of the container.',
                                          type: 'object',
                                          'x-kubernetes-preserve-unknown-fields': true,
                                        },
                                        volumeMounts: {
                                          description: 'Volumes to mount.',
                                          items: {
                                            description: 'A volume mount.',
                                            type: 'object',
                                            'x-kubernetes-preserve-unknown-fields': true,
                                          },
                                          type: 'array',
                                        },
                                        workingDir: { description: 'Working directory.', type: 'string' },
                                      },
                                      required: ['name'],
                                      type: 'object',
                                      'x-kubernetes-preserve-unknown-fields': true,
                                    },
                                    type: 'array',
                                  },
                                  nodeSelector: {
                                    additionalProperties: { type: 'string' },
                                    description: 'Labels a node must have to run the pod.',
                                    type: 'object',
                                    'x-kubernetes-map-type': 'atomic',
                                  },
                                  restartPolicy: { description: 'OnFailure or Never for Job pods.', type: 'string' },
                                  securityContext: {
                                    description: 'Pod-level security options.',
                                    type: 'object',
                                    'x-kubernetes-preserve-unknown-fields': true,
                                  },
                                  serviceAccountName: {
                                    description: 'Service account the pod runs as.',
                                    type: 'string',
                                  },
                                  tolerations: {
                                    description: 'Taints the pod tolerates.',
                                    items: {
                                      description: 'A toleration.',
                                      type: 'object',
                                      'x-kubernetes-preserve-unknown-fields': true,
                                    },
                                    type: 'array',
                                    'x-kubernetes-list-type': 'atomic',
                                  },
                                  volumes: {
                                    description: 'Volumes of the pod.',
                                    items: {
                                      description: 'A volume.',
                                      type: 'object',
                                      'x-kubernetes-preserve-unknown-fields': true,
                                    },
                                    type: 'array',
                                  },
                                },
                                required: ['containers'],
                                type: 'object',
                                'x-kubernetes-preserve-unknown-fields': true,
                              },
                            },
                            type: 'object',
                          },
                          ttlSecondsAfterFinished: {
                            description: 'Seconds after finishing before the Job is deleted.',
                            format: 'int32',
                            type: 'integer',
                          },
                        },
                        required: ['template'],
                        type: 'object',
                        'x-kubernetes-preserve-unknown-fields': true,
                      },
                    },
                    type: 'object',
                  },
                },
                type: 'object',
              },
              status: {
                description: 'Observed state of the hook.',
                properties: {
                  claimedBy: {
                    description: 'The UpgradeJob that claimed a run: Next hook.',
                    properties: {
                      apiVersion: { description: 'API version of the claiming object.', type: 'string' },
                      kind: { description: 'Kind of the claiming object.', type: 'string' },
                      name: { description: 'Name of the claiming object.', type: 'string' },
                      uid: { description: 'UID of the claiming object.', type: 'string' },
                    },
                    required: ['apiVersion', 'kind', 'name', 'uid'],
                    type: 'object',
                    'x-kubernetes-map-type': 'atomic',
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
