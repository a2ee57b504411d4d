import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'smol-toml';
import { MIRA_BIN, REPO_ROOT } from './helpers/run-mira.js';

/**
 * The start-up window: a real `mira run` is signalled 0, 50, 200 and 800 ms after it was spawned. A test
 * plugin makes the set-up last 2 s, so 200 and 800 ms always land while Mira is starting, on any machine.
 * Before Mira's first line runs (Node's own start, about 50–60 ms here), a signal finds Node's handlers:
 * SIGTERM, SIGHUP and SIGINT end the process by the signal, SIGUSR1 before Node's set-up ends it and after
 * it opens the inspector — which Mira closes on its first line. Every case is said and checked either way.
 */

const SLOW_START = fileURLToPath(new URL('./fixtures/slow-start/index.js', import.meta.url));
const DELAYS = [0, 50, 200, 800] as const;
/** From this delay on, Mira's own first line has surely run (Node starts in ~60 ms; the set-up lasts 2 s). */
const SURELY_MIRA_MS = 200;

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Every process a test started: one left running by a failed assertion is killed after the test. */
const runs: Run[] = [];

class Run {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  readonly ended: Promise<Ended>;
  readonly spawnedAt = Date.now();
  constructor(dir: string, nodeArgs: readonly string[] = []) {
    this.child = spawn(process.execPath, [...nodeArgs, MIRA_BIN, 'run', '--profile', dir], { cwd: REPO_ROOT });
    runs.push(this);
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.ended = new Promise((resolve) =>
      this.child.on('close', (code, signal) => resolve({ code, signal, stderr: this.stderr })),
    );
  }
  async until(text: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!this.stderr.includes(text)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null || Date.now() > deadline)
        throw new Error(`waiting for "${text}"; stderr:\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether Mira's first line has run in process `pid`: its guard catches SIGHUP, which Node itself leaves
 * to the default (the SigCgt mask of /proc/<pid>/status, bit 0).
 */
function miraGuards(pid: number): boolean {
  const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return mask !== undefined && (BigInt(`0x${mask}`) & 1n) === 1n;
}

/**
 * Waits `ms` after the spawn, then says whether Mira's own first line has run. From {@link SURELY_MIRA_MS}
 * on it waits for that line (Node's own start takes longer on a loaded machine), so those delays always
 * signal Mira, never Node.
 */
async function signalMoment(run: Run, ms: number): Promise<{ mira: boolean; at: number }> {
  await sleep(ms - (Date.now() - run.spawnedAt));
  if (ms >= SURELY_MIRA_MS) while (!miraGuards(run.child.pid!)) await sleep(1);
  return { mira: miraGuards(run.child.pid!), at: Date.now() - run.spawnedAt };
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts a connection on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('the start-up window: signals are handled from the first line (real mira run)', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-start-up-'));
  });
  afterEach(async () => {
    for (const run of runs.splice(0)) {
      run.child.kill('SIGKILL');
      await run.ended;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const profile = (slowStart: { setup_ms?: number; start_ms?: number }) =>
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-sim', '@mira/plugin-memory', SLOW_START] },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        slow_start: slowStart,
      }),
    );
  const noTrace = (ended: Ended) => expect(ended.stderr, ended.stderr).not.to.match(/^\s+at /m);

  for (const [signal, status] of [
    ['SIGTERM', 0],
    ['SIGHUP', 129],
    ['SIGINT', 0],
  ] as const) {
    it(`${signal} at ${DELAYS.join(', ')} ms: exit ${status} before anything is opened, no trace`, async function () {
      profile({ setup_ms: 2000 });
      const seen: string[] = [];
      for (const ms of DELAYS) {
        const run = new Run(dir);
        const moment = await signalMoment(run, ms);
        run.child.kill(signal);
        const ended = await run.ended;
        noTrace(ended);
        // Nothing was opened: the store file was never created.
        expect(readdirSync(dir), `${ms} ms`).to.deep.equal(['profile.toml']);
        if (ended.signal === signal && !moment.mira) {
          // Node's own start, before Mira's first line: Node's default, with nothing said and nothing opened.
          expect(ended.stderr, `${ms} ms`).to.equal('');
          seen.push(`${ms}: Node's default`);
          continue;
        }
        expect({ ms, code: ended.code, signal: ended.signal }).to.deep.equal({ ms, code: status, signal: null });
        expect(ended.stderr).to.contain(
          `mira: ${signal} received during start-up; ending it before anything is opened`,
        );
        seen.push(`${ms}: exit ${status}${moment.at > ms + 20 ? ` (at ${moment.at} ms, once Mira ran)` : ''}`);
      }
      this.test!.title += ` (${seen.join('; ')})`;
    });
  }

  it(`SIGUSR1 at ${DELAYS.join(', ')} ms: the inspector never stays open, Mira runs on`, async function () {
    profile({ setup_ms: 2000 });
    const seen: string[] = [];
    for (const ms of DELAYS) {
      // Node opens a SIGUSR1's inspector on --inspect-port (not a request for the inspector): a port of
      // this test's own, so no other process on the machine answers for it.
      const port = await freePort();
      const run = new Run(dir, [`--inspect-port=${port}`]);
      const moment = await signalMoment(run, ms);
      run.child.kill('SIGUSR1');
      const killed = await Promise.race([run.ended, run.until('running headless').then(() => undefined)]);
      if (killed) {
        // Before Node had set its own handler up: the kernel's default ended it, with nothing said.
        expect({ ms, ...killed }).to.deep.equal({ ms, code: null, signal: 'SIGUSR1', stderr: '' });
        expect(moment.mira).to.equal(false);
        seen.push(`${ms}: ended before Node ran`);
        continue;
      }
      expect(await listening(port), `${ms} ms: inspector port\n${run.stderr}`).to.equal(false);
      if (run.stderr.includes('Debugger listening')) {
        // During Node's own start, before Mira's first line: opened by Node, closed by Mira at once.
        expect(moment.mira, run.stderr).to.equal(false);
        expect(run.stderr).to.contain(
          'mira: the Node inspector, opened by a SIGUSR1 before Mira was running, is closed',
        );
        seen.push(`${ms}: opened by Node, closed`);
      } else {
        expect(run.stderr).to.contain('mira: SIGUSR1 ignored: the Node inspector opens only when asked for');
        seen.push(`${ms}: ignored`);
      }
      run.child.kill('SIGTERM');
      const ended = await run.ended;
      expect(ended.code, ended.stderr).to.equal(0);
      noTrace(ended);
    }
    this.test!.title += ` (${seen.join('; ')})`;
  });

  it('SIGTERM while the plugins start: the process guard has it, the stores close in order, exit 0', async () => {
    profile({ start_ms: 1500 });
    const run = new Run(dir);
    await run.until('slow-start: starting');
    run.child.kill('SIGTERM');
    const ended = await run.ended;
    expect(ended.code, ended.stderr).to.equal(0);
    noTrace(ended);
    expect(ended.stderr).to.contain('mira: SIGTERM received; stopping the robot, then shutting down');
    expect(ended.stderr).to.contain('slow-start: stopped');
    expect(ended.stderr).not.to.contain('running headless');
    // The store was opened, then closed: no write-ahead log left beside it.
    expect(existsSync(join(dir, 'memory.sqlite3'))).to.equal(true);
    expect(readdirSync(dir).sort()).to.deep.equal(['memory.sqlite3', 'profile.toml']);
  });
});
