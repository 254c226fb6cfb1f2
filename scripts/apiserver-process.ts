/**
 * `upgrade-operator apiserver` in a process of its own, for `scripts/rehearse-external.ts` and the
 * tests that run the simulated cluster against an external API server: on the wall clock,
 * terminating pods waiting for a kubelet (as on a kube-apiserver with no kubelet behind the
 * simulated Nodes), its kubeconfig in `dir`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ApiServerProcess {
  child: ChildProcess;
  url: string;
  kubeconfig: string;
}

/** Starts the server on a free loopback port; resolves once its kubeconfig (`<dir>/<name>.kubeconfig`) is written. */
export function startApiServerProcess(dir: string, name: string): Promise<ApiServerProcess> {
  const kubeconfig = join(dir, `${name}.kubeconfig`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/main.ts',
      'apiserver',
      '--port',
      '0',
      '--pod-termination',
      'kubelet',
      '--log-level',
      'warn',
      '--kubeconfig-out',
      kubeconfig,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => void (err += c.toString()));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /API server listening on (\S+)/.exec(out)?.[1];
      if (url && out.includes('kubeconfig written')) resolve({ child, url, kubeconfig });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`apiserver ${name} exited with ${code}: ${err}`)));
  });
}

/** Stops the server (SIGTERM) and waits for it to exit. */
export async function stopApiServerProcess(s: ApiServerProcess): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((resolve) => s.child.once('exit', resolve));
  s.child.kill('SIGTERM');
  await exited;
}
