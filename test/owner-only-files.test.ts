import { expect } from 'chai';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isMiraError, type MiraError } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { SqliteErrorCodes } from '@mira/sqlite';
import { runMira } from './helpers/run-mira.js';

type Kind = 'memory' | 'notes';
/** Opens the store of `kind` at `path`, its operator lines into `lines`. */
const STORES: Record<Kind, (path: string, lines: string[]) => { close(): unknown }> = {
  memory: (path, lines) => SqliteMemoryStore.open(path, { log: (line) => lines.push(line) }),
  notes: (path, lines) => SqliteNotesStore.open(path, { log: (line) => lines.push(line) }),
};
const OTHER: Record<Kind, Kind> = { memory: 'notes', notes: 'memory' };

const mode = (path: string) => statSync(path).mode & 0o777;
const listing = (dir: string) => readdirSync(dir).sort();

function openError(kind: Kind, path: string): MiraError {
  try {
    STORES[kind](path, []).close();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error(`expected the ${kind} store to refuse ${path}`);
}

for (const kind of ['memory', 'notes'] as const) {
  describe(`${kind} store: every file it opens for writing is its owner's only`, () => {
    let dir: string;
    let path: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), `mira-owner-${kind}-`));
      path = join(dir, `${kind}.sqlite3`);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('tightens an empty 0644 file it adopts as a new store to 0600, saying so in one line', () => {
      writeFileSync(path, '', { mode: 0o644 });
      chmodSync(path, 0o644);
      const lines: string[] = [];
      const store = STORES[kind](path, lines);
      try {
        expect(mode(path)).to.equal(0o600);
        for (const side of ['-wal', '-shm']) expect(mode(`${path}${side}`), side).to.equal(0o600);
      } finally {
        store.close();
      }
      expect(lines).to.deep.equal([
        `${kind}: made owner-only (chmod 600) what group or others could read: ${path} (was 0644)`,
      ]);
      // Owner-only already: nothing to say the next time.
      const again: string[] = [];
      STORES[kind](path, again).close();
      expect(again).to.deep.equal([]);
    });

    it('tightens an existing store and the -wal and -shm beside it, in one line naming each', () => {
      STORES[kind](path, []).close();
      chmodSync(path, 0o644);
      // A connection holds the store open: its -wal and -shm take the file's mode, 0644.
      const other = new Database(path);
      try {
        other.pragma('journal_mode = WAL');
        for (const side of ['-wal', '-shm']) chmodSync(`${path}${side}`, side === '-wal' ? 0o640 : 0o604);
        const lines: string[] = [];
        STORES[kind](path, lines).close();
        expect(lines).to.deep.equal([
          `${kind}: made owner-only (chmod 600) what group or others could read: ${path} (was 0644), ${path}-wal (was 0640), ${path}-shm (was 0604)`,
        ]);
        expect([path, `${path}-wal`, `${path}-shm`].map(mode)).to.deep.equal([0o600, 0o600, 0o600]);
      } finally {
        other.close();
      }
    });

    it('refuses a dangling symbolic link and creates nothing, there or at its target', () => {
      symlinkSync(join(dir, 'sub', 'elsewhere.sqlite3'), path);
      const before = listing(dir);
      const error = openError(kind, path);
      expect(error.code, error.message).to.equal(SqliteErrorCodes.SYMLINK);
      expect(error.message).to.contain(`${path} is a symbolic link to ${join(dir, 'sub', 'elsewhere.sqlite3')}`);
      expect(error.message).to.contain('which does not exist');
      expect(listing(dir)).to.deep.equal(before);
      // A link to a missing file in an existing directory: its target is not created either.
      rmSync(path);
      symlinkSync(join(dir, 'target.sqlite3'), path);
      expect(openError(kind, path).code).to.equal(SqliteErrorCodes.SYMLINK);
      expect(existsSync(join(dir, 'target.sqlite3'))).to.equal(false);
      expect(listing(dir)).to.deep.equal([`${kind}.sqlite3`]);
    });

    it('refuses a link to an empty file or to the other store, changing neither', () => {
      writeFileSync(join(dir, 'empty'), '');
      chmodSync(join(dir, 'empty'), 0o644);
      symlinkSync(join(dir, 'empty'), path);
      const empty = openError(kind, path);
      expect(empty.code, empty.message).to.equal(SqliteErrorCodes.SYMLINK);
      expect(empty.message).to.contain('an empty file, no store yet');
      expect(mode(join(dir, 'empty'))).to.equal(0o644);
      rmSync(path);
      STORES[OTHER[kind]](join(dir, 'other.sqlite3'), []).close();
      symlinkSync(join(dir, 'other.sqlite3'), path);
      const other = openError(kind, path);
      expect(other.code, other.message).to.equal(SqliteErrorCodes.SYMLINK);
      expect((other.cause as MiraError).code).to.equal('MIRA_ERR_STORE_NOT_MIRA');
      expect(listing(dir)).to.deep.equal(['empty', `${kind}.sqlite3`, 'other.sqlite3']);
    });

    it('follows a link to an existing store of its kind, keeping its side files beside the target, 0600', () => {
      const target = join(dir, 'real.sqlite3');
      STORES[kind](target, []).close();
      chmodSync(target, 0o644);
      symlinkSync(target, path);
      const lines: string[] = [];
      const store = STORES[kind](path, lines);
      try {
        expect(lstatSync(path).isSymbolicLink()).to.equal(true);
        expect(mode(target)).to.equal(0o600);
        for (const side of ['-wal', '-shm']) {
          expect(mode(`${target}${side}`), side).to.equal(0o600);
          expect(existsSync(`${path}${side}`), side).to.equal(false);
        }
      } finally {
        store.close();
      }
      expect(lines).to.deep.equal([
        `${kind}: made owner-only (chmod 600) what group or others could read: ${target} (was 0644)`,
      ]);
    });

    it('refuses a -shm that is a symbolic link, and leaves the file it points to as it was', () => {
      STORES[kind](path, []).close();
      const victim = join(dir, 'victim');
      writeFileSync(victim, 'someone else’s file');
      chmodSync(victim, 0o644);
      symlinkSync(victim, `${path}-shm`);
      const error = openError(kind, path);
      expect(error.code, error.message).to.equal(SqliteErrorCodes.SYMLINK);
      expect(error.message).to.contain(`${path}-shm is a symbolic link`);
      expect(mode(victim)).to.equal(0o644);
      expect(lstatSync(`${path}-shm`).isSymbolicLink()).to.equal(true);
    });
  });
}

