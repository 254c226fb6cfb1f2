/**
 * String formats a CRD schema may check. apiextensions strips every other `format` before
 * validating (int32, int64, float, double and unknown names are not checked), and compares
 * names with dashes removed (`date-time` is `datetime`). The checks follow kube-openapi's
 * strfmt registry; no JS library reproduces that exact set, hence this small module.
 */
// node:net (about 6 ms to load) only when an ipv4, ipv6 or cidr field is checked: the offline
// commands start with this module (docs/design/command-line.md#lazy-commands).
const isIPv4 = (text: string): boolean => process.getBuiltinModule('node:net').isIPv4(text);
const isIPv6 = (text: string): boolean => process.getBuiltinModule('node:net').isIPv6(text);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 and the looser ISO 8601 shapes strfmt's ParseDateTime accepts.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^([0-9a-f]{4}\.){2}[0-9a-f]{4}$/i;
const HOSTNAME =
  /^[\p{L}\p{S}0-9]([\p{L}\p{S}0-9-]{0,61}[\p{L}\p{S}0-9])?(\.[\p{L}\p{S}0-9]([\p{L}\p{S}0-9-]{0,61}[\p{L}\p{S}0-9])?)*$/u;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+$/;
const HEXCOLOR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;
const RGBCOLOR = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const BSON_OBJECT_ID = /^[0-9a-f]{24}$/i;
// Go's time.ParseDuration, then strfmt's fallback ("3 days", "1w", "2 hours 30 min").
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const LOOSE_DURATION = /^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$/;
const LOOSE_PART = /(\d+)\s*([A-Za-zµ]+)/g;
const LOOSE_UNITS: string[][] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m || !isDate(m[1]!)) return false;
  return Number(m[2]) <= 23 && Number(m[3]) <= 59 && Number(m[4] ?? '0') <= 59;
}

/** kube-openapi's `duration`: a Go duration, or strfmt's "<n> <unit>" sequence. */
export function isDuration(text: string): boolean {
  if (text === '0' || GO_DURATION.test(text)) return true;
  if (!LOOSE_DURATION.test(text)) return false;
  let ok = false;
  for (const m of text.matchAll(LOOSE_PART)) {
    const unit = m[2]!.toLowerCase();
    for (const variants of LOOSE_UNITS) {
      const last = variants.length - 1;
      variants.forEach((value, index) => {
        if ((index === last && unit.startsWith(value)) || unit === value) ok = true;
      });
    }
  }
  return ok;
}

function isCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const ip = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const n = Number(bits);
  return (isIPv4(ip) && n <= 32) || (isIPv6(ip) && n <= 128);
}

function isRequestUri(text: string): boolean {
  if (text.startsWith('/')) return true;
  try {
    return new URL(text).protocol.length > 1;
  } catch {
    return false;
  }
}

const checkers: Record<string, (text: string) => boolean> = {
  bsonobjectid: (s) => BSON_OBJECT_ID.test(s),
  uri: isRequestUri,
  email: (s) => EMAIL.test(s),
  hostname: (s) => s.length <= 255 && HOSTNAME.test(s),
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCidr,
  mac: (s) => MAC.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  ssn: (s) => SSN.test(s),
  hexcolor: (s) => HEXCOLOR.test(s),
  rgbcolor: (text) => {
    const m = RGBCOLOR.exec(text);
    return m !== null && [m[1], m[2], m[3]].every((x) => Number(x) <= 255);
  },
  byte: (s) => BASE64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/**
 * Checks `value` against a schema `format`. Returns undefined when the format is not one
 * apiextensions keeps (nothing to check), else whether the value conforms.
 */
export function checkFormat(format: string, value: string): boolean | undefined {
  const check = checkers[format.replaceAll('-', '')];
  return check ? check(value) : undefined;
}
