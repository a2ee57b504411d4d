import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The `mira` bin as installed by the workspace. */
export const MIRA_BIN = fileURLToPath(new URL('../../core/bin/mira.js', import.meta.url));

export interface MiraRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `mira` CLI in a child process, feeding `input` on stdin (not a TTY). */
export function runMira(
  args: readonly string[],
  input = '',
  options: { cwd?: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number; timeoutMs?: number } = {},
): Promise<MiraRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MIRA_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      uid: options.uid,
      gid: options.gid,
    });
    // A run that hangs is killed and shows up as signal SIGKILL, so the test fails instead of hanging.
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
