import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WRITER = fileURLToPath(new URL('../fixtures/memory-writer.js', import.meta.url));

/**
 * Starts a writer process on `database` (an SQLite file or a `postgres://` URL); `acked` fills with
 * every memory ID it printed, each printed only once `createMemory` resolved.
 */
export function startWriter(database: string, label: string, count: number | 'forever', a: number, b: number) {
  const child = spawn(process.execPath, [WRITER, database, label, String(count), String(a), String(b)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked: number[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) acked.push(Number(line));
  });
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, acked, exited, stderr: () => stderr };
}

/** Waits until the writer acknowledged `target` writes, then kills it with SIGKILL; resolves to the signal. */
export async function killAfter(
  writer: ReturnType<typeof startWriter>,
  target: number,
): Promise<NodeJS.Signals | null> {
  while (writer.acked.length < target) {
    const state = await Promise.race([
      writer.exited.then(() => 'exited'),
      new Promise((r) => setTimeout(() => r('wait'), 5)),
    ]);
    if (state === 'exited') throw new Error(`writer exited early: ${writer.stderr()}`);
  }
  writer.child.kill('SIGKILL');
  return (await writer.exited).signal;
}
