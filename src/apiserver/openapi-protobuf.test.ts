import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsOpenApiProtobuf, openApiV2Protobuf } from './openapi-protobuf.js';

/** One field of a protobuf message: its number, and a varint, 8 bytes or the bytes it carries. */
interface Field {
  field: number;
  value: bigint | Buffer;
}

/** Reads a message's fields (the test's own reader: protobuf's wire format, varint/64-bit/bytes). */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buf[at++]!;
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
    }
  };
  while (at < buf.length) {
    const tag = Number(varint());
    const wire = tag & 7;
    if (wire === 0) out.push({ field: tag >> 3, value: varint() });
    else if (wire === 1) {
      out.push({ field: tag >> 3, value: buf.subarray(at, at + 8) });
      at += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      out.push({ field: tag >> 3, value: buf.subarray(at, at + len) });
      at += len;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

function one(buf: Buffer, field: number): Buffer {
  const found = fields(buf).filter((f) => f.field === field);
  assert.equal(found.length, 1, `field ${field}`);
  return found[0]!.value as Buffer;
}

void test('kubectl asks for the protobuf document in either spelling', () => {
  assert.equal(acceptsOpenApiProtobuf('application/com.github.proto-openapi.spec.v2@v1.0+protobuf'), true);
  assert.equal(acceptsOpenApiProtobuf('application/com.github.proto-openapi.spec.v2.v1.0+protobuf, */*'), true);
  assert.equal(acceptsOpenApiProtobuf('application/json'), false);
  assert.equal(acceptsOpenApiProtobuf(undefined), false);
});

void test("the document in gnostic's openapi.v2 wire format: swagger, info, definitions with schemas and extensions", () => {
  const buf = openApiV2Protobuf({
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.29.0' },
    paths: {},
    definitions: {
      'io.example.v1.Widget': {
        type: 'object',
        required: ['spec'],
        additionalProperties: false,
        properties: { size: { type: 'integer', minimum: 1.5, maxLength: 300, default: 3 } },
        'x-kubernetes-group-version-kind': [{ group: 'example.io', version: 'v1', kind: 'Widget' }],
      },
    },
  });
  assert.equal(one(buf, 1).toString(), '2.0');
  const info = one(buf, 2);
  assert.equal(one(info, 1).toString(), 'Kubernetes');
  assert.equal(one(info, 2).toString(), 'v1.29.0');
  assert.equal(one(buf, 8).length, 0, 'paths, empty');
  const named = one(one(buf, 9), 1);
  assert.equal(one(named, 1).toString(), 'io.example.v1.Widget');
  const schema = one(named, 2);
  assert.equal(one(one(schema, 22), 1).toString(), 'object', 'type');
  assert.equal(one(schema, 19).toString(), 'spec', 'required');
  assert.deepEqual(fields(one(schema, 21)), [{ field: 2, value: 0n }], 'additionalProperties false is written');
  const gvk = one(schema, 31);
  assert.equal(one(gvk, 1).toString(), 'x-kubernetes-group-version-kind');
  assert.equal(one(one(gvk, 2), 2).toString(), '- group: example.io\n  version: v1\n  kind: Widget\n');
  const size = one(one(one(schema, 25), 1), 2);
  assert.equal(one(size, 9).readDoubleLE(), 1.5, 'minimum, a double');
  assert.equal(fields(size).find((f) => f.field === 11)?.value, 300n, 'maxLength, a varint');
  assert.equal(one(one(size, 5), 2).toString(), '3\n', 'default as YAML');
});
