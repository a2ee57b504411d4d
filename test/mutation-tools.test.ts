import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './helpers/run-mira.js';

describe('tools/mutation/survivors.mjs', () => {
  it('says in one line to run npm run mutate first when there is no report, exit 1, no stack', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-survivors-'));
    try {
      const missing = join(dir, 'mutation.json');
      const run = spawnSync(process.execPath, [join(REPO_ROOT, 'tools/mutation/survivors.mjs')], {
        env: { ...process.env, MUTATION_REPORT: missing },
        encoding: 'utf8',
      });
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).to.deep.equal({
        status: 1,
        stdout: '',
        stderr: `survivors: no mutation report at ${missing}; run npm run mutate first\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tools/mutation/sample.mjs', () => {
  // Only its arguments here: a sample breaks source files in place for a moment, which the files `npm test` runs
  // beside it would load (it is run by hand, as `npm run mutate` is; docs/development.md).
  const sample = (...args: string[]) =>
    spawnSync(process.execPath, [join(REPO_ROOT, 'tools/mutation/sample.mjs'), ...args], { encoding: 'utf8' });

  it('prints its usage on --help, exit 0', () => {
    const run = sample('--help');
    expect(run.status).to.equal(0);
    expect(run.stdout).to.equal('Usage: node tools/mutation/sample.mjs [--count 12] [--seed <n>]\n');
  });

  it('refuses what is not a whole count or seed, or an option it does not have, with the usage, exit 2', () => {
    for (const args of [
      ['--count', 'twelve'],
      ['--count', '0'],
      ['--seed', '1.5'],
      ['--tests', '3'],
    ]) {
      const run = sample(...args);
      expect(run.status, args.join(' ')).to.equal(2);
      expect(run.stdout, args.join(' ')).to.equal('');
      expect(run.stderr, args.join(' ')).to.match(/^sample: .*\nUsage: node tools\/mutation\/sample\.mjs/);
    }
  });
});
