/**
 * nodeForceDrainCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** nodeForceDrainCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodeforcedrains.managedupgrade.appuio.io' },
  spec: {
    group: 'managedupgrade.appuio.io',
    names: {
      kind: 'NodeForceDrain',
      listKind: 'NodeForceDrainList',
      plural: 'nodeforcedrains',
      shortNames: ['nfdrain'],
      singular: 'nodeforcedrain',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.spec.nodeDrainGracePeriod', name: 'Drain Grace', type: 'string' },
          { jsonPath: '.spec.podForceDeleteGracePeriod', name: 'Force Delete Grace', type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        name: 'v1beta1',
        schema: {
          openAPIV3Schema: {
            description: 'NodeForceDrain deletes the pods that keep a draining node from finishing its drain.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'Which drains to force, and after how long.',
                properties: {
                  namespaceSelector: {
                    description: 'Namespaces whose pods may be deleted; empty selects all.',
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
                  nodeDrainGracePeriod: {
                    description:
                      'How long after a drain was first observed pods on the node are deleted (bypassing PodDisruptionBudgets); 0 disables (Go duration).',
                    type: 'string',
                  },
                  nodeSelector: {
                    description: 'Nodes to watch for drains; empty selects all nodes.',
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
                  podForceDeleteGracePeriod: {
                    description:
                      'How long after a pod’s deletion it is deleted again with a 1 s grace period; 0 disables (Go duration).',
                    type: 'string',
                  },
                  podJQSelector: {
                    description: 'A jq program run on each pod; the pod is a candidate if the program emits true.',
                    type: 'string',
                  },
                },
                required: ['nodeDrainGracePeriod', 'nodeSelector', 'podForceDeleteGracePeriod'],
                type: 'object',
              },
              status: {
                description: 'Observed drains.',
                properties: {
                  lastObservedNodeDrain: {
                    description: 'The last drain observed per node.',
                    items: {
                      description: 'A node drain the controller observed.',
                      properties: {
                        drainID: {
                          description:
                            'The node’s machineconfiguration.openshift.io/lastAppliedDrain annotation when the drain was seen.',
                          type: 'string',
                        },
                        nodeName: { description: 'Name of the draining node.', type: 'string' },
                        observedTime: {
                          description: 'When the drain was first observed.',
                          format: 'date-time',
                          type: 'string',
                        },
                      },
                      required: ['drainID', 'nodeName', 'observedTime'],
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
