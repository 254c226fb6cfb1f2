/**
 * Decoding and swagger validation of the two request bodies (postableSilence and
 * postableAlerts), answering what Alertmanager's go-swagger layer answers: 400 `{code: 400,
 * message: "parsing … body from \"\" failed, because <Go JSON error>"}` for undecodable JSON,
 * 422 `{code: 602|612|601, …}` for the first schema violation (fields in alphabetical order).
 * The Go JSON decoder's wording is reproduced for wrong types; syntax errors are approximated.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../../lib/json.js';
import { amSwagger, type AmError } from './am-error.js';
import type { PostableAlert } from './alerts.js';
import type { ApiMatcher } from './matchers.js';
import type { SilenceInput } from './silences.js';
import { DateTimeError, parseDateTime } from './wire-time.js';

/** Go's name for a JSON value's kind in "cannot unmarshal X into …". */
function goKind(value: JsonValue): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

function parseFailure(what: string, reason: string): AmError {
  return amSwagger(400, `parsing ${what} body from "" failed, because ${reason}`);
}

function parseJson(what: string, text: string): JsonValue | undefined {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    const bad = /[^\s]/.exec(text.replace(/^\s*[[{]?/, ''))?.[0] ?? '';
    throw parseFailure(what, `invalid character '${bad}' looking for beginning of value`);
  }
}

/** Checks a string field's JSON type; null counts as absent, as in Go. */
function stringField(obj: JsonObject, key: string, goField: string, what: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    throw parseFailure(what, `json: cannot unmarshal ${goKind(v)} into Go struct field ${goField} of type string`);
  return v;
}

function timeField(obj: JsonObject, key: string, what: string): number | undefined {
  const v = stringField(obj, key, `.${key}`, what);
  if (v === undefined) return undefined;
  try {
    return parseDateTime(v);
  } catch (err) {
    if (err instanceof DateTimeError) throw parseFailure(what, err.message);
    throw err;
  }
}

/** `POST /api/v2/silences` body → a silence input, or the AmError Alertmanager answers. */
export function decodeSilenceBody(text: string): SilenceInput {
  const what = 'silence';
  const body = parseJson(what, text);
  if (body === undefined) throw amSwagger(602, 'silence in body is required');
  if (body !== null && !isJsonObject(body)) {
    throw parseFailure(
      what,
      `json: cannot unmarshal ${goKind(body)} into Go value of type struct { ID string "json:\\"id,omitempty\\"" }`,
    );
  }
  const obj: JsonObject = body ?? {};
  const id = stringField(obj, 'id', '.id', what);
  const comment = stringField(obj, 'comment', 'Silence.comment', what);
  const createdBy = stringField(obj, 'createdBy', 'Silence.createdBy', what);
  const rawMatchers = obj['matchers'];
  if (rawMatchers !== undefined && rawMatchers !== null && !Array.isArray(rawMatchers)) {
    throw parseFailure(
      what,
      `json: cannot unmarshal ${goKind(rawMatchers)} into Go struct field Silence.matchers of type models.Matchers`,
    );
  }
  const matchers: Array<Partial<ApiMatcher>> = [];
  for (const m of rawMatchers ?? []) {
    if (m === null) {
      matchers.push({});
      continue;
    }
    if (!isJsonObject(m))
      throw parseFailure(
        what,
        `json: cannot unmarshal ${goKind(m)} into Go struct field Silence.matchers of type models.Matcher`,
      );
    const out: Partial<ApiMatcher> = {};
    for (const key of ['isEqual', 'isRegex'] as const) {
      const v = m[key];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'boolean')
        throw parseFailure(
          what,
          `json: cannot unmarshal ${goKind(v)} into Go struct field Matcher.matchers.${key} of type bool`,
        );
      out[key] = v;
    }
    const name = stringField(m, 'name', 'Matcher.matchers.name', what);
    const value = stringField(m, 'value', 'Matcher.matchers.value', what);
    if (name !== undefined) out.name = name;
    if (value !== undefined) out.value = value;
    matchers.push(out);
  }
  const endsAt = timeField(obj, 'endsAt', what);
  const startsAt = timeField(obj, 'startsAt', what);

  if (comment === undefined) throw amSwagger(602, 'comment in body is required');
  if (createdBy === undefined) throw amSwagger(602, 'createdBy in body is required');
  if (endsAt === undefined) throw amSwagger(602, 'endsAt in body is required');
  if (rawMatchers === undefined || rawMatchers === null) throw amSwagger(602, 'matchers in body is required');
  if (matchers.length === 0) throw amSwagger(612, 'matchers in body should have at least 1 items');
  const valid: ApiMatcher[] = matchers.map((apiMatcher, index) => {
    if (apiMatcher.isRegex === undefined) throw amSwagger(602, `matchers.${index}.isRegex in body is required`);
    if (apiMatcher.name === undefined) throw amSwagger(602, `matchers.${index}.name in body is required`);
    if (apiMatcher.value === undefined) throw amSwagger(602, `matchers.${index}.value in body is required`);
    const out: ApiMatcher = { name: apiMatcher.name, value: apiMatcher.value, isRegex: apiMatcher.isRegex };
    if (apiMatcher.isEqual !== undefined) out.isEqual = apiMatcher.isEqual;
    return out;
  });
  if (startsAt === undefined) throw amSwagger(602, 'startsAt in body is required');
  const input: SilenceInput = { matchers: valid, startsAt, endsAt, createdBy, comment };
  if (id !== undefined) input.id = id;
  return input;
}

