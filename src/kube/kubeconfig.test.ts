import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ManualClock } from '../lib/clock.js';
import { kubeconfigPaths, loadRestConfig, mergeKubeconfigs, restConfigFromKubeconfig } from './kubeconfig.js';
import { loadInClusterConfig } from './in-cluster-config.js';
import { parseExecCredential } from './exec-credential.js';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

void test('KUBECONFIG files merge with the first definition and current-context winning; paths resolve per file', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  writeFileSync(join(dir, 'a', 'ca.pem'), 'CA-A');
  writeFileSync(
    join(dir, 'a', 'config'),
    `
apiVersion: v1
kind: Config
current-context: first
contexts:
- name: first
  context: { cluster: c1, user: u1, namespace: team }
clusters:
- name: c1
  cluster: { server: "https://one.example:6443/", certificate-authority: ca.pem, tls-server-name: api.one, proxy-url: "http://proxy:3128" }
users:
- name: u1
  user: { token: tok-a }
`,
  );
  writeFileSync(
    join(dir, 'b', 'config'),
    `
current-context: second
contexts:
- name: first
  context: { cluster: ignored, user: ignored }
- name: second
  context: { cluster: c2, user: u2 }
clusters:
- name: c1
  cluster: { server: "https://ignored" }
- name: c2
  cluster: { server: "https://two.example", insecure-skip-tls-verify: true }
users:
- name: u2
  user: { username: admin, password: secret }
`,
  );
  const env = {
    KUBECONFIG: [join(dir, 'a', 'config'), join(dir, 'missing'), join(dir, 'b', 'config')].join(delimiter),
  };
  assert.deepEqual(kubeconfigPaths({ env }), [join(dir, 'a', 'config'), join(dir, 'b', 'config')]);
  const clock = new ManualClock();
  const c = loadRestConfig({ env, clock });
  assert.equal(c.server, 'https://one.example:6443');
  assert.equal(c.ca, 'CA-A');
  assert.equal(c.servername, 'api.one');
  assert.equal(c.proxyUrl, 'http://proxy:3128');
  assert.equal(c.namespace, 'team');
  assert.equal(c.insecureSkipTLSVerify, false);
  return Promise.all([
    c.auth().then((h) => assert.equal(h, 'Bearer tok-a')),
    (async () => {
      const c2 = loadRestConfig({ env, clock, context: 'second' });
      assert.equal(c2.server, 'https://two.example');
      assert.equal(c2.insecureSkipTLSVerify, true);
      assert.equal(c2.namespace, 'default');
      assert.equal(await c2.auth(), `Basic ${b64('admin:secret')}`);
    })(),
  ]).then(() => {
    assert.throws(() => loadRestConfig({ env, clock, context: 'nope' }), /context "nope" does not exist/);
  });
});

void test('inline data wins over files; client certificates need both halves', () => {
  const kc = mergeKubeconfigs([
    {
      path: '/nonexistent/config',
      text: `
current-context: x
contexts: [{ name: x, context: { cluster: c, user: u } }, { name: half, context: { cluster: c, user: h } }]
clusters: [{ name: c, cluster: { server: "https://s", certificate-authority-data: ${b64('CA')}, certificate-authority: /does/not/exist } }]
users:
- { name: u, user: { client-certificate-data: ${b64('CERT')}, client-key-data: ${b64('KEY')} } }
- { name: h, user: { client-certificate-data: ${b64('CERT')} } }
`,
    },
  ]);
  const clock = new ManualClock();
  const c = restConfigFromKubeconfig(kc, { clock });
  assert.equal(c.ca, 'CA');
  assert.equal(c.cert, 'CERT');
  assert.equal(c.key, 'KEY');
  assert.throws(() => restConfigFromKubeconfig(kc, { clock, context: 'half' }), /must be given together/);
});

void test('tokenFile is re-read at most every 60 s on the clock', async (t) => {
  const dir = tempDir(t);
  const tokenPath = join(dir, 'token');
  writeFileSync(tokenPath, 'one\n');
  writeFileSync(
    join(dir, 'config'),
    `current-context: x
contexts: [{ name: x, context: { cluster: c, user: u } }]
clusters: [{ name: c, cluster: { server: "https://s" } }]
users: [{ name: u, user: { tokenFile: token, token: static } }]
`,
  );
  const clock = new ManualClock();
  const c = loadRestConfig({ kubeconfig: join(dir, 'config'), clock });
  assert.equal(await c.auth(), 'Bearer one');
  writeFileSync(tokenPath, 'two\n');
  await clock.advance(59_999);
  assert.equal(await c.auth(), 'Bearer one');
  await clock.advance(1);
  assert.equal(await c.auth(), 'Bearer two');
});

