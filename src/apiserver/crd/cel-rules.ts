/**
 * `x-kubernetes-validations` rules: compiling and running CEL expressions with
 * `@bufbuild/cel`, over values typed the way Kubernetes types them from the schema
 * (integers are CEL `int`, numbers `double`, objects and maps CEL maps). Adds the part of
 * Kubernetes' CEL library that rules on our kinds use: the strings extension (lowerAscii,
 * upperAscii, replace, split, substring, trim, indexOf, ...), list helpers (isSorted, sum,
 * min, max, indexOf, lastIndexOf), regex find/findAll and the URL library (cel-url.ts). Not
 * provided: quantity, ip, cidr, authz and format libraries, and format-typed values (date-time
 * as timestamp).
 */
import type { CelEnv, CelFunc, CelInput, CelList, CelValue } from '@bufbuild/cel';
import { compileGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';
import type { JsonValue } from '../../lib/json.js';
import { celRuntime, type CelRuntime } from './cel-runtime.js';
import { kubernetesUrlFuncs } from './cel-url.js';
import {
  isObject,
  schemaAdditional,
  schemaFlag,
  schemaItems,
  schemaProperties,
  schemaString,
  type SchemaNode,
} from './schema-node.js';

function compare(left: CelValue, right: CelValue): number {
  if (
    (typeof left === 'bigint' || typeof left === 'number') &&
    (typeof right === 'bigint' || typeof right === 'number')
  ) {
    const x = Number(left);
    const y = Number(right);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  throw new Error('no such overload');
}

function items(list: CelList): CelValue[] {
  return [...list];
}

function same(left: CelValue, right: CelValue): boolean {
  try {
    return compare(left, right) === 0;
  } catch {
    return false;
  }
}

/** Kubernetes' list and regex methods, made with the loaded CEL package. */
function kubernetesListFuncs({ cel }: CelRuntime): CelFunc[] {
  const { celMethod, CelScalar, listType } = cel;
  const DYN = CelScalar.DYN;
  const LIST = listType(DYN);
  return [
    celMethod('isSorted', LIST, [], CelScalar.BOOL, function (this: CelList) {
      const xs = items(this);
      for (let i = 1; i < xs.length; i++) if (compare(xs[i - 1]!, xs[i]!) > 0) return false;
      return true;
    }),
    celMethod('sum', LIST, [], DYN, function (this: CelList): CelInput {
      const xs = items(this);
      if (xs.every((x) => typeof x === 'bigint')) return xs.reduce<bigint>((s, x) => s + BigInt(x), 0n);
      return xs.reduce<number>((s, x) => s + Number(x), 0);
    }),
    celMethod('min', LIST, [], DYN, function (this: CelList): CelInput {
      const xs = items(this);
      if (xs.length === 0) throw new Error('min called on empty list');
      return xs.reduce((m, x) => (compare(x, m) < 0 ? x : m));
    }),
    celMethod('max', LIST, [], DYN, function (this: CelList): CelInput {
      const xs = items(this);
      if (xs.length === 0) throw new Error('max called on empty list');
      return xs.reduce((m, x) => (compare(x, m) > 0 ? x : m));
    }),
    celMethod('indexOf', LIST, [DYN], CelScalar.INT, function (this: CelList, celValue: CelValue) {
      return BigInt(items(this).findIndex((x) => same(x, celValue)));
    }),
    celMethod('lastIndexOf', LIST, [DYN], CelScalar.INT, function (this: CelList, celValue: CelValue) {
      return BigInt(items(this).findLastIndex((x) => same(x, celValue)));
    }),
    celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (this: string, re: string) {
      return regexp(re).exec(this)?.groups[0] ?? '';
    }),
    celMethod('findAll', CelScalar.STRING, [CelScalar.STRING], LIST, function (this: string, re: string) {
      return regexp(re).findAll(this);
    }),
    celMethod(
      'findAll',
      CelScalar.STRING,
      [CelScalar.STRING, CelScalar.INT],
      LIST,
      function (this: string, re: string, limit: bigint) {
        const all = regexp(re).findAll(this);
        return limit < 0n ? all : all.slice(0, Number(limit));
      },
    ),
  ];
}

/** The Kubernetes regex library's expression (Go syntax, linear time); a bad one fails the call with Go's error. */
function regexp(source: string): GoRegexp {
  const compiled = compileGoRegexp(source);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regexp;
}

let sharedEnv: CelEnv | undefined;
function env(): CelEnv {
  if (sharedEnv === undefined) {
    const runtime = celRuntime();
    sharedEnv = runtime.cel.celEnv({
      funcs: [...runtime.ext.strings, ...kubernetesListFuncs(runtime), ...kubernetesUrlFuncs(runtime)],
    });
  }
  return sharedEnv;
}

/** A compiled rule: evaluate with bindings for `self` and, on update, `oldSelf`. */
export interface CompiledRule {
  /** True when the expression refers to `oldSelf` (a transition rule). */
  usesOldSelf: boolean;
  run(bindings: Record<string, CelInput>): { value: CelValue } | { error: string };
}

/** Compiled rules by expression text; bounded, as CRDs come and go (cleared when full). */
const cache = new Map<string, CompiledRule | { compileError: string }>();
const CACHE_MAX = 1000;

/** Parses and plans an expression once; the result is cached by expression text. */
export function compileRule(expression: string): CompiledRule | { compileError: string } {
  const hit = cache.get(expression);
  if (hit) return hit;
  let result: CompiledRule | { compileError: string };
  const { isCelError, parse, plan } = celRuntime().cel;
  try {
    const program = plan(env(), parse(expression));
    result = {
      usesOldSelf: /\boldSelf\b/.test(expression),
      run(bindings) {
        try {
          const v = program(bindings);
          return isCelError(v) ? { error: celErrorText(v.message) } : { value: v };
        } catch (e) {
          return { error: celErrorText(e instanceof Error ? e.message : String(e)) };
        }
      },
    };
  } catch (e) {
    result = { compileError: e instanceof Error ? e.message : String(e) };
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(expression, result);
  return result;
}

/** Rewords @bufbuild/cel runtime errors the way cel-go words them. */
function celErrorText(message: string): string {
  const missing = /^field not found: (.*)$/.exec(message);
  if (missing) return `no such key: ${missing[1]}`;
  if (message.startsWith('found no matching overload'))
    return message.replace('found no matching overload', 'no such overload');
  return message;
}

/** The schema type name a rule's error reports as its value ("object", "string", ...). */
export function schemaTypeName(schemaNode: SchemaNode): string {
  return schemaString(schemaNode, 'type');
}

/**
 * Converts JSON into the CEL value Kubernetes builds for it: integers are `int`, other
 * numbers `double`, objects and maps CEL maps, arrays lists. At a resource root (or an
 * embedded resource) metadata carries only name and generateName, as in Kubernetes.
 */
export function toCel(value: JsonValue, schema: SchemaNode | undefined, resourceRoot = false): CelInput {
  if (value === null) return null;
  if (typeof value === 'number') {
    const t = schemaString(schema, 'type');
    if (t === 'number') return value;
    return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    const itemSchema = schemaItems(schema);
    return value.map((v) => toCel(v, itemSchema));
  }
  const props = schemaProperties(schema);
  const additional = schemaAdditional(schema);
  const embedded = resourceRoot || schemaFlag(schema, 'x-kubernetes-embedded-resource');
  const out = new Map<string, CelInput>();
  for (const [k, v] of Object.entries(value)) {
    if (embedded && k === 'metadata' && isObject(v)) {
      const meta = new Map<string, CelInput>();
      for (const mk of ['name', 'generateName']) {
        const mv = v[mk];
        if (typeof mv === 'string') meta.set(mk, mv);
      }
      out.set(k, meta);
      continue;
    }
    const sub = props?.[k] ?? additional;
    if (
      sub === undefined &&
      props !== undefined &&
      !schemaFlag(schema, 'x-kubernetes-preserve-unknown-fields') &&
      !embedded
    )
      continue;
    out.set(k, toCel(v, sub));
  }
  return out;
}
