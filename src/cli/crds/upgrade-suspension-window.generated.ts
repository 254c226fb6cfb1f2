/**
 * upgradeSuspensionWindowCrd() as JSON, written by scripts/generate-crd-json.ts so that the offline commands
 * admit files with it without loading TypeBox. Do not edit; src/cli/crds/crds.test.ts checks it.
 */
import type { JsonObject } from '../../lib/json.js';

/** upgradeSuspensionWindowCrd(), as JSON. */
export const CRD: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'upgradesuspensionwindows.managedupgrade.appuio.io' },
  spec: {
    group: 'managedupgrade.appuio.io',
    names: {
      kind: 'UpgradeSuspensionWindow',
      listKind: 'UpgradeSuspensionWindowList',
      plural: 'upgradesuspensionwindows',
      shortNames: ['usw'],
      singular: 'upgradesuspensionwindow',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.spec.start', name: 'Start', type: 'string' },
          { jsonPath: '.spec.end', name: 'End', type: 'string' },
          { jsonPath: '.spec.reason', name: 'Reason', type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        name: 'v1beta1',
        schema: {
          openAPIV3Schema: {
            description: 'UpgradeSuspensionWindow suspends scheduled upgrades during a time window.',
            properties: {
              apiVersion: { description: 'The versioned schema of this representation of an object.', type: 'string' },
              kind: { description: 'The REST resource this object represents, in CamelCase.', type: 'string' },
              metadata: { type: 'object' },
              spec: {
                description: 'A time window in which upgrades are suspended.',
                properties: {
                  configSelector: {
                    description:
                      'UpgradeConfigs that create no jobs during the window; empty selects all, absent selects none.',
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
                  end: { description: 'End of the window (inclusive).', format: 'date-time', type: 'string' },
                  jobSelector: {
                    description:
                      'UpgradeJobs that are skipped (marked succeeded) if due during the window; empty selects all, absent selects none.',
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
                  reason: {
                    description:
                      'Why upgrades are suspended; shown in events, messages and metrics (the metric label is cut at 256 characters).',
                    maxLength: 1024,
                    type: 'string',
                  },
                  start: { description: 'Start of the window (inclusive).', format: 'date-time', type: 'string' },
                },
                required: ['end', 'reason', 'start'],
                type: 'object',
              },
              status: {
                description: 'Objects the window affects.',
                properties: {
                  matchingConfigs: {
                    description: 'UpgradeConfigs the configSelector matches, by name.',
                    items: {
                      description: 'A matching object.',
                      properties: { name: { description: 'Name of the object.', type: 'string' } },
                      required: ['name'],
                      type: 'object',
                    },
                    type: 'array',
                  },
                  matchingJobs: {
                    description: 'UpgradeJobs the jobSelector matches whose startAfter is in the window, by name.',
                    items: {
                      description: 'A matching object.',
                      properties: { name: { description: 'Name of the object.', type: 'string' } },
                      required: ['name'],
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