void test('exec plugin: runs with args, env and KUBERNETES_EXEC_INFO, caches until expiry, re-runs after invalidation', async (t) => {
  const dir = tempDir(t);
  const counter = join(dir, 'runs');
  const script = join(dir, 'plugin.mjs');
  writeFileSync(
    script,
    `#!${process.execPath}
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
const n = existsSync(${JSON.stringify(counter)}) ? Number(readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1 : 1;
writeFileSync(${JSON.stringify(counter)}, String(n));
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
const token = [process.argv[2], process.env.PLUGIN_SUFFIX, n, info.spec.cluster?.server ?? 'no-cluster', String(info.spec.interactive)].join('-');
process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token, expirationTimestamp: '2026-01-01T01:00:00Z' } }));
`,
  );
  chmodSync(script, 0o755);
  writeFileSync(
    join(dir, 'config'),
    `current-context: x
contexts: [{ name: x, context: { cluster: c, user: u } }]
clusters: [{ name: c, cluster: { server: "https://exec.example" } }]
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./plugin.mjs
      args: [tok]
      env: [{ name: PLUGIN_SUFFIX, value: sfx }]
      provideClusterInfo: true
      interactiveMode: Never
`,
  );
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const c = loadRestConfig({ kubeconfig: join(dir, 'config'), clock });
  assert.equal(await c.auth(), 'Bearer tok-sfx-1-https://exec.example-false');
  assert.equal(await c.auth(), 'Bearer tok-sfx-1-https://exec.example-false', 'cached');
  await clock.advance(60 * 60_000);
  assert.equal(await c.auth(), 'Bearer tok-sfx-2-https://exec.example-false', 'expired: re-run');
  c.invalidateAuth?.();
  assert.equal(await c.auth(), 'Bearer tok-sfx-3-https://exec.example-false', 'after a 401: re-run');
});

void test('parseExecCredential rejects bad output', () => {
  const v1 = 'client.authentication.k8s.io/v1';
  assert.throws(() => parseExecCredential('nope', v1), /not JSON/);
  assert.throws(
    () =>
      parseExecCredential(
        JSON.stringify({
          kind: 'ExecCredential',
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          status: { token: 't' },
        }),
        v1,
      ),
    /does not match/,
  );
  assert.throws(
    () => parseExecCredential(JSON.stringify({ kind: 'ExecCredential', apiVersion: v1, status: {} }), v1),
    /token is missing/,
  );
  assert.deepEqual(
    parseExecCredential(JSON.stringify({ kind: 'ExecCredential', apiVersion: v1, status: { token: 't' } }), v1),
    { token: 't', expiresAt: undefined },
  );
});

void test('in-cluster config: service variables, bracketed IPv6, service-account files', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'token'), 'sa-token');
  writeFileSync(join(dir, 'ca.crt'), 'SA-CA');
  writeFileSync(join(dir, 'namespace'), 'operators\n');
  const clock = new ManualClock();
  const c = loadInClusterConfig({
    clock,
    serviceAccountDir: dir,
    env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
  });
  assert.equal(c.server, 'https://[fd00::1]:443');
  assert.equal(c.ca, 'SA-CA');
  assert.equal(c.namespace, 'operators');
  assert.equal(await c.auth(), 'Bearer sa-token');
  assert.throws(() => loadInClusterConfig({ clock, serviceAccountDir: dir, env: {} }), /KUBERNETES_SERVICE_HOST/);
  // Without any kubeconfig, loadRestConfig falls back to in-cluster.
  const home = tempDir(t);
  const fallback = loadRestConfig({
    clock,
    homeDir: home,
    serviceAccountDir: dir,
    env: { HOME: home, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '6443' },
  });
  assert.equal(fallback.server, 'https://10.0.0.1:6443');
  assert.throws(
    () => loadRestConfig({ clock, homeDir: home, serviceAccountDir: join(dir, 'none'), env: { HOME: home } }),
    /no configuration/,
  );
});

void test('a kubeconfig in JSON reads as its YAML twin; a broken one names its file', () => {
  const yamlText = `apiVersion: v1
current-context: c
contexts: [{ name: c, context: { cluster: k, user: u, namespace: ops } }]
clusters: [{ name: k, cluster: { server: "https://api.example:6443", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: t0k3n } }]
`;
  const jsonText = JSON.stringify({
    apiVersion: 'v1',
    'current-context': 'c',
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'u', namespace: 'ops' } }],
    clusters: [{ name: 'k', cluster: { server: 'https://api.example:6443', 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'u', user: { token: 't0k3n' } }],
  });
  const fromYaml = mergeKubeconfigs([{ path: '/k/yaml', text: yamlText }]);
  const fromJson = mergeKubeconfigs([{ path: '/k/json', text: `  ${jsonText}` }]);
  assert.deepEqual(fromJson, fromYaml);
  assert.throws(
    () => mergeKubeconfigs([{ path: '/k/broken.json', text: '{"clusters": [' }]),
    /error loading config file "\/k\/broken\.json"/,
  );
});
