/**
 * Trust roots for outside HTTPS APIs: Node's bundled roots plus extra PEM certificates (the
 * OpenShift service CA, `openshift-monitoring/serving-certs-ca-bundle` key `service-ca.crt`, or
 * a trusted-CA ConfigMap), like Go's `x509.SystemCertPool()` + `AppendCertsFromPEM` in MUO.
 * Passing `ca` to Node replaces the default roots, so the bundled ones are added back here.
 * (`NODE_EXTRA_CA_CERTS` is read only at process start, so it cannot serve a CA read at run time.)
 */
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The certificates in a PEM text (other blocks, e.g. keys, and text between blocks are
 * ignored). Throws when a certificate block does not parse.
 */
export function splitPemCertificates(pem: string): string[] {
  const certs = pem.match(PEM_BLOCK) ?? [];
  return certs.map((cert, index) => {
    try {
      new X509Certificate(cert);
    } catch (err) {
      throw new Error(
        `CA bundle: certificate ${index + 1} does not parse: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    return `${cert}\n`;
  });
}

/**
 * The `ca` option for TLS connections: Node's roots plus every certificate of `extra`; undefined
 * (Node's default roots) when there is nothing extra. Throws when `extra` holds no certificate
 * or a broken one, so that a misconfigured CA shows up at start, not as a TLS error later.
 */
export function caBundle(extra: string | readonly string[] | undefined): string[] | undefined {
  if (extra === undefined) return undefined;
  const texts = typeof extra === 'string' ? [extra] : extra;
  if (texts.length === 0) return undefined;
  const added = texts.flatMap((t) => splitPemCertificates(t));
  if (added.length === 0) throw new Error('CA bundle: no PEM certificate found');
  return [...rootCertificates, ...added];
}
