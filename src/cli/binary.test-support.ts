/**
 * Runs the real `upgrade-operator` entry (`src/main.ts` under tsx) as a child process, for the
 * tests that check a command's exit code and output as a user would see them.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What the process wrote and how it ended. */
export interface BinaryResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `upgrade-operator <args>` from the repository root with the extra environment given. */
export function runBinary(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<BinaryResult> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
