/**
 * The OpenAPI v2 document in protobuf, as kube-apiserver serves `/openapi/v2` to kubectl, which
 * asks for `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` only (client-go's
 * discovery) when its OpenAPI v3 documents lack a kind. The messages are gnostic's `openapi.v2`
 * (docs/simulation.md#what-it-implements); values that are free JSON (`default`, `enum`, `example`, `x-`
 * vendor extensions) travel as YAML text in gnostic's `Any.yaml`.
 *
 * Hand-written: the document is a fixed, small subset of one schema (swagger, info, definitions
 * and the JSON Schema keywords structural schemas use); a protobuf library would need the `.proto`
 * files compiled in as well.
 */
import { stringify } from '../lib/yaml-package.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json.js';

/** The media types kubectl and client-go ask for (the second is the newer spelling). */
const ACCEPTED = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];
/** What kube-apiserver answers with for either: the spelling Go's mime parser accepts. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Whether an Accept header asks for the protobuf document. */
export function acceptsOpenApiProtobuf(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return ACCEPTED.some((t) => types.includes(t));
}

/** Protobuf wire format: varints, fixed 64-bit doubles and length-delimited fields. */
class Writer {
  readonly #chunks: Buffer[] = [];

  #varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v !== 0n);
    this.#chunks.push(Buffer.from(bytes));
  }

  #tag(field: number, wireType: number): void {
    this.#varint((field << 3) | wireType);
  }

  string(field: number, value: string | undefined): void {
    if (value === undefined || value === '') return;
    this.bytes(field, Buffer.from(value, 'utf8'));
  }

  bytes(field: number, value: Buffer): void {
    this.#tag(field, 2);
    this.#varint(value.length);
    this.#chunks.push(value);
  }

  message(field: number, build: (writer: Writer) => void): void {
    const inner = new Writer();
    build(inner);
    this.bytes(field, inner.finish());
  }

  bool(field: number, value: boolean | undefined): void {
    if (value !== true) return;
    this.#tag(field, 0);
    this.#varint(1);
  }

  /** A bool written even when false (a oneof member has presence). */
  boolAlways(field: number, value: boolean): void {
    this.#tag(field, 0);
    this.#varint(value ? 1 : 0);
  }

  int64(field: number, value: number | undefined): void {
    if (value === undefined || value === 0) return;
    this.#tag(field, 0);
    this.#varint(Math.trunc(value));
  }

  double(field: number, value: number | undefined): void {
    if (value === undefined) return;
    this.#tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.#chunks.push(b);
  }

  finish(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

const num = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** gnostic's `Any`: free JSON as YAML text (field 2). */
function writeAny(writer: Writer, value: JsonValue): void {
  writer.string(2, stringify(value, { lineWidth: 0 }));
}

/** `NamedAny` entries of the `x-` keys of an object. */
function writeVendorExtensions(writer: Writer, field: number, object: JsonObject): void {
  for (const [name, value] of Object.entries(object)) {
    if (!name.startsWith('x-') || value === undefined) continue;
    writer.message(field, (named) => {
      named.string(1, name);
      named.message(2, (any) => writeAny(any, value));
    });
  }
}

/** gnostic's `Schema`. */
function writeSchema(out: Writer, schema: JsonObject): void {
  out.string(1, str(schema['$ref']));
  out.string(2, str(schema['format']));
  out.string(3, str(schema['title']));
  out.string(4, str(schema['description']));
  if (schema['default'] !== undefined) out.message(5, (any) => writeAny(any, schema['default']!));
  out.double(6, num(schema['multipleOf']));
  out.double(7, num(schema['maximum']));
  out.bool(8, schema['exclusiveMaximum'] === true);
  out.double(9, num(schema['minimum']));
  out.bool(10, schema['exclusiveMinimum'] === true);
  out.int64(11, num(schema['maxLength']));
  out.int64(12, num(schema['minLength']));
  out.string(13, str(schema['pattern']));
  out.int64(14, num(schema['maxItems']));
  out.int64(15, num(schema['minItems']));
  out.bool(16, schema['uniqueItems'] === true);
  out.int64(17, num(schema['maxProperties']));
  out.int64(18, num(schema['minProperties']));
  for (const r of Array.isArray(schema['required']) ? schema['required'] : []) out.string(19, str(r));
  for (const e of Array.isArray(schema['enum']) ? schema['enum'] : []) out.message(20, (any) => writeAny(any, e));
  const additional = schema['additionalProperties'];
  if (isJsonObject(additional)) out.message(21, (item) => item.message(1, (s) => writeSchema(s, additional)));
  else if (typeof additional === 'boolean')
    // A oneof member has presence: false is written too.
    out.message(21, (item) => item.boolAlways(2, additional));
  const type = schema['type'];
  const types = Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
  if (types.length > 0) out.message(22, (typeItem) => types.forEach((v) => typeItem.string(1, str(v))));
  const items = schema['items'];
  const itemSchemas = Array.isArray(items) ? items : isJsonObject(items) ? [items] : [];
  if (itemSchemas.length > 0)
    out.message(23, (itemsItem) =>
      itemSchemas.forEach((s) => isJsonObject(s) && itemsItem.message(1, (sub) => writeSchema(sub, s))),
    );
  for (const s of Array.isArray(schema['allOf']) ? schema['allOf'] : [])
    if (isJsonObject(s)) out.message(24, (sub) => writeSchema(sub, s));
  const properties = schema['properties'];
  if (isJsonObject(properties))
    out.message(25, (props) => {
      for (const [name, value] of Object.entries(properties))
        if (isJsonObject(value))
          props.message(1, (named) => {
            named.string(1, name);
            named.message(2, (sub) => writeSchema(sub, value));
          });
    });
  out.string(26, str(schema['discriminator']));
  out.bool(27, schema['readOnly'] === true);
  if (schema['example'] !== undefined) out.message(30, (any) => writeAny(any, schema['example']!));
  writeVendorExtensions(out, 31, schema);
}

/** The document (swagger, info, paths, definitions) in gnostic's `openapi.v2.Document` wire format. */
export function openApiV2Protobuf(doc: JsonObject): Buffer {
  const out = new Writer();
  out.string(1, str(doc['swagger']));
  const info = doc['info'];
  if (isJsonObject(info))
    out.message(2, (infoWriter) => {
      infoWriter.string(1, str(info['title']));
      infoWriter.string(2, str(info['version']));
      infoWriter.string(3, str(info['description']));
    });
  const paths = doc['paths'];
  if (isJsonObject(paths) && Object.keys(paths).length > 0)
    throw new Error('openapi v2 protobuf: paths are not encoded (the document carries none)');
  if (isJsonObject(paths)) out.message(8, () => undefined);
  const definitions = doc['definitions'];
  if (isJsonObject(definitions))
    out.message(9, (defs) => {
      for (const [name, value] of Object.entries(definitions))
        if (isJsonObject(value))
          defs.message(1, (named) => {
            named.string(1, name);
            named.message(2, (sub) => writeSchema(sub, value));
          });
    });
  return out.finish();
}
