import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { isMiraError, type MiraError } from '@mira/core';
import { createTestRuntime } from '@mira/core/testing';
import memoryPlugin, { MEMORY_SCHEMA, SqliteMemoryStore } from '@mira/plugin-memory';
import notesPlugin, { NOTES_SCHEMA, SqliteNotesStore } from '@mira/plugin-notes';
import { MIRA_APPLICATION_IDS, ensureParentDirectory } from '@mira/sqlite';
import { MIRA_BIN, REPO_ROOT, runMira } from './helpers/run-mira.js';

const NOBODY = { uid: 65534, gid: 65534 };
/**
 * Run as root, these checks run mira as an unprivileged user (root writes anywhere). That user must be
 * able to run the checkout: a clone inside a private (0700) directory is not readable to it, and then
 * the check cannot be made here. Undefined when it can; otherwise why not.
 */
function whyUnprivilegedCannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync(
    process.execPath,
    ['-e', 'require("fs").accessSync(process.argv[1], require("fs").constants.R_OK)', MIRA_BIN],
    {
      ...NOBODY,
      cwd: tmpdir(),
    },
  );
  return probe.status === 0
    ? undefined
    : `the unprivileged user (uid ${NOBODY.uid}) cannot read ${MIRA_BIN}: the checkout is in a directory only root can enter`;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const listing = (dir: string) => readdirSync(dir).sort();

type Kind = 'memory' | 'notes';
const STORES: Record<Kind, { open(path: string): { close(): unknown }; other: Kind; version: number }> = {
  memory: { open: (path) => SqliteMemoryStore.open(path), other: 'notes', version: MEMORY_SCHEMA.version },
  notes: { open: (path) => SqliteNotesStore.open(path), other: 'memory', version: NOTES_SCHEMA.version },
};

function sqlite(path: string, sql: string, pragmas: string[] = []): void {
  const db = new Database(path);
  for (const pragma of pragmas) db.pragma(pragma);
  db.exec(sql);
  db.close();
}

/** A foreign, damaged or special file, what it must be refused with, and what the message says. */
interface Case {
  readonly what: string;
  readonly make: (path: string, dir: string, kind: Kind) => void;
  readonly code: string;
  readonly says?: RegExp;
  /** Not a regular file: compare the listing only. */
  readonly special?: boolean;
}

const OUR_TABLES: Record<Kind, string> = {
  memory:
    'CREATE TABLE entities (id INTEGER PRIMARY KEY); CREATE TABLE aliases (id INTEGER PRIMARY KEY); CREATE TABLE memories (id INTEGER PRIMARY KEY); CREATE TABLE memory_links (id INTEGER); CREATE TABLE payloads (id INTEGER)',
  notes:
    'CREATE TABLE scopes (id INTEGER PRIMARY KEY); CREATE TABLE notes (id INTEGER PRIMARY KEY); CREATE TABLE note_labels (id INTEGER); CREATE TABLE meta (k TEXT); CREATE TABLE notes_fts (x TEXT)',
};

