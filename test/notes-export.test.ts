import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { linkSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import notesPlugin from '@mira/plugin-notes';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('notes export never destroys a file it did not create (real SQLite files)', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  let memoryDb: string;
  beforeEach(async () => {
    rt = await createTestRuntime({
      plugins: [memoryPlugin, notesPlugin],
      tables: {
        memory: { enabled: true, database_path: 'data/mira-memory.sqlite3' },
        notes: { enabled: true, database_path: 'data/mira-notes.sqlite3' },
      },
    });
    memoryDb = join(rt.dir, 'data', 'mira-memory.sqlite3');
    expect((await rt.run('memory entity add person "Ada Lovelace"')).ok).to.equal(true);
    expect((await rt.run('notes save "The dock is behind the sofa"')).ok).to.equal(true);
  });
  afterEach(async () => {
    await rt.dispose();
  });

  for (const [what, target] of [
    ['the live memory database', 'data/mira-memory.sqlite3'],
    ['the live notes database', 'data/mira-notes.sqlite3'],
    ["the memory database's WAL", 'data/mira-memory.sqlite3-wal'],
  ] as const) {
    it(`refuses a mistyped export over ${what}, with or without --force, and the database is byte-identical`, async () => {
      const file = join(rt.dir, target);
      const before = sha256(file);
      for (const line of [`notes export ${target}`, `notes export ${target} --force`]) {
        const { ok, output } = await rt.run(line);
        expect(ok).to.equal(false);
        expect(output[0]).to.match(
          line.endsWith('--force')
            ? /^error: MIRA_ERR_FILE_IS_STORE: .* which a store of this runtime has open; nothing was written \(--force never replaces a store\)$/
            : /^error: MIRA_ERR_FILE_(IS_STORE|EXISTS): /,
        );
      }
      expect(sha256(file)).to.equal(before);
      // The console still works on both stores.
      expect((await rt.run('memory find "Ada Lovelace"')).output.join('\n')).to.contain('ENT1');
      expect((await rt.run('notes search "sofa"')).output.join('\n')).to.contain('N1');
      expect(readdirSync(join(rt.dir, 'data')).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
    });
  }

  it('refuses the database under another name (a hard link, a symlink, a path with ..), even with --force', async () => {
    const before = sha256(memoryDb);
    linkSync(memoryDb, join(rt.dir, 'hard.sqlite3'));
    symlinkSync(memoryDb, join(rt.dir, 'soft.sqlite3'));
    for (const name of ['hard.sqlite3', 'soft.sqlite3', 'data/../data/mira-memory.sqlite3']) {
      const { ok, output } = await rt.run(`notes export ${name} --force`);
      expect(ok, name).to.equal(false);
      expect(output[0]).to.match(/^error: MIRA_ERR_FILE_IS_STORE: /);
    }
    expect(sha256(memoryDb)).to.equal(before);
  });

  it('refuses an existing file without --force and replaces it whole with --force', async () => {
    const path = join(rt.dir, 'backup.json');
    writeFileSync(path, 'keep me');
    const refused = await rt.run('notes export backup.json');
    expect(refused).to.deep.include({ ok: false });
    expect(refused.output[0]).to.equal(
      `error: MIRA_ERR_FILE_EXISTS: ${path} exists already; nothing was written (choose another file, or give --force to replace it)`,
    );
    expect(readFileSync(path, 'utf8')).to.equal('keep me');
    expect((await rt.run('notes export backup.json --force')).output[0]).to.equal(
      `exported 1 notes of scope "default" to ${path}`,
    );
    expect(JSON.parse(readFileSync(path, 'utf8')).notes[0].content).to.equal('The dock is behind the sofa');
    expect(readdirSync(rt.dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('writes a new export owner-only (0600)', async () => {
    expect((await rt.run('notes export fresh.json')).ok).to.equal(true);
    expect(statSync(join(rt.dir, 'fresh.json')).mode & 0o777).to.equal(0o600);
  });

  it('refuses an invalid scope before any file is written', async () => {
    const { ok, output } = await rt.run('notes export x.json --scope "Not A Scope"');
    expect(ok).to.equal(false);
    expect(output[0]).to.match(/^error: MIRA_ERR_NOTES_SCOPE_INVALID: scope "Not A Scope" is not a scope name/);
    expect(readdirSync(rt.dir)).to.not.include('x.json');
  });

  it('says which file and why when it cannot write, leaving nothing behind', async () => {
    const missing = await rt.run('notes export no/such/dir/x.json');
    expect(missing.output[0]).to.match(
      /^error: MIRA_ERR_FILE_WRITE_FAILED: cannot write .*no\/such\/dir\/x\.json: ENOENT/,
    );
    const directory = await rt.run('notes export data --force');
    expect(directory.output[0]).to.match(
      /^error: MIRA_ERR_FILE_WRITE_FAILED: .*data is not a regular file; nothing was written$/,
    );
  });
});