describe('a store tightened at start-up is said on stderr', function () {
  this.timeout(30_000);
  it('prints one line naming the files it made owner-only, and the next start prints none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-owner-cli-'));
    try {
      writeFileSync(
        join(dir, 'profile.toml'),
        '[profile]\nname = "Mira"\nplugins = ["@mira/plugin-memory", "@mira/plugin-notes"]\n\n[memory]\nenabled = true\ndatabase_path = "memory.sqlite3"\n\n[notes]\nenabled = true\ndatabase_path = "notes.sqlite3"\n',
      );
      const path = join(dir, 'memory.sqlite3');
      const notes = join(dir, 'notes.sqlite3');
      SqliteMemoryStore.open(path).close();
      SqliteNotesStore.open(notes).close();
      chmodSync(path, 0o644);
      chmodSync(notes, 0o640);
      const first = await runMira(['--profile', dir], 'quit\n', { timeoutMs: 15_000 });
      expect(first.code, first.stderr).to.equal(0);
      expect(first.stderr.split('\n').filter((l) => l.includes('owner-only'))).to.deep.equal([
        `mira: warning: memory: made owner-only (chmod 600) what group or others could read: ${path} (was 0644)`,
        `mira: notes: made owner-only (chmod 600) what group or others could read: ${notes} (was 0640)`,
      ]);
      expect([mode(path), mode(notes)]).to.deep.equal([0o600, 0o600]);
      const again = await runMira(['--profile', dir], 'quit\n', { timeoutMs: 15_000 });
      expect(again.stderr).not.to.contain('owner-only');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