const CASES: Case[] = [
  {
    what: 'a text file',
    make: (p) => writeFileSync(p, 'these are my notes, not a database\n'.repeat(10)),
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
  },
  {
    what: 'a short binary file',
    make: (p) => writeFileSync(p, Buffer.from([0, 1, 2, 3])),
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
  },
  { what: '4 KiB of zeros', make: (p) => writeFileSync(p, Buffer.alloc(4096)), code: 'MIRA_ERR_STORE_NOT_SQLITE' },
  {
    what: 'an SQLite magic string followed by garbage',
    make: (p) =>
      writeFileSync(p, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4096, 0xab)])),
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
  },
  {
    what: 'a gzipped SQLite database',
    make: (p, dir) => {
      sqlite(join(dir, 'src.db'), 'CREATE TABLE t (x)');
      writeFileSync(p, gzipSync(readFileSync(join(dir, 'src.db'))));
      rmSync(join(dir, 'src.db'));
    },
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
  },
  {
    what: 'a database with tables and no user_version',
    make: (p) =>
      sqlite(p, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')"),
    code: 'MIRA_ERR_STORE_UNVERSIONED',
    says: /photos|notes/,
  },
  {
    what: 'a WAL-mode database with tables and no user_version',
    make: (p) => sqlite(p, 'CREATE TABLE photos (id INTEGER PRIMARY KEY)', ['journal_mode = WAL']),
    code: 'MIRA_ERR_STORE_UNVERSIONED',
    says: /photos/,
  },
  {
    what: 'a database holding only a view',
    make: (p) => sqlite(p, 'CREATE VIEW v AS SELECT 1'),
    code: 'MIRA_ERR_STORE_UNVERSIONED',
  },
  {
    what: 'another application’s database with user_version 1 (the reproduction)',
    make: (p) => sqlite(p, 'CREATE TABLE photos (id INTEGER PRIMARY KEY)', ['user_version = 1']),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    says: /it has tables photos; user_version 1; application_id 0/,
  },
  {
    what: 'the same in WAL mode (opening it must not create -wal or -shm)',
    make: (p) => sqlite(p, 'CREATE TABLE photos (id INTEGER PRIMARY KEY)', ['journal_mode = WAL', 'user_version = 1']),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    says: /it has tables photos/,
  },
  {
    what: 'an empty database carrying another application’s ID',
    make: (p) => sqlite(p, 'VACUUM', ['application_id = 1196444487']),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    says: /another application \(application_id 0x47504b47\)/,
  },
  {
    what: 'a database with tables and another application’s ID',
    make: (p) => sqlite(p, 'CREATE TABLE blob (x)', ['application_id = 252006674', 'user_version = 1']),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    says: /application_id 0x0f055112/,
  },
  {
    what: 'a database with Mira’s tables and another application’s ID',
    make: (p, _d, kind) => sqlite(p, OUR_TABLES[kind], ['application_id = 42', 'user_version = 1']),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
  },
  {
    what: 'a file of the other Mira store',
    make: (p, _d, kind) => {
      STORES[STORES[kind].other].open(p).close();
    },
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    says: /is a Mira (memory|notes) database, not a Mira (memory|notes) database.*file of its own/,
  },
  {
    what: 'a look-alike: Mira’s table names at the current schema version with no application ID',
    make: (p, _d, kind) => sqlite(p, OUR_TABLES[kind], [`user_version = ${STORES[kind].version}`]),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
  },
  {
    what: 'the look-alike in WAL mode',
    make: (p, _d, kind) =>
      sqlite(p, OUR_TABLES[kind], ['journal_mode = WAL', `user_version = ${STORES[kind].version}`]),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
  },
  {
    what: 'another application’s database with an orphan -journal beside it',
    make: (p) => {
      sqlite(p, 'CREATE TABLE photos (id INTEGER PRIMARY KEY)', ['user_version = 1']);
      writeFileSync(`${p}-journal`, Buffer.alloc(512, 0x5a));
    },
    code: 'MIRA_ERR_STORE_NOT_MIRA',
  },
  {
    what: 'another application’s rollback-mode database with an orphan -wal beside it',
    make: (p) => {
      sqlite(p, 'CREATE TABLE photos (id INTEGER PRIMARY KEY)', ['user_version = 1']);
      writeFileSync(`${p}-wal`, Buffer.alloc(4096, 0x33));
    },
    code: 'MIRA_ERR_STORE_NOT_MIRA',
  },
  {
    what: 'Mira’s tables at another schema version',
    make: (p, _d, kind) => sqlite(p, OUR_TABLES[kind], ['user_version = 9']),
    code: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
  },
  {
    what: 'this store’s application ID at another schema version',
    make: (p, _d, kind) =>
      sqlite(p, 'CREATE TABLE future (x)', [`application_id = ${MIRA_APPLICATION_IDS[kind]}`, 'user_version = 7']),
    code: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
    says: /schema version 7/,
  },
  {
    what: 'schema version 1 with one of Mira’s tables missing',
    make: (p, _d, kind) => sqlite(p, OUR_TABLES[kind].split('; ').slice(1).join('; '), ['user_version = 1']),
    code: 'MIRA_ERR_STORE_NOT_MIRA',
  },
  {
    what: 'user_version 1 with an unrelated table in WAL mode with a live -wal beside it',
    make: (p) => {
      sqlite(p, 'CREATE TABLE ledger (x)', ['journal_mode = WAL', 'user_version = 1']);
      // An uncheckpointed transaction: the -wal file stays after the writer is killed.
      spawnSync(process.execPath, [
        '-e',
        `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(p)}); db.pragma('wal_autocheckpoint = 0'); db.exec("INSERT INTO ledger VALUES (1)"); process.kill(process.pid, 'SIGKILL');`,
      ]);
      if (!existsSync(`${p}-wal`)) throw new Error('the writer left no -wal file');
    },
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    says: /ledger/,
  },
  {
    what: 'a symbolic link to another application’s database',
    make: (p, dir) => {
      sqlite(join(dir, 'target.db'), 'CREATE TABLE photos (id INTEGER PRIMARY KEY)', ['user_version = 1']);
      symlinkSync(join(dir, 'target.db'), p);
    },
    code: 'MIRA_ERR_STORE_SYMLINK',
    says: /is a symbolic link to .*target\.db, which is not a Mira (memory|notes) database \(MIRA_ERR_STORE_NOT_MIRA: /,
  },
  {
    what: 'a directory',
    make: (p) => mkdirSync(p),
    code: 'MIRA_ERR_STORE_OPEN_FAILED',
    says: /not a regular file/,
    special: true,
  },
  {
    what: 'a named pipe',
    make: (p) => execFileSync('mkfifo', [p]),
    code: 'MIRA_ERR_STORE_OPEN_FAILED',
    says: /not a regular file/,
    special: true,
  },
  {
    what: 'a truncated database (first page only of a larger file)',
    make: (p, dir) => {
      sqlite(
        join(dir, 'big.db'),
        `CREATE TABLE t (x); ${Array.from({ length: 50 }, (_, i) => `CREATE TABLE t${i} (a, b, c, d, e, f, g, h)`).join('; ')}`,
        ['user_version = 1'],
      );
      writeFileSync(p, readFileSync(join(dir, 'big.db')).subarray(0, 4096));
      rmSync(join(dir, 'big.db'));
    },
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
  },
];

// `require` for the child process script above.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);

function openError(kind: Kind, path: string): MiraError {
  try {
    STORES[kind].open(path).close();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error(`expected the ${kind} store to refuse ${path}`);
}

for (const kind of ['memory', 'notes'] as const) {
  describe(`${kind} store: files that are not this store's are never changed`, () => {
    let dir: string;
    let path: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), `mira-files-${kind}-`));
      path = join(dir, `${kind}.sqlite3`);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it(`has a matrix of at least 20 refusals`, () => expect(CASES.length).to.be.at.least(20));

    for (const c of CASES) {
      it(`refuses ${c.what} with ${c.code}, byte for byte unchanged, no file added`, () => {
        c.make(path, dir, kind);
        const before = listing(dir);
        const digest = c.special ? undefined : sha256(path);
        const sidecars = ['-wal', '-shm', '-journal'].map((suffix) =>
          existsSync(path + suffix) ? sha256(path + suffix) : undefined,
        );
        const error = openError(kind, path);
        expect(error.code, error.message).to.equal(c.code);
        expect(error.message).to.contain(path);
        if (c.says) expect(error.message).to.match(c.says);
        if (digest) expect(sha256(path)).to.equal(digest);
        expect(
          ['-wal', '-shm', '-journal'].map((suffix) => (existsSync(path + suffix) ? sha256(path + suffix) : undefined)),
        ).to.deep.equal(sidecars);
        expect(listing(dir)).to.deep.equal(before);
      });
    }

    it('marks a new file with its application ID', () => {
      STORES[kind].open(path).close();
      const db = new Database(path, { readonly: true });
      expect(db.pragma('application_id', { simple: true })).to.equal(MIRA_APPLICATION_IDS[kind]);
      expect(db.pragma('user_version', { simple: true })).to.equal(STORES[kind].version);
      db.close();
      STORES[kind].open(path).close();
    });

    it('names a new file in its own header while the store is still open, not only in its log', () => {
      // Read from the header, a reader beside the console (mira mcp) knows the file without recovering the log
      // from a private copy of it.
      const store = STORES[kind].open(path);
      try {
        const header = readFileSync(path).subarray(0, 100);
        expect(header.readInt32BE(68)).to.equal(MIRA_APPLICATION_IDS[kind]);
        expect(header.readInt32BE(60)).to.equal(STORES[kind].version);
      } finally {
        store.close();
      }
    });

    it('adopts an empty SQLite file without an application ID', () => {
      sqlite(path, 'VACUUM');
      STORES[kind].open(path).close();
      const db = new Database(path, { readonly: true });
      expect(db.pragma('application_id', { simple: true })).to.equal(MIRA_APPLICATION_IDS[kind]);
      db.close();
    });

    it('opens a file written before application IDs (schema v1, its tables, ID 0) and marks it once', async () => {
      STORES[kind].open(path).close();
      const db = new Database(path);
      db.pragma('application_id = 0');
      // What this build adds at every open (the notes key index, the keyed notes' own full-text index, the
      // filters' trigram index, the page order indexes, the page's counts and their triggers, the notes'
      // history) a file from before application IDs never had.
      db.exec('DROP TABLE IF EXISTS key_misses; DROP INDEX IF EXISTS notes_by_key_digest');
      db.exec('DROP TABLE IF EXISTS note_history');
      db.exec('DROP TABLE IF EXISTS notes_fts_keyed; DROP TABLE IF EXISTS notes_filter');
      for (const trigger of [
        'note_insert',
        'note_delete',
        'note_move_out',
        'note_move_in',
        'label_insert',
        'label_delete',
        'label_update',
      ])
        db.exec(`DROP TRIGGER IF EXISTS note_counts_${trigger}`);
      db.exec('DROP TABLE IF EXISTS note_counts');
      db.exec('DROP INDEX IF EXISTS notes_by_scope_created; DROP INDEX IF EXISTS notes_by_scope_length');
      db.close();
      const marked = () => {
        const check = new Database(path, { readonly: true });
        const id = check.pragma('application_id', { simple: true });
        check.close();
        return id;
      };
      expect(marked()).to.equal(0);
      STORES[kind].open(path).close();
      expect(marked()).to.equal(MIRA_APPLICATION_IDS[kind]);
    });
  });
}

