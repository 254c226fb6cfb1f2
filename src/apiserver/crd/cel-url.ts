/**
 * Kubernetes' CEL URL library (k8s.io/apiserver/pkg/cel/library/urls.go): `isURL(string)`,
 * `url(string)` and, on the URL, `getScheme`, `getHost`, `getHostname`, `getPort`,
 * `getEscapedPath` and `getQuery`. A URL value is carried as a CEL map holding the original
 * text under a key no JSON object can produce (@bufbuild/cel has no opaque value types), so
 * `type(url(x))` reads `map` here where Kubernetes says `kubernetes.URL`.
 */
import type { CelFunc, CelValue } from '@bufbuild/cel';
import type { CelRuntime } from './cel-runtime.js';
import { escapedPathOf, hostnameOf, parseRequestUri, parseUrl, portOf, queryOf, type GoUrl } from './go-url.js';

const URL_KEY = '\u0000kubernetes.URL';

/** The parsed URL behind a CEL value made by url(), or a 'no such overload' error. */
function urlOf(isCelMap: CelRuntime['cel']['isCelMap'], celValue: CelValue, method: string): GoUrl {
  const text = isCelMap(celValue) ? celValue.get(URL_KEY) : undefined;
  if (typeof text !== 'string')
    throw new Error(
      `found no matching overload for '${method}' applied to '(${isCelMap(celValue) ? 'map' : typeof celValue})'`,
    );
  return parseUrl(text);
}

/** Like Kubernetes: checked with ParseRequestURI, then parsed with Parse (which splits off the fragment). */
function toUrl(celMap: CelRuntime['cel']['celMap'], text: string): CelValue {
  try {
    parseRequestUri(text);
    parseUrl(text);
  } catch (e) {
    throw new Error(`URL parse error during conversion from string: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
  return celMap(new Map([[URL_KEY, text]]));
}

function isUrl(text: string): boolean {
  try {
    parseRequestUri(text);
    return true;
  } catch {
    return false;
  }
}

/** The functions and methods of the library, made with the loaded CEL package. */
export function kubernetesUrlFuncs({ cel }: CelRuntime): CelFunc[] {
  const { celFunc, celMap, celMethod, CelScalar, isCelMap, listType, mapType } = cel;
  const DYN = CelScalar.DYN;
  const STRING = CelScalar.STRING;
  const urlOfValue = (celValue: CelValue, method: string): GoUrl => urlOf(isCelMap, celValue, method);
  return [
    celFunc('isURL', [STRING], CelScalar.BOOL, (s: string) => isUrl(s)),
    celFunc('url', [STRING], DYN, (s: string) => toUrl(celMap, s)),
    celMethod('getScheme', DYN, [], STRING, function (this: CelValue) {
      return urlOfValue(this, 'getScheme').scheme;
    }),
    celMethod('getHost', DYN, [], STRING, function (this: CelValue) {
      return urlOfValue(this, 'getHost').host;
    }),
    celMethod('getHostname', DYN, [], STRING, function (this: CelValue) {
      return hostnameOf(urlOfValue(this, 'getHostname'));
    }),
    celMethod('getPort', DYN, [], STRING, function (this: CelValue) {
      return portOf(urlOfValue(this, 'getPort'));
    }),
    celMethod('getEscapedPath', DYN, [], STRING, function (this: CelValue) {
      return escapedPathOf(urlOfValue(this, 'getEscapedPath'));
    }),
    celMethod('getQuery', DYN, [], mapType(STRING, listType(STRING)), function (this: CelValue) {
      return celMap(queryOf(urlOfValue(this, 'getQuery')));
    }),
  ];
}
