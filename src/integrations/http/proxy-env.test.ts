import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIp, parseProxyUrl, proxyConfigFromEnv, proxyForUrl, type ProxyEnv } from './proxy-env.js';

function proxied(env: ProxyEnv, target: string): string | undefined {
  return proxyForUrl(proxyConfigFromEnv(env), target)?.href;
}

test('upper case wins over lower case; each scheme uses only its own variable', () => {
  const env = { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1', https_proxy: 'http://secure:3128' };
  assert.equal(proxied(env, 'http://example.com/x'), 'http://upper:1/');
  assert.equal(proxied(env, 'https://example.com/x'), 'http://secure:3128/');
  assert.equal(proxied({ http_proxy: 'http://lower:1' }, 'http://example.com'), 'http://lower:1/');
  // Unlike undici's EnvHttpProxyAgent, HTTPS targets never fall back to HTTP_PROXY.
  assert.equal(proxied({ HTTP_PROXY: 'http://p:1' }, 'https://example.com'), undefined);
  // An empty upper-case value does not hide the lower-case one.
  assert.equal(proxied({ HTTPS_PROXY: '', https_proxy: 'http://l:2' }, 'https://example.com'), 'http://l:2/');
  assert.equal(proxied({}, 'https://example.com'), undefined);
});

test('a proxy value without a scheme means http://', () => {
  assert.equal(parseProxyUrl('proxy.corp:3128')?.href, 'http://proxy.corp:3128/');
  assert.equal(parseProxyUrl('10.0.0.1:3128')?.href, 'http://10.0.0.1:3128/');
  assert.equal(parseProxyUrl('https://proxy.corp')?.href, 'https://proxy.corp/');
  assert.equal(parseProxyUrl('http://user:p%40ss@proxy:8080')?.password, 'p%40ss');
  assert.equal(parseProxyUrl(''), undefined);
});

test('loopback is never proxied', () => {
  const env = { HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://p:1' };
  for (const target of [
    'http://localhost:9090',
    'https://localhost',
    'http://127.0.0.1:80',
    'http://127.9.8.7',
    'http://[::1]:9093',
    'http://[::ffff:127.0.0.1]/',
  ]) {
    assert.equal(proxied(env, target), undefined, target);
  }
  assert.equal(proxied(env, 'http://128.0.0.1'), 'http://p:1/');
  assert.equal(proxied(env, 'http://localhost.example.com'), 'http://p:1/');
});

test('NO_PROXY domains: bare names match themselves and subdomains, dotted and *. ones only subdomains', () => {
  const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'svc.cluster.local, .example.com,*.corp.net,API.Openshift.com' };
  const cases: Array<[string, boolean]> = [
    ['https://svc.cluster.local', false],
    ['https://alertmanager-main.openshift-monitoring.svc.cluster.local:9094', false],
    ['https://xsvc.cluster.local', true],
    ['https://example.com', true],
    ['https://a.example.com', false],
    ['https://corp.net', true],
    ['https://x.corp.net', false],
    ['https://api.openshift.com', false],
    ['https://quay.io', true],
  ];
  for (const [target, viaProxy] of cases) assert.equal(proxied(env, target) !== undefined, viaProxy, target);
});

test('NO_PROXY ports restrict a match to that port (default ports from the scheme)', () => {
  const env = {
    HTTP_PROXY: 'http://p:1',
    HTTPS_PROXY: 'http://p:1',
    NO_PROXY: 'example.com:8443,.internal:80,10.1.2.3:443',
  };
  assert.equal(proxied(env, 'https://example.com:8443'), undefined);
  assert.equal(proxied(env, 'https://example.com'), 'http://p:1/');
  assert.equal(proxied(env, 'http://a.internal'), undefined);
  assert.equal(proxied(env, 'http://a.internal:8080'), 'http://p:1/');
  assert.equal(proxied(env, 'https://10.1.2.3'), undefined);
  assert.equal(proxied(env, 'http://10.1.2.3'), 'http://p:1/');
});

test('NO_PROXY IPs and CIDRs match IP targets, domain entries never do', () => {
  const env = { HTTP_PROXY: 'http://p:1', no_proxy: '10.0.0.0/8,192.168.1.7,fd00::/8,[2001:db8::1]:8080,1.2.3' };
  assert.equal(proxied(env, 'http://10.200.3.4'), undefined);
  assert.equal(proxied(env, 'http://11.0.0.1'), 'http://p:1/');
  assert.equal(proxied(env, 'http://192.168.1.7:9090'), undefined);
  assert.equal(proxied(env, 'http://192.168.1.8'), 'http://p:1/');
  assert.equal(proxied(env, 'http://[fd12:3456::1]'), undefined);
  assert.equal(proxied(env, 'http://[2001:db8::1]:8080'), undefined);
  assert.equal(proxied(env, 'http://[2001:db8::1]:8081'), 'http://p:1/');
  // "1.2.3" is a domain entry (suffix .1.2.3); it does not apply to the IP 4.1.2.3.
  assert.equal(proxied(env, 'http://4.1.2.3'), 'http://p:1/');
});

test('NO_PROXY=* disables the proxy; blank and malformed entries are skipped', () => {
  assert.equal(proxied({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'foo, *' }, 'https://anything.example'), undefined);
  assert.equal(
    proxied({ HTTPS_PROXY: 'http://p:1', NO_PROXY: ' , :80, [::1' }, 'https://anything.example'),
    'http://p:1/',
  );
});

test('parseIp holds IPv4 in its IPv4-mapped form, like Go', () => {
  assert.deepEqual(parseIp('1.2.3.4'), parseIp('::ffff:1.2.3.4'));
  assert.deepEqual([...parseIp('2001:db8::1')!], [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIp('example.com'), undefined);
  assert.equal(parseIp('1.2.3'), undefined);
});
