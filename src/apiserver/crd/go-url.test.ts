import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapedPathOf, hostnameOf, parseRequestUri, parseUrl, portOf, queryOf } from './go-url.js';

function accepted(s: string): boolean {
  try {
    parseRequestUri(s);
    return true;
  } catch {
    return false;
  }
}

void test('ParseRequestURI accepts absolute URIs and absolute paths only', () => {
  for (const s of [
    'https://example.com',
    'https://example.com:80/path?query=val#fragment',
    '/absolute-path',
    'https://[::1]:80/',
    'mailto:someone@example.com',
    '*',
  ]) {
    assert.equal(accepted(s), true, s);
  }
  for (const s of [
    '',
    '../relative-path',
    'example.com',
    'https://a:b:c/',
    'https://[::1',
    'https://example.com:8o/',
    'https://exa mple.com/',
    'http://x/%zz',
    'https://e.com/\n',
    ':foo',
  ]) {
    assert.equal(accepted(s), false, JSON.stringify(s));
  }
});

void test('errors read like Go url.Error', () => {
  assert.throws(() => parseRequestUri('../x'), { message: 'parse "../x": invalid URI for request' });
  assert.throws(() => parseRequestUri('https://[::1'), { message: `parse "https://[::1": missing ']' in host` });
  assert.throws(() => parseRequestUri('https://a:b:c/'), {
    message: 'parse "https://a:b:c/": invalid port ":c" after host',
  });
  assert.throws(() => parseRequestUri('http://x/%zz'), { message: 'parse "http://x/%zz": invalid URL escape "%zz"' });
});

void test('accessors: host, hostname, port, escaped path, query', () => {
  const u = parseUrl('HTTPS://user@[::1]:8443/a%2Fb/c?k1=a&k2=b&k2=c+d&bad=%zz&;x=1#frag');
  assert.equal(u.scheme, 'https');
  assert.equal(u.host, '[::1]:8443');
  assert.equal(hostnameOf(u), '::1');
  assert.equal(portOf(u), '8443');
  assert.equal(u.path, '/a/b/c');
  assert.equal(escapedPathOf(u), '/a%2Fb/c', 'a valid raw encoding is kept');
  assert.equal(
    escapedPathOf(parseUrl('http://h/a%2Fb/c d')),
    '/a/b/c%20d',
    'an invalid one is re-encoded from the decoded path, as Go does',
  );
  assert.deepEqual(Object.fromEntries(queryOf(u)), { k1: ['a'], k2: ['b', 'c d'] });
  assert.equal(u.fragment, 'frag');
  const plain = parseUrl('https://example.com/path with spaces/');
  assert.equal(escapedPathOf(plain), '/path%20with%20spaces/');
  assert.equal(portOf(plain), '');
  assert.equal(hostnameOf(plain), 'example.com');
  assert.equal(parseUrl('/absolute-path').scheme, '');
});
