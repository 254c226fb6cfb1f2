/** A kubeconfig for the embedded API server, usable by kubectl and by @kubernetes/client-node. */
import { stringify } from '../lib/yaml-package.js';

export interface KubeconfigOptions {
  /** Context, cluster and user name (default 'upgrade-operator'). */
  contextName?: string;
  /** Default namespace of the context. */
  namespace?: string;
}

/**
 * The kubeconfig text. The server speaks plain HTTP on loopback; `insecure-skip-tls-verify`
 * is set because @kubernetes/client-node refuses an http:// server without it (kubectl does
 * not mind either way). The token is a placeholder: the embedded server does not authenticate.
 */
export function kubeconfigFor(url: string, options: KubeconfigOptions = {}): string {
  const name = options.contextName ?? 'upgrade-operator';
  const context: Record<string, string> = { cluster: name, user: name };
  if (options.namespace) context.namespace = options.namespace;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: { token: 'embedded-apiserver' } }],
    contexts: [{ name, context }],
    'current-context': name,
    preferences: {},
  });
}
