import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual, type JsonValue } from './json.js';
import { compareCodePoints, goJsonMarshal, goJsonNumber, goJsonString } from './go-json.js';

test('strings keep their quotes and get Go escapes for <, >, &, U+2028 and U+2029', () => {
  assert.equal(goJsonString('Create'), '"Create"');
  assert.equal(goJsonString('Create').length, 8);
  assert.equal(goJsonString(''), '""');
  assert.equal(goJsonString('a<b>&c'), '"a\\u003cb\\u003e\\u0026c"');
  assert.equal(goJsonString('x\u2028y\u2029z'), '"x\\u2028y\\u2029z"');
  assert.equal(goJsonString('say "hi"\\'), '"say \\"hi\\"\\\\"');
  assert.equal(goJsonString('l1\nl2\tt\r\u0001\u007f'), '"l1\\nl2\\tt\\r\\u0001\u007f"');
  assert.equal(goJsonString('äö😀'), '"äö😀"');
});

test('a lone surrogate becomes U+FFFD, as after Go decodes it', () => {
  assert.equal(goJsonString('a\uD800b'), '"a\uFFFDb"');
  assert.equal(goJsonString('\uDC00'), '"\uFFFD"');
  assert.equal(goJsonString('\uD83D\uDE00'), '"😀"');
});

test('numbers are formatted like Go float64 in JSON', () => {
  assert.equal(goJsonNumber(3), '3');
  assert.equal(goJsonNumber(1.5), '1.5');
  assert.equal(goJsonNumber(-42), '-42');
  assert.equal(goJsonNumber(0), '0');
  assert.equal(goJsonNumber(-0), '-0');
  assert.equal(goJsonNumber(1e21), '1e+21');
  assert.equal(goJsonNumber(1.5e300), '1.5e+300');
  assert.equal(goJsonNumber(123456789012345680000), '123456789012345680000');
  assert.equal(goJsonNumber(0.000001), '0.000001');
  assert.equal(goJsonNumber(1e-7), '1e-7');
  assert.equal(goJsonNumber(2.5e-10), '2.5e-10');
  assert.throws(() => goJsonNumber(Number.NaN), RangeError);
});

test('objects are compact with keys in code point order', () => {
  assert.equal(goJsonMarshal({ b: 1, a: [true, null, 'x'], c: {} }), '{"a":[true,null,"x"],"b":1,"c":{}}');
  // Code point order: Z < z < é < U+FFFD < 😀 (UTF-16 order would put 😀 before U+FFFD).
  assert.equal(goJsonMarshal({ '😀': 1, '\uFFFD': 2, é: 3, z: 4, Z: 5 }), '{"Z":5,"z":4,"é":3,"\uFFFD":2,"😀":1}');
  assert.equal(goJsonMarshal({ '<k>': '&' }), '{"\\u003ck\\u003e":"\\u0026"}');
});

test('compareCodePoints orders by code point, shorter prefix first', () => {
  assert.ok(compareCodePoints('a', 'b') < 0);
  assert.ok(compareCodePoints('ab', 'a') > 0);
  assert.equal(compareCodePoints('same', 'same'), 0);
  assert.ok(compareCodePoints('\uFFFD', '😀') < 0);
});

test('property: the text parses back to the same value', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const value = v as JsonValue;
      assert.ok(jsonEqual(JSON.parse(goJsonMarshal(value)) as JsonValue, value));
    }),
  );
});

test('property: the text never contains a raw <, > or &', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('<', '>', '&', 'a', '"', '\\', '\u2028', '\u2029', '\uD800', '😀') }),
      (s) => {
        assert.doesNotMatch(goJsonString(s), /[<>&\u2028\u2029]/);
      },
    ),
  );
});
