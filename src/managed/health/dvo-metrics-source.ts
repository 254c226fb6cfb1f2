/**
 * Where the DVO part of the health check reads from: the Deployment Validation Operator's
 * metrics Service, looked up on every check (DVO may be installed or removed while the
 * operator runs, as MUO's check also looks). No Service means DVO is not installed and the
 * check is skipped; a Service that does not answer fails the check (as in MUO).
 */
import type { Service } from 'kubernetes-types/core/v1.js';
import { ServiceResource } from '../../api/builtin.js';
import type { HttpClient } from '../../integrations/http/http-client.js';
import type { KubeClient } from '../../kube/client.js';
import {
  DVO_METRICS_PORT_NAME,
  DVO_METRICS_SERVICE,
  DVO_NAMESPACE,
  type DvoMetricsSource,
} from './deployment-validation.js';

/** The in-cluster URL of DVO's `/metrics`, from its Service. */
export function dvoMetricsUrl(service: Service): string {
  const ports = service.spec?.ports ?? [];
  const port = ports.find((p) => p.name === DVO_METRICS_PORT_NAME) ?? ports[0];
  if (!port) throw new Error(`Service ${DVO_NAMESPACE}/${DVO_METRICS_SERVICE} has no port`);
  return `http://${DVO_METRICS_SERVICE}.${DVO_NAMESPACE}.svc:${port.port}/metrics`;
}

/**
 * The DVO metrics source of the health check. `urlOf` replaces the in-cluster URL (tests, and
 * a simulated cluster without cluster DNS).
 */
export function dvoMetricsFromService(options: {
  client: KubeClient;
  http: HttpClient;
  urlOf?: (service: Service) => string;
}): DvoMetricsSource {
  return async (signal) => {
    const service = await options.client.getIfExists(
      ServiceResource,
      DVO_NAMESPACE,
      DVO_METRICS_SERVICE,
      signal ? { signal } : {},
    );
    if (!service) return undefined;
    const res = await options.http.request({
      path: (options.urlOf ?? dvoMetricsUrl)(service),
      ...(signal ? { signal } : {}),
    });
    return res.text;
  };
}
