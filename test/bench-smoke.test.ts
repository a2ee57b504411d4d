import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCHES } from '../bench/lib/benches.js';
import { postgresUnavailable } from './helpers/postgres.js';
import { REPO_ROOT } from './helpers/run-mira.js';

describe('benchmarks: a smoke pass of every one (tiny sizes, no figure asserted)', function () {
  this.timeout(600_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-bench-smoke-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each benchmark at HEAD to its results, so a schema or API change cannot break one silently', async () => {
    const results = join(REPO_ROOT, 'bench', 'results');
    const committed = () => readdirSync(results).map((f) => `${f} ${statSync(join(results, f)).mtimeMs}`);
    const before = committed();
    const run = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke'], {
        cwd: REPO_ROOT,
        env: { ...process.env, MIRA_BENCH_RESULTS: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.on('data', (d) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr, stdout }));
    });
    expect(run.code, run.stderr.slice(-4000)).to.equal(0);
    const written = new Set(readdirSync(dir));
    const expected = BENCHES.filter((name) => name !== 'fleet' || !postgresUnavailable());
    expect(expected.filter((name) => !written.has(`${name}.md`))).to.deep.equal([]);
    // The committed results are not touched by a smoke run.
    expect(committed()).to.deep.equal(before);
  });

  it('lists exactly these benchmarks in --help', async () => {
    const help = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--help'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(help).to.contain(`--only=<name>   one benchmark: ${BENCHES.join(', ')}`);
    expect(help).to.contain('--smoke');
  });
});
