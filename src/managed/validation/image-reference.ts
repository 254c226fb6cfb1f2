/**
 * Release image pull specs split the way MUO checks them (openshift/library-go
 * `image/reference.Parse`, docs/design/managed-flow.md#validation):
 * `registry/namespace/name[:tag][@digest]`, where the first path component is a registry only when
 * it contains `.` or `:` or is `localhost`, the namespace is the next component and the name is the
 * rest.
 *
 * Written by hand: the grammar is the Docker distribution reference grammar, a few regular
 * expressions, and no maintained npm package follows library-go's registry/namespace split.
 */

/** The parts of a pull spec; missing parts are empty strings, as in library-go. */
export interface ImageReference {
  registry: string;
  namespace: string;
  name: string;
  tag: string;
  /** The digest, e.g. `sha256:…`. */
  id: string;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const MAX_NAME_LENGTH = 255;

/** The parts of `spec`, or the reason it is not a valid pull spec. */
export function parseImageReference(spec: string): { ok: true; ref: ImageReference } | { ok: false; error: string } {
  const m = REFERENCE.exec(spec);
  if (!m) {
    return {
      ok: false,
      error:
        spec.toLowerCase() !== spec && REFERENCE.test(spec.toLowerCase())
          ? 'repository name must be lowercase'
          : 'invalid reference format',
    };
  }
  const full = m[1] ?? '';
  if (full.length > MAX_NAME_LENGTH)
    return { ok: false, error: `repository name must not be more than ${MAX_NAME_LENGTH} characters` };
  const id = m[3] ?? '';
  if (id.startsWith('sha256:') && id.length !== 'sha256:'.length + 64)
    return { ok: false, error: 'invalid checksum digest length' };
  let registry = '';
  let path = full;
  const slash = full.indexOf('/');
  if (slash !== -1) {
    const first = full.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost') {
      registry = first;
      path = full.slice(slash + 1);
    }
  }
  let namespace = '';
  let name = path;
  const nsSlash = path.indexOf('/');
  if (nsSlash !== -1) {
    namespace = path.slice(0, nsSlash);
    name = path.slice(nsSlash + 1);
  }
  return { ok: true, ref: { registry, namespace, name, tag: m[2] ?? '', id } };
}
