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