/** Go's `url.ParseRequestURI` acceptance, roughly: an absolute URI or an absolute path, no spaces. */
function isRequestUri(text: string): boolean {
  for (const ch of text) if (ch.charCodeAt(0) < 0x21) return false;
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) || text.startsWith('/');
}

function stringMap(value: JsonValue | undefined, goField: string, what: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value))
    throw parseFailure(
      what,
      `json: cannot unmarshal ${goKind(value)} into Go struct field ${goField} of type models.LabelSet`,
    );
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(value)) {
    if (typeof x !== 'string')
      throw parseFailure(what, `json: cannot unmarshal ${goKind(x)} into Go struct field ${goField} of type string`);
    out[k] = x;
  }
  return out;
}

/** `POST /api/v2/alerts` body → postable alerts (times re-encoded), or the AmError Alertmanager answers. */
export function decodeAlertsBody(text: string): PostableAlert[] {
  const what = 'alerts';
  const body = parseJson(what, text);
  if (body === undefined || body === null) throw amSwagger(602, 'alerts in body is required');
  if (!Array.isArray(body))
    throw parseFailure(what, `json: cannot unmarshal ${goKind(body)} into Go value of type models.PostableAlerts`);
  const decoded = body.map((item) => {
    if (item !== null && !isJsonObject(item))
      throw parseFailure(what, `json: cannot unmarshal ${goKind(item)} into Go value of type models.PostableAlert`);
    const obj: JsonObject = item ?? {};
    const labels = stringMap(obj['labels'], 'Alert.labels', what);
    const annotations = stringMap(obj['annotations'], 'PostableAlert.annotations', what);
    const startsAt = timeField(obj, 'startsAt', what);
    const endsAt = timeField(obj, 'endsAt', what);
    const generatorURL = stringField(obj, 'generatorURL', 'Alert.generatorURL', what);
    return { labels, annotations, startsAt, endsAt, generatorURL };
  });
  return decoded.map((alert, index) => {
    if (alert.generatorURL !== undefined && !isRequestUri(alert.generatorURL)) {
      throw amSwagger(601, `${index}.generatorURL in body must be of type uri: ${JSON.stringify(alert.generatorURL)}`);
    }
    if (alert.labels === undefined) throw amSwagger(602, `${index}.labels in body is required`);
    const out: PostableAlert = { labels: alert.labels };
    if (alert.annotations !== undefined) out.annotations = alert.annotations;
    if (alert.startsAt !== undefined) out.startsAt = new Date(alert.startsAt).toISOString();
    if (alert.endsAt !== undefined) out.endsAt = new Date(alert.endsAt).toISOString();
    if (alert.generatorURL !== undefined) out.generatorURL = alert.generatorURL;
    return out;
  });
}
