/**
 * managedClusterVersionCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** managedClusterVersionCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'clusterversions.managedupgrade.appuio.io' },
  spec: {
    group: 'managedupgrade.appuio.io',
    names: {
      kind: 'ClusterVersion',
      listKind: 'ClusterVersionList',
      plural: 'clusterversions',
      shortNames: ['mcv'],
      singular: 'clusterversion',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.status.current.channel', name: 'Channel', type: 'string' },
          { jsonPath: '.status.overlayApplied', name: 'Overlay Applied', type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        name: 'v1beta1',
        schema: {
          openAPIV3Schema: {
            description:
              'ClusterVersion holds the spec the controller keeps on the cluster ClusterVersion, with scheduled overlays.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'The ClusterVersion spec to apply, and when it changes.',
                properties: {
                  overlays: {
                    description: 'Time-based changes over the template.',
                    items: {
                      description: 'A change of the ClusterVersion spec from a point in time.',
                      properties: {
                        from: {
                          description: 'When this overlay starts to apply; the newest overlay already started wins.',
                          format: 'date-time',
                          type: 'string',
                        },
                        overlay: {
                          description: 'The partial ClusterVersion applied over the template.',
                          properties: {
                            spec: {
                              description:
                                'Fields merged over the template: non-empty values replace, empty ones remove nothing.',
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
                                clusterID: {
                                  description: 'Unique identifier of the cluster: an RFC 4122 UUID.',
                                  type: 'string',
                                },
                                desiredUpdate: {
                                  description:
                                    'The update the cluster should run. Ignored by the ClusterVersion sync: UpgradeJobs own it.',
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
                                  description:
                                    'Release signature stores to use instead of the default ones; at most 32.',
                                  items: {
                                    description: 'A release signature store.',
                                    properties: {
                                      ca: {
                                        description:
                                          'ConfigMap holding the PEM CA bundle (key ca.crt) that verifies the store.',
                                        properties: {
                                          name: {
                                            description: 'Name of the ConfigMap in openshift-config.',
                                            type: 'string',
                                          },
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
                              type: 'object',
                            },
                          },
                          type: 'object',
                        },
                      },
                      required: ['from', 'overlay'],
                      type: 'object',
                    },
                    type: 'array',
                  },
                  template: {
                    description: 'The base applied to the cluster ClusterVersion.',
                    properties: {
                      spec: {
                        description:
                          'The ClusterVersion spec to keep in sync; desiredUpdate is ignored (UpgradeJobs own it).',
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
                          clusterID: {
                            description: 'Unique identifier of the cluster: an RFC 4122 UUID.',
                            type: 'string',
                          },
                          desiredUpdate: {
                            description:
                              'The update the cluster should run. Ignored by the ClusterVersion sync: UpgradeJobs own it.',
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
                                  description:
                                    'ConfigMap holding the PEM CA bundle (key ca.crt) that verifies the store.',
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
                    },
                    type: 'object',
                  },
                },
                type: 'object',
              },
              status: {
                description: 'The rendered specs.',
                properties: {
                  current: {
                    description: 'The rendered spec that applies now.',
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
                          'The update the cluster should run. Ignored by the ClusterVersion sync: UpgradeJobs own it.',
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
                    type: 'object',
                  },
                  overlayApplied: {
                    description: 'The from time of the overlay that applies now; null when none does.',
                    format: 'date-time',
                    nullable: true,
                    type: 'string',
                  },
                  overlays: {
                    description: 'One preview per overlay, in spec order.',
                    items: {
                      description: 'Preview of one overlay.',
                      properties: {
                        from: { description: 'When the overlay starts to apply.', format: 'date-time', type: 'string' },
                        preview: {
                          description: 'The rendered result of the overlay.',
                          properties: {
                            spec: {
                              description: 'The template with this overlay merged.',
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
                                clusterID: {
                                  description: 'Unique identifier of the cluster: an RFC 4122 UUID.',
                                  type: 'string',
                                },
                                desiredUpdate: {
                                  description:
                                    'The update the cluster should run. Ignored by the ClusterVersion sync: UpgradeJobs own it.',
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
                                  description:
                                    'Release signature stores to use instead of the default ones; at most 32.',
                                  items: {
                                    description: 'A release signature store.',
                                    properties: {
                                      ca: {
                                        description:
                                          'ConfigMap holding the PEM CA bundle (key ca.crt) that verifies the store.',
                                        properties: {
                                          name: {
                                            description: 'Name of the ConfigMap in openshift-config.',
                                            type: 'string',
                                          },
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
                              type: 'object',
                            },
                          },
                          type: 'object',
                        },
                      },
                      required: ['from', 'preview'],
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
