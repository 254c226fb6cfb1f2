/**
 * the ClusterVersion of openshiftCustomResourceDefinitions() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** the ClusterVersion of openshiftCustomResourceDefinitions(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'clusterversions.config.openshift.io' },
  spec: {
    group: 'config.openshift.io',
    names: {
      kind: 'ClusterVersion',
      listKind: 'ClusterVersionList',
      plural: 'clusterversions',
      singular: 'clusterversion',
    },
    scope: 'Cluster',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.status.history[?(@.state=="Completed")].version', name: 'Version', type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Available")].status', name: 'Available', type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Progressing")].status', name: 'Progressing', type: 'string' },
          { jsonPath: '.status.conditions[?(@.type=="Progressing")].lastTransitionTime', name: 'Since', type: 'date' },
          { jsonPath: '.status.conditions[?(@.type=="Progressing")].message', name: 'Status', type: 'string' },
        ],
        name: 'v1',
        schema: {
          openAPIV3Schema: {
            description:
              'The configuration of the cluster version operator: the desired release, update channel and service; status reports updates.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'The desired state of the cluster version; the operator works towards it.',
                properties: {
                  capabilities: {
                    description:
                      'Which optional core cluster components are installed; null is the same as an empty object.',
                    properties: {
                      additionalEnabledCapabilities: {
                        description: 'Capabilities to enable beyond the baseline set.',
                        items: {
                          description: 'An optional capability.',
                          enum: [
                            'openshift-samples',
                            'baremetal',
                            'marketplace',
                            'Console',
                            'Insights',
                            'Storage',
                            'CSISnapshot',
                            'NodeTuning',
                            'MachineAPI',
                            'Build',
                            'DeploymentConfig',
                            'ImageRegistry',
                            'OperatorLifecycleManager',
                            'CloudCredential',
                            'Ingress',
                            'CloudControllerManager',
                            'OperatorLifecycleManagerV1',
                          ],
                          type: 'string',
                        },
                        type: 'array',
                        'x-kubernetes-list-type': 'atomic',
                      },
                      baselineCapabilitySet: {
                        description:
                          'Initial set of optional capabilities to enable; unset means the cluster default (vCurrent).',
                        enum: [
                          'None',
                          'v4.11',
                          'v4.12',
                          'v4.13',
                          'v4.14',
                          'v4.15',
                          'v4.16',
                          'v4.17',
                          'v4.18',
                          'vCurrent',
                        ],
                        type: 'string',
                      },
                    },
                    type: 'object',
                  },
                  channel: {
                    description: 'Update channel, e.g. stable-4.15; empty disables update retrieval.',
                    type: 'string',
                  },
                  clusterID: { description: 'Unique identifier of the cluster: an RFC 4122 UUID.', type: 'string' },
                  desiredUpdate: {
                    description:
                      'The release the cluster should run. Setting it starts an update; version alone must name an available update, image names any release.',
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
                  overrides: {
                    description: 'Objects the cluster version operator must stop managing.',
                    items: {
                      description: 'An override of how the cluster version operator manages one object.',
                      properties: {
                        group: { description: 'API group of the kind.', type: 'string' },
                        kind: { description: 'Kind of the object to override.', type: 'string' },
                        name: { description: 'Name of the object.', type: 'string' },
                        namespace: {
                          description: 'Namespace of the object; empty for cluster-scoped objects.',
                          type: 'string',
                        },
                        unmanaged: {
                          description: 'Stop the cluster version operator from managing the object.',
                          type: 'boolean',
                        },
                      },
                      required: ['group', 'kind', 'name', 'namespace', 'unmanaged'],
                      type: 'object',
                    },
                    type: 'array',
                    'x-kubernetes-list-map-keys': ['kind', 'group', 'namespace', 'name'],
                    'x-kubernetes-list-type': 'map',
                  },
                  signatureStores: {
                    description: 'Release signature stores to use instead of the default ones; at most 32.',
                    items: {
                      description: 'A release signature store.',
                      properties: {
                        ca: {
                          description: 'ConfigMap holding the PEM CA bundle (key ca.crt) that verifies the store.',
                          properties: {
                            name: { description: 'Name of the ConfigMap in openshift-config.', type: 'string' },
                          },
                          required: ['name'],
                          type: 'object',
                        },
                        url: {
                          description: 'Absolute http or https URL of a release signature store.',
                          type: 'string',
                          'x-kubernetes-validations': [
                            { message: 'url must be a valid absolute URL', rule: 'isURL(self)' },
                          ],
                        },
                      },
                      required: ['url'],
                      type: 'object',
                    },
                    maxItems: 32,
                    type: 'array',
                    'x-kubernetes-list-map-keys': ['url'],
                    'x-kubernetes-list-type': 'map',
                  },
                  upstream: {
                    description: 'URL of the update service; empty means the default service.',
                    type: 'string',
                  },
                },
                required: ['clusterID'],
                type: 'object',
              },
              status: {
                description:
                  'What the cluster version operator observes: the desired release, history, updates and conditions.',
                properties: {
                  availableUpdates: {
                    description: 'Recommended updates, newest first; null when there are none.',
                    items: {
                      description: 'An OpenShift release image and its metadata.',
                      properties: {
                        architecture: {
                          description: 'Multi for a multi-architecture payload, else empty.',
                          enum: ['Multi', ''],
                          type: 'string',
                        },
                        channels: {
                          description: 'Update channels the release belongs to, sorted.',
                          items: { type: 'string' },
                          type: 'array',
                        },
                        image: { description: 'Pull spec of the release image.', type: 'string' },
                        url: {
                          description:
                            'Link to information about the release (errata), from the update service metadata.',
                          type: 'string',
                        },
                        version: { description: 'Semantic version of the release.', type: 'string' },
                      },
                      type: 'object',
                    },
                    nullable: true,
                    type: 'array',
                  },
                  capabilities: {
                    description: 'The state of the optional cluster capabilities.',
                    properties: {
                      enabledCapabilities: {
                        description: 'Capabilities currently managed.',
                        items: {
                          description: 'An optional cluster capability.',
                          enum: [
                            'openshift-samples',
                            'baremetal',
                            'marketplace',
                            'Console',
                            'Insights',
                            'Storage',
                            'CSISnapshot',
                            'NodeTuning',
                            'MachineAPI',
                            'Build',
                            'DeploymentConfig',
                            'ImageRegistry',
                            'OperatorLifecycleManager',
                            'CloudCredential',
                            'Ingress',
                            'CloudControllerManager',
                            'OperatorLifecycleManagerV1',
                          ],
                          type: 'string',
                        },
                        type: 'array',
                        'x-kubernetes-list-type': 'atomic',
                      },
                      knownCapabilities: {
                        description: 'Capabilities known to the current release.',
                        items: {
                          description: 'An optional cluster capability.',
                          enum: [
                            'openshift-samples',
                            'baremetal',
                            'marketplace',
                            'Console',
                            'Insights',
                            'Storage',
                            'CSISnapshot',
                            'NodeTuning',
                            'MachineAPI',
                            'Build',
                            'DeploymentConfig',
                            'ImageRegistry',
                            'OperatorLifecycleManager',
                            'CloudCredential',
                            'Ingress',
                            'CloudControllerManager',
                            'OperatorLifecycleManagerV1',
                          ],
                          type: 'string',
                        },
                        type: 'array',
                        'x-kubernetes-list-type': 'atomic',
                      },
                    },
                    type: 'object',
                  },
                  conditionalUpdateRisks: {
                    description:
                      'Every risk of the conditional updates, by name (feature gate ClusterUpdateAcceptRisks).',
                    items: {
                      description: 'A reason not to recommend a conditional update, and the clusters it applies to.',
                      properties: {
                        conditions: {
                          description:
                            'Observations of the risk, e.g. Applies (feature gate ClusterUpdateAcceptRisks).',
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
                                description:
                                  "A CamelCase identifier of the reason for the condition's last transition.",
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
                        matchingRules: {
                          description: 'Rules in decreasing precedence; the first one that evaluates decides.',
                          items: {
                            description: 'A rule deciding whether a cluster is exposed to a risk.',
                            properties: {
                              promql: {
                                description: 'A rule evaluated with PromQL.',
                                properties: {
                                  promql: {
                                    description:
                                      'A PromQL query returning one sample: 1 when the cluster is exposed, 0 when not.',
                                    type: 'string',
                                  },
                                },
                                required: ['promql'],
                                type: 'object',
                              },
                              type: {
                                description: 'Kind of rule: Always matches; PromQL runs a query.',
                                enum: ['Always', 'PromQL'],
                                type: 'string',
                              },
                            },
                            required: ['type'],
                            type: 'object',
                          },
                          minItems: 1,
                          type: 'array',
                          'x-kubernetes-list-type': 'atomic',
                        },
                        message: {
                          description: 'Human-readable description of the risk; may contain line feeds.',
                          minLength: 1,
                          type: 'string',
                        },
                        name: { description: 'CamelCase name of the risk.', minLength: 1, type: 'string' },
                        url: {
                          description: 'Link to details of the risk.',
                          format: 'uri',
                          minLength: 1,
                          type: 'string',
                        },
                      },
                      required: ['matchingRules', 'message', 'name', 'url'],
                      type: 'object',
                    },
                    type: 'array',
                    'x-kubernetes-list-map-keys': ['name'],
                    'x-kubernetes-list-type': 'map',
                  },
                  conditionalUpdates: {
                    description: 'Updates recommended only to some clusters, newest first.',
                    items: {
                      description: 'An update that may be recommended, depending on the cluster.',
                      properties: {
                        conditions: {
                          description: 'Observations of the update, e.g. Recommended.',
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
                                description:
                                  "A CamelCase identifier of the reason for the condition's last transition.",
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
                        release: {
                          description: 'An OpenShift release image and its metadata.',
                          properties: {
                            architecture: {
                              description: 'Multi for a multi-architecture payload, else empty.',
                              enum: ['Multi', ''],
                              type: 'string',
                            },
                            channels: {
                              description: 'Update channels the release belongs to, sorted.',
                              items: { type: 'string' },
                              type: 'array',
                            },
                            image: { description: 'Pull spec of the release image.', type: 'string' },
                            url: {
                              description:
                                'Link to information about the release (errata), from the update service metadata.',
                              type: 'string',
                            },
                            version: { description: 'Semantic version of the release.', type: 'string' },
                          },
                          type: 'object',
                        },
                        riskNames: {
                          description:
                            'Names of the risks, pointing into conditionalUpdateRisks (feature gate ClusterUpdateAcceptRisks).',
                          items: { type: 'string' },
                          type: 'array',
                        },
                        risks: {
                          description: 'Risks of the update; it is recommended only if none applies.',
                          items: {
                            description:
                              'A reason not to recommend a conditional update, and the clusters it applies to.',
                            properties: {
                              conditions: {
                                description:
                                  'Observations of the risk, e.g. Applies (feature gate ClusterUpdateAcceptRisks).',
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
                                      description:
                                        "A CamelCase identifier of the reason for the condition's last transition.",
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
                              matchingRules: {
                                description: 'Rules in decreasing precedence; the first one that evaluates decides.',
                                items: {
                                  description: 'A rule deciding whether a cluster is exposed to a risk.',
                                  properties: {
                                    promql: {
                                      description: 'A rule evaluated with PromQL.',
                                      properties: {
                                        promql: {
                                          description:
                                            'A PromQL query returning one sample: 1 when the cluster is exposed, 0 when not.',
                                          type: 'string',
                                        },
                                      },
                                      required: ['promql'],
                                      type: 'object',
                                    },
                                    type: {
                                      description: 'Kind of rule: Always matches; PromQL runs a query.',
                                      enum: ['Always', 'PromQL'],
                                      type: 'string',
                                    },
                                  },
                                  required: ['type'],
                                  type: 'object',
                                },
                                minItems: 1,
                                type: 'array',
                                'x-kubernetes-list-type': 'atomic',
                              },
                              message: {
                                description: 'Human-readable description of the risk; may contain line feeds.',
                                minLength: 1,
                                type: 'string',
                              },
                              name: { description: 'CamelCase name of the risk.', minLength: 1, type: 'string' },
                              url: {
                                description: 'Link to details of the risk.',
                                format: 'uri',
                                minLength: 1,
                                type: 'string',
                              },
                            },
                            required: ['matchingRules', 'message', 'name', 'url'],
                            type: 'object',
                          },
                          minItems: 1,
                          type: 'array',
                          'x-kubernetes-list-map-keys': ['name'],
                          'x-kubernetes-list-type': 'map',
                        },
                      },
                      required: ['release', 'risks'],
                      type: 'object',
                    },
                    type: 'array',
                    'x-kubernetes-list-type': 'atomic',
                  },
                  conditions: {
                    description: 'Conditions of the cluster version operator; find them by type.',
                    items: {
                      description: 'The state of one aspect of an operator and its operands.',
                      properties: {
                        lastTransitionTime: {
                          description: 'When the status last changed.',
                          format: 'date-time',
                          type: 'string',
                        },
                        message: { description: 'Human-readable details; may contain line feeds.', type: 'string' },
                        reason: { description: "CamelCase reason for the condition's status.", type: 'string' },
                        status: { description: 'Status of the condition: True, False or Unknown.', type: 'string' },
                        type: { description: 'The aspect of the component this condition reports on.', type: 'string' },
                      },
                      required: ['lastTransitionTime', 'status', 'type'],
                      type: 'object',
                    },
                    type: 'array',
                  },
                  desired: {
                    description: 'An OpenShift release image and its metadata.',
                    properties: {
                      architecture: {
                        description: 'Multi for a multi-architecture payload, else empty.',
                        enum: ['Multi', ''],
                        type: 'string',
                      },
                      channels: {
                        description: 'Update channels the release belongs to, sorted.',
                        items: { type: 'string' },
                        type: 'array',
                      },
                      image: { description: 'Pull spec of the release image.', type: 'string' },
                      url: {
                        description:
                          'Link to information about the release (errata), from the update service metadata.',
                        type: 'string',
                      },
                      version: { description: 'Semantic version of the release.', type: 'string' },
                    },
                    type: 'object',
                  },
                  history: {
                    description: 'The most recent updates, newest first.',
                    items: {
                      description: 'One attempted update of the cluster.',
                      properties: {
                        acceptedRisks: {
                          description:
                            'Risks overridden to start the update (forced verification, failed preconditions).',
                          type: 'string',
                        },
                        completionTime: {
                          description: 'When the update was fully applied or superseded; null while it is in progress.',
                          format: 'date-time',
                          nullable: true,
                          type: 'string',
                        },
                        image: { description: 'Pull spec of the release image of the update.', type: 'string' },
                        startedTime: { description: 'When the update started.', format: 'date-time', type: 'string' },
                        state: {
                          description:
                            'Completed once every part of the update was applied at least once, else Partial.',
                          type: 'string',
                        },
                        verified: {
                          description: 'Whether the release image was verified before it was applied.',
                          type: 'boolean',
                        },
                        version: {
                          description: 'Semantic version of the update; may be empty when the image carries none.',
                          type: 'string',
                        },
                      },
                      required: ['completionTime', 'image', 'startedTime', 'state', 'verified'],
                      type: 'object',
                    },
                    type: 'array',
                  },
                  observedGeneration: {
                    description: 'The spec generation being synced.',
                    format: 'int64',
                    type: 'integer',
                  },
                  versionHash: { description: 'Fingerprint of the payload content being applied.', type: 'string' },
                },
                required: ['availableUpdates', 'desired', 'observedGeneration', 'versionHash'],
                type: 'object',
              },
            },
            required: ['spec'],
            type: 'object',
            'x-kubernetes-validations': [
              {
                message:
                  'the `baremetal` capability requires the `MachineAPI` capability, which is neither explicitly or implicitly enabled in this cluster, please enable the `MachineAPI` capability',
                rule: "has(self.spec.capabilities) && has(self.spec.capabilities.additionalEnabledCapabilities) && self.spec.capabilities.baselineCapabilitySet == 'None' && 'baremetal' in self.spec.capabilities.additionalEnabledCapabilities ? 'MachineAPI' in self.spec.capabilities.additionalEnabledCapabilities || (has(self.status) && has(self.status.capabilities) && has(self.status.capabilities.enabledCapabilities) && 'MachineAPI' in self.status.capabilities.enabledCapabilities) : true",
              },
              {
                message:
                  'the `marketplace` capability requires the `OperatorLifecycleManager` capability, which is neither explicitly or implicitly enabled in this cluster, please enable the `OperatorLifecycleManager` capability',
                rule: "has(self.spec.capabilities) && has(self.spec.capabilities.additionalEnabledCapabilities) && self.spec.capabilities.baselineCapabilitySet == 'None' && 'marketplace' in self.spec.capabilities.additionalEnabledCapabilities ? 'OperatorLifecycleManager' in self.spec.capabilities.additionalEnabledCapabilities || (has(self.status) && has(self.status.capabilities) && has(self.status.capabilities.enabledCapabilities) && 'OperatorLifecycleManager' in self.status.capabilities.enabledCapabilities) : true",
              },
            ],
          },
        },
        served: true,
        storage: true,
        subresources: { status: {} },
      },
    ],
  },
};
