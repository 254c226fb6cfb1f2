/**
 * Schema of a batch/v1 JobTemplateSpec for `UpgradeJobHook.spec.template`.
 *
 * Upstream embeds the full JobTemplateSpec schema (~9,200 lines of CRD). We validate the parts
 * the controller reads or users commonly write (metadata, backoffLimit, activeDeadlineSeconds,
 * ttlSecondsAfterFinished, the pod template's metadata, containers' name/image/command/args/env,
 * restartPolicy, serviceAccountName, …) and mark the Job spec, the pod spec and each container
 * `x-kubernetes-preserve-unknown-fields`, so nothing else a user writes is pruned. The batch Job
 * API server validates the rest when the hook Job is created. The TS type is kubernetes-types'
 * JobTemplateSpec.
 */
import { Type, type TUnsafe } from 'typebox';
import type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';
import { embeddedObjectMeta, labelSelector, map, preserveUnknown, stringEnum } from '../../schema.js';

const PRESERVE = { 'x-kubernetes-preserve-unknown-fields': true } as const;

function envVar(): ReturnType<typeof Type.Object> {
  return Type.Object(
    {
      name: Type.String({ description: 'Name of the environment variable.' }),
      value: Type.Optional(Type.String({ description: 'Value; $(VAR) references to earlier variables are expanded.' })),
      valueFrom: Type.Optional(preserveUnknown('Source of the value: a field, resource, ConfigMap key or Secret key.')),
    },
    { description: 'An environment variable of a container.' },
  );
}

function container(description: string): ReturnType<typeof Type.Object> {
  return Type.Object(
    {
      name: Type.String({ description: 'Name of the container, a DNS label unique in the pod.' }),
      image: Type.Optional(Type.String({ description: 'Container image.' })),
      command: Type.Optional(
        Type.Array(Type.String(), {
          description: "Entrypoint; replaces the image's ENTRYPOINT.",
          'x-kubernetes-list-type': 'atomic',
        }),
      ),
      args: Type.Optional(
        Type.Array(Type.String(), {
          description: "Arguments; replace the image's CMD. $(VAR) is expanded.",
          'x-kubernetes-list-type': 'atomic',
        }),
      ),
      env: Type.Optional(
        Type.Array(envVar(), {
          description: 'Environment variables. The controller appends EVENT_*, JOB_* and META_* variables.',
        }),
      ),
      envFrom: Type.Optional(
        Type.Array(preserveUnknown('A ConfigMap or Secret to take variables from.'), {
          description: 'Sources of environment variables.',
          'x-kubernetes-list-type': 'atomic',
        }),
      ),
      imagePullPolicy: Type.Optional(Type.String({ description: 'Always, Never or IfNotPresent.' })),
      workingDir: Type.Optional(Type.String({ description: 'Working directory.' })),
      resources: Type.Optional(preserveUnknown('Compute resource requests and limits.')),
      securityContext: Type.Optional(preserveUnknown('Security options of the container.')),
      volumeMounts: Type.Optional(Type.Array(preserveUnknown('A volume mount.'), { description: 'Volumes to mount.' })),
    },
    { description, ...PRESERVE },
  );
}

function podSpec(): ReturnType<typeof Type.Object> {
  return Type.Object(
    {
      containers: Type.Array(container('A container of the hook pod.'), {
        description: 'Containers of the pod; at least one.',
      }),
      initContainers: Type.Optional(
        Type.Array(container('An init container of the hook pod.'), {
          description: 'Init containers, run in order before the containers.',
        }),
      ),
      restartPolicy: Type.Optional(Type.String({ description: 'OnFailure or Never for Job pods.' })),
      serviceAccountName: Type.Optional(Type.String({ description: 'Service account the pod runs as.' })),
      activeDeadlineSeconds: Type.Optional(
        Type.Integer({ description: 'Seconds the pod may run before it is stopped.', format: 'int64' }),
      ),
      nodeSelector: Type.Optional(
        map(Type.String(), 'Labels a node must have to run the pod.', { 'x-kubernetes-map-type': 'atomic' }),
      ),
      volumes: Type.Optional(Type.Array(preserveUnknown('A volume.'), { description: 'Volumes of the pod.' })),
      tolerations: Type.Optional(
        Type.Array(preserveUnknown('A toleration.'), {
          description: 'Taints the pod tolerates.',
          'x-kubernetes-list-type': 'atomic',
        }),
      ),
      securityContext: Type.Optional(preserveUnknown('Pod-level security options.')),
    },
    { description: 'Spec of the hook pod; fields not listed are kept unvalidated.', ...PRESERVE },
  );
}

/** A batch/v1 JobTemplateSpec, validated in part and otherwise kept as written. */
export function jobTemplateSpecSchema(description: string): TUnsafe<JobTemplateSpec> {
  const s = Type.Object(
    {
      metadata: Type.Optional(embeddedObjectMeta('Labels and annotations of the hook Jobs.')),
      spec: Type.Optional(
        Type.Object(
          {
            template: Type.Object(
              {
                metadata: Type.Optional(embeddedObjectMeta('Metadata of the hook pods.')),
                spec: Type.Optional(podSpec()),
              },
              { description: 'Template of the hook pods.' },
            ),
            backoffLimit: Type.Optional(
              Type.Integer({ description: 'Retries before the Job is marked failed; default 6.', format: 'int32' }),
            ),
            activeDeadlineSeconds: Type.Optional(
              Type.Integer({
                description:
                  'Seconds the Job may be active before it fails; set it, or a hung hook blocks the upgrade.',
                format: 'int64',
              }),
            ),
            ttlSecondsAfterFinished: Type.Optional(
              Type.Integer({ description: 'Seconds after finishing before the Job is deleted.', format: 'int32' }),
            ),
            parallelism: Type.Optional(Type.Integer({ description: 'Pods running at once.', format: 'int32' })),
            completions: Type.Optional(Type.Integer({ description: 'Successful pods needed.', format: 'int32' })),
            completionMode: Type.Optional(stringEnum(['NonIndexed', 'Indexed'], 'How pod completions are tracked.')),
            suspend: Type.Optional(Type.Boolean({ description: 'Create the Job suspended.' })),
            manualSelector: Type.Optional(
              Type.Boolean({ description: 'Use the given selector instead of a generated one.' }),
            ),
            selector: Type.Optional(labelSelector('Pods the Job counts; normally generated.')),
            podFailurePolicy: Type.Optional(preserveUnknown('How pod failures count towards the backoff limit.')),
          },
          { description: 'Spec of the hook Jobs; fields not listed are kept unvalidated.', ...PRESERVE },
        ),
      ),
    },
    { description },
  );
  return Type.Unsafe<JobTemplateSpec>(s);
}