describe("files Mira creates are its owner's only", () => {
  for (const kind of ['memory', 'notes'] as const) {
    it(`creates a new ${kind} database 0600, its side files 0600, and its directory 0700`, () => {
      const root = mkdtempSync(join(tmpdir(), 'mira-modes-'));
      try {
        const path = join(root, 'data', `${kind}.sqlite3`);
        expect(ensureParentDirectory(path)).to.equal(true);
        const store = STORES[kind].open(path);
        try {
          const mode = (p: string) => statSync(p).mode & 0o777;
          expect(mode(join(root, 'data'))).to.equal(0o700);
          expect(mode(path)).to.equal(0o600);
          for (const side of ['-wal', '-shm']) expect(mode(`${path}${side}`), side).to.equal(0o600);
        } finally {
          store.close();
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }

  it('warns in memory persistent and notes status when an existing store is readable by group or others', async () => {
    const rt = await createTestRuntime({
      plugins: [memoryPlugin, notesPlugin],
      tables: {
        memory: { enabled: true, database_path: 'data/memory.sqlite3' },
        notes: { enabled: true, database_path: 'data/notes.sqlite3' },
      },
    });
    try {
      const memory = join(rt.dir, 'data', 'memory.sqlite3');
      const notes = join(rt.dir, 'data', 'notes.sqlite3');
      const warnings = async () =>
        [...(await rt.run('memory persistent')).output, ...(await rt.run('notes status')).output].filter((l) =>
          l.startsWith('warning:'),
        );
      expect(await warnings()).to.deep.equal([]);
      // Files from before Mira made them owner-only keep their mode.
      chmodSync(memory, 0o644);
      chmodSync(notes, 0o640);
      expect(await warnings()).to.deep.equal([
        `warning: ${memory} is readable by its group and every local user (mode 0644); make it the owner's only: chmod 600 ${memory}`,
        `warning: ${notes} is readable by its group (mode 0640); make it the owner's only: chmod 600 ${notes}`,
      ]);
      chmodSync(memory, 0o600);
      chmodSync(notes, 0o600);
      expect(await warnings()).to.deep.equal([]);
    } finally {
      await rt.dispose();
    }
  });
});

describe('memory files from before application IDs keep their data', () => {
  it('reads entities and memories of a legacy file unchanged after it is marked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-legacy-'));
    try {
      const path = join(dir, 'memory.sqlite3');
      const store = SqliteMemoryStore.open(path);
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      await store.createMemory({
        kind: 'fact',
        summary: 'Ada writes programs',
        sourceKind: 'console',
        links: [{ entityId: ada.id, role: 'subject' }],
      });
      await store.close();
      const db = new Database(path);
      db.pragma('application_id = 0');
      db.close();
      const again = SqliteMemoryStore.open(path);
      expect((await again.findEntities('Ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
      expect((await again.listActiveMemories(ada.id)).memories.map((m) => m.summary)).to.deep.equal([
        'Ada writes programs',
      ]);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('database paths that cannot work fail at once', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-paths-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a parent that cannot be created (no endless mkdir under /proc)', () => {
    expect(() => ensureParentDirectory('/proc/nope/m.sqlite3')).to.throw(
      /MIRA_ERR_STORE_OPEN_FAILED: cannot create the directory \/proc\/nope/,
    );
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => ensureParentDirectory(join(dir, 'file', 'sub', 'm.sqlite3'))).to.throw(/is not a directory/);
  });

  it('creates the last directory level only: a deeper missing parent is refused, nothing created', () => {
    writeFileSync(join(dir, 'profile.toml'), '');
    let refused: unknown;
    try {
      ensureParentDirectory(join(dir, 'dtaa', 'sub', 'memory.sqlite3'), '[memory] database_path');
    } catch (error) {
      refused = error;
    }
    expect(isMiraError(refused) && refused.code).to.equal('MIRA_ERR_STORE_PARENT_MISSING');
    expect((refused as Error).message).to.contain(
      `${join(dir, 'dtaa', 'sub')} does not exist, nor does ${join(dir, 'dtaa')}`,
    );
    expect((refused as Error).message).to.contain('Create');
    expect(readdirSync(dir)).to.deep.equal(['profile.toml']);
    // One level missing: created (0700), and only once.
    expect(ensureParentDirectory(join(dir, 'data', 'memory.sqlite3'))).to.equal(true);
    expect(statSync(join(dir, 'data')).mode & 0o777).to.equal(0o700);
    expect(ensureParentDirectory(join(dir, 'data', 'memory.sqlite3'))).to.equal(false);
  });

  it('refuses a mistyped database path at start-up: exit 1, the code and what to do, nothing on disk', async () => {
    profile('[memory]\nenabled = true\ndatabase_path = "dtaa/sub/memory.sqlite3"');
    const run = await runMira(['--profile', dir], 'quit\n', { timeoutMs: 15_000 });
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr).to.contain(
      `mira: MIRA_ERR_STORE_PARENT_MISSING: store "memory" of plugin @mira/plugin-memory could not be opened: ${join(dir, 'dtaa', 'sub')} does not exist, nor does ${join(dir, 'dtaa')}`,
    );
    expect(run.stderr).to.contain('mira: what to do: create the directory yourself if the path is meant');
    expect(readdirSync(dir)).to.deep.equal(['profile.toml']);
  });

  it('creates one missing level, says each new store on stderr with its path, and memory persistent says it', async () => {
    profile(
      '[memory]\nenabled = true\ndatabase_path = "data/memory.sqlite3"\n\n[notes]\nenabled = true\ndatabase_path = "data/notes.sqlite3"',
    );
    const first = await runMira(['--profile', dir], 'memory persistent\nquit\n', { timeoutMs: 15_000 });
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stderr.split('\n').filter((l) => l.includes('created a new store'))).to.deep.equal([
      `mira: memory: created a new store at ${join(dir, 'data', 'memory.sqlite3')}`,
      `mira: notes: created a new store at ${join(dir, 'data', 'notes.sqlite3')}`,
    ]);
    expect(first.stdout).to.contain(
      `database: ${join(dir, 'data', 'memory.sqlite3')}\ncreated: now, by this start (a new, empty store)\n`,
    );
    // The next start opens the same stores: nothing is said to be new.
    const again = await runMira(['--profile', dir], 'memory persistent\nquit\n', { timeoutMs: 15_000 });
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stderr).not.to.contain('created a new store');
    expect(again.stdout).to.contain(`database: ${join(dir, 'data', 'memory.sqlite3')}\nschema version:`);
  });

  const profile = (tables: string) => {
    writeFileSync(
      join(dir, 'profile.toml'),
      `[profile]\nname = "Mira"\nplugins = ["@mira/plugin-memory", "@mira/plugin-notes"]\n\n${tables}\n`,
    );
    return dir;
  };

  it('starts the CLI on /proc/nope and fails within seconds with the reason', async () => {
    const run = await runMira(
      ['--profile', profile('[memory]\nenabled = true\ndatabase_path = "/proc/nope/m.sqlite3"')],
      'quit\n',
      { timeoutMs: 15_000 },
    );
    expect(run.signal).to.equal(null);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('MIRA_ERR_STORE_OPEN_FAILED');
    expect(run.stderr).to.contain('/proc/nope');
  });

  it('says so when memory and notes name the same file, and leaves the memory file intact', async () => {
    const run = await runMira(
      [
        '--profile',
        profile(
          '[memory]\nenabled = true\ndatabase_path = "same.sqlite3"\n\n[notes]\nenabled = true\ndatabase_path = "same.sqlite3"',
        ),
      ],
      'quit\n',
      { timeoutMs: 15_000 },
    );
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('MIRA_ERR_STORE_NOT_MIRA');
    expect(run.stderr).to.match(/is a Mira memory database, not a Mira notes database/);
    const db = new Database(join(dir, 'same.sqlite3'), { readonly: true });
    expect(db.pragma('application_id', { simple: true })).to.equal(MIRA_APPLICATION_IDS.memory);
    db.close();
  });

  it('refuses a read-only database directory at start-up, saying read-only', async function () {
    const uid = process.getuid?.();
    const cannot = whyUnprivilegedCannotRun();
    if (cannot) {
      this.test!.title += ` (skipped: ${cannot})`;
      this.skip();
    }
    // Root writes anywhere, so the check runs as an unprivileged user when the tests run as root.
    const asUser = uid === 0 ? NOBODY : {};
    const data = join(dir, 'data');
    mkdirSync(data);
    profile('[memory]\nenabled = true\ndatabase_path = "data/memory.sqlite3"');
    chmodSync(dir, 0o755);
    chmodSync(data, 0o555);
    const run = await runMira(['--profile', dir], 'quit\n', { ...asUser, timeoutMs: 15_000, cwd: tmpdir() });
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr).to.contain('MIRA_ERR_STORE_READ_ONLY');
    expect(run.stderr).to.contain('read-only');
    expect(listing(data)).to.deep.equal([]);
  });

  it('refuses a read-only database file at start-up, leaving it unchanged', async function () {
    const uid = process.getuid?.();
    const cannot = whyUnprivilegedCannotRun();
    if (cannot) {
      this.test!.title += ` (skipped: ${cannot})`;
      this.skip();
    }
    const asUser = uid === 0 ? NOBODY : {};
    profile('[memory]\nenabled = true\ndatabase_path = "memory.sqlite3"');
    SqliteMemoryStore.open(join(dir, 'memory.sqlite3')).close();
    copyFileSync(join(dir, 'memory.sqlite3'), join(dir, 'copy'));
    rmSync(join(dir, 'copy'));
    chmodSync(dir, 0o777);
    chmodSync(join(dir, 'memory.sqlite3'), 0o444);
    const digest = sha256(join(dir, 'memory.sqlite3'));
    const run = await runMira(['--profile', dir], 'quit\n', { ...asUser, timeoutMs: 15_000, cwd: tmpdir() });
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr).to.contain('MIRA_ERR_STORE_READ_ONLY');
    expect(sha256(join(dir, 'memory.sqlite3'))).to.equal(digest);
  });
});

describe('the memory guide names the application IDs as they are', () => {
  it('gives each ID in hex, decimal and ASCII as the code has it', () => {
    const readme = readFileSync(join(REPO_ROOT, 'docs/memory.md'), 'utf8');
    const named = [...readme.matchAll(/`0x([0-9a-f]{8})` \((\d+), "(\w{4})"\)/g)];
    expect(named.map((m) => Number.parseInt(m[1]!, 16))).to.deep.equal([
      MIRA_APPLICATION_IDS.memory,
      MIRA_APPLICATION_IDS.notes,
    ]);
    for (const [, hex, decimal, ascii] of named) {
      expect(Number(decimal), hex).to.equal(Number.parseInt(hex!, 16));
      expect(Buffer.from(hex!, 'hex').toString('latin1'), hex).to.equal(ascii);
    }
  });
});
